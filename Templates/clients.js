// The search box of clients.html: filters the list as you type, by name, number or city (every word must match,
// ignoring case and accents). Without JavaScript the box stays hidden and the whole list shows.
// `clients.html?q=words` opens the page filtered.
// When the clients are more than a page, clients.html lists none itself: the box searches every client in
// clients-index.js (`window.invoicesClients`) and shows the first matches; the pages of the list are linked.
(function () {
  "use strict";
  var box = document.getElementById("client-search");
  var list = document.getElementById("client-list");
  var count = document.getElementById("client-count");
  if (!box || !list || !list.tBodies.length) { return; }
  var limit = 200;
  // The counter's words come from the page, in its language: data-count ("{found} of {total} clients") and
  // data-count-first (past the limit, "..., the first {limit} shown"), their placeholders filled here. Without them
  // (a template of its own) the counter shows the figures alone, "3 / 40".
  function counted(found, total, limited) {
    var words = count.getAttribute(limited ? "data-count-first" : "data-count");
    if (words === null) { return found + " / " + total; }
    var values = { found: found, total: total, limit: limit };
    return words.replace(/\{(found|total|limit)\}/g, function (whole, name) { return String(values[name]); });
  }
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function words() {
    return fold(box.value).split(/\s+/).filter(function (word) { return word.length > 0; });
  }
  function matches(text, wanted) {
    return wanted.every(function (word) { return text.indexOf(word) !== -1; });
  }
  var index = window.invoicesClients;
  var apply;
  if (Array.isArray(index)) {
    // [number, name, city, address, currencies, invoices] per client; the rows are made with textContent.
    var indexTexts = index.map(function (entry) { return fold(entry[0] + " " + entry[1] + " " + entry[2]); });
    var body = list.tBodies[0];
    apply = function () {
      var wanted = words();
      while (body.firstChild) { body.removeChild(body.firstChild); }
      if (!wanted.length) { list.hidden = true; count.textContent = ""; return; }
      var found = 0;
      for (var i = 0; i < index.length; i++) {
        if (!matches(indexTexts[i], wanted)) { continue; }
        found++;
        if (found > limit) { continue; }
        var entry = index[i];
        var row = body.insertRow();
        row.insertCell().textContent = entry[0];
        var name = document.createElement("th");
        name.scope = "row";
        if (entry[3]) {
          var link = document.createElement("a");
          link.href = entry[3];
          link.textContent = entry[1];
          name.appendChild(link);
        } else {
          name.textContent = entry[1];
        }
        row.appendChild(name);
        row.insertCell().textContent = entry[2];
        row.insertCell().textContent = entry[4];
        var invoices = row.insertCell();
        invoices.className = "num";
        invoices.textContent = entry[5];
      }
      list.hidden = found === 0;
      count.textContent = counted(found, index.length, found > limit);
    };
  } else {
    var rows = Array.prototype.slice.call(list.tBodies[0].rows);
    var texts = rows.map(function (row) {
      var cells = row.cells;
      return fold([cells[0], cells[1], cells[2]].map(function (cell) { return cell ? cell.textContent : ""; }).join(" "));
    });
    apply = function () {
      var wanted = words();
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var match = matches(texts[i], wanted);
        rows[i].hidden = !match;
        if (match) { shown++; }
      }
      count.textContent = wanted.length ? counted(shown, rows.length, false) : "";
    };
  }
  box.addEventListener("input", apply);
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) { box.value = query; }
  document.getElementById("client-search-box").hidden = false;
  apply();
})();
