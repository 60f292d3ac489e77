import Foundation

// Writes a Swift file declaring `DefaultTemplates.files`: file name -> contents, for every file in a folder.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedTemplatesTool TEMPLATES_DIR OUTPUT.swift\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments[1])
// The files of the folder, and of its `i18n/` folder of translation tables (named `i18n/de.yaml`).
var names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    .filter { !$0.hasPrefix(".") && $0 != "i18n" }
if let tables = try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("i18n").path) {
    names += tables.filter { !$0.hasPrefix(".") }.map { "i18n/" + $0 }
}
names.sort()
var source = "// Generated from Templates/ by EmbedTemplatesTool. Do not edit.\n"
source += "enum DefaultTemplates {\n    static let files: [String: String] = [\n"
for name in names {
    let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    source += "        \"\(name)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
// SwiftPM reruns this command whenever the tool is relinked (a `swift test` after a `swift build` relinks it), so an
// unchanged file is left alone: a new modification time would recompile InvoicesSite (docs/performance.md).
let output = URL(fileURLWithPath: arguments[2])
let data = Data(source.utf8)
if (try? Data(contentsOf: output)) != data {
    try data.write(to: output, options: .atomic)
}
