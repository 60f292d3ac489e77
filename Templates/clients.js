// The search box of clients.html: filters the list as you type, by name, number or city (every word must match,
// ignoring case and accents). Without JavaScript the box stays hidden and the whole list shows.
// `clients.html?q=words` opens the page filtered.
(function () {
  "use strict";
  var box = document.getElementById("client-search");
  var list = document.getElementById("client-list");
  var count = document.getElementById("client-count");
  if (!box || !list || !list.tBodies.length) { return; }
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  var rows = Array.prototype.slice.call(list.tBodies[0].rows);
  var texts = rows.map(function (row) {
    var cells = row.cells;
    return fold([cells[0], cells[1], cells[2]].map(function (cell) { return cell ? cell.textContent : ""; }).join(" "));
  });
  function apply() {
    var words = fold(box.value).split(/\s+/).filter(function (word) { return word.length > 0; });
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var match = words.every(function (word) { return texts[i].indexOf(word) !== -1; });
      rows[i].hidden = !match;
      if (match) { shown++; }
    }
    count.textContent = words.length ? shown + " of " + rows.length + " clients" : "";
  }
  box.addEventListener("input", apply);
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) { box.value = query; }
  document.getElementById("client-search-box").hidden = false;
  apply();
})();
