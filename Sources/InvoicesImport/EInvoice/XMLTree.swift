import Foundation
internal import InvoicesCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a tree of elements, read by Foundation's `XMLParser` (libxml2 on Linux) with namespaces
/// processed and nothing resolved: the document is first transcoded to UTF-8 (by its byte order mark, its first
/// bytes or its declared encoding; an encoding the tool does not know is refused by name), then a document with a
/// document type declaration is refused before it is parsed, so there are no entities to expand (no XXE, no
/// "billion laughs") and no external resources are read.
///
/// Held to ``InvoicesCore/InputBudget``: at most ``InputBudget/xmlDepth`` levels and ``InputBudget/xmlElements``
/// elements. The elements are kept in columns (interned names, a parent, a first child and a next sibling each), so
/// no element holds its path: an element's path is built from its parents when a message needs it.
struct XMLTree: Sendable {
    /// The elements in document order, in columns.
    final class Storage: Sendable {
        struct Node: Sendable {
            var namespace: Int32, name: Int32, qualifiedName: Int32
            var parent: Int32, firstChild: Int32 = -1, lastChild: Int32 = -1, nextSibling: Int32 = -1
            var attributes: Int32 = -1
            var text = ""
        }

        let nodes: [Node]
        let strings: [String]
        let attributes: [[String: String]]

        init(nodes: [Node], strings: [String], attributes: [[String: String]]) {
            self.nodes = nodes
            self.strings = strings
            self.attributes = attributes
        }
    }

    /// One element: its namespace and local name, its name as written (`cbc:ID`), its attributes, its children
    /// and its text (the character data directly inside it, trimmed).
    struct Element: Sendable {
        let storage: Storage
        let index: Int32

        private var node: Storage.Node { storage.nodes[Int(index)] }
        var namespace: String { storage.strings[Int(node.namespace)] }
        var name: String { storage.strings[Int(node.name)] }
        var qualifiedName: String { storage.strings[Int(node.qualifiedName)] }
        var attributes: [String: String] { node.attributes < 0 ? [:] : storage.attributes[Int(node.attributes)] }
        var text: String { node.text }
        var hasChildren: Bool { node.firstChild >= 0 }

        var children: [Element] {
            var result: [Element] = []
            var child = node.firstChild
            while child >= 0 {
                result.append(Element(storage: storage, index: child))
                child = storage.nodes[Int(child)].nextSibling
            }
            return result
        }

        /// The element's path from the root, as written (`/Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount`).
        var path: String {
            var names: [String] = []
            var current = index
            while current >= 0 {
                names.append(storage.strings[Int(storage.nodes[Int(current)].qualifiedName)])
                current = storage.nodes[Int(current)].parent
            }
            return names.reversed().map { "/" + $0 }.joined()
        }

        /// The first child named `name` (local name).
        func child(_ name: String) -> Element? {
            var child = node.firstChild
            while child >= 0 {
                let candidate = storage.nodes[Int(child)]
                if storage.strings[Int(candidate.name)] == name { return Element(storage: storage, index: child) }
                child = candidate.nextSibling
            }
            return nil
        }
        /// Every child named `name`.
        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
        /// The element at the end of `names`, child after child.
        func at(_ names: String...) -> Element? { at(names) }
        func at(_ names: [String]) -> Element? {
            var element = self
            for name in names {
                guard let next = element.child(name) else { return nil }
                element = next
            }
            return element
        }
    }

    /// Why a document could not be read, with the line where the parser stopped.
    struct Failure: Error, Sendable {
        var line: Int?
        var message: String
    }

    let root: Element

    init(bytes original: [UInt8]) throws(Failure) {
        let bytes = try Self.utf8(original)
        if Self.hasDocumentType(bytes) {
            throw Failure(
                line: nil,
                message: "has a document type declaration (<!DOCTYPE>); e-invoices have none, and the tool reads none, so no entity "
                    + "or external resource is ever expanded or fetched")
        }
        let builder = Builder()
        // From a stream, in chunks: given the whole document as one chunk, libxml2 stops past 10,000,000 bytes
        // ("error 1"), below the budget's 32 MB.
        let parser = XMLParser(stream: InputStream(data: Data(bytes)))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let exceeded = builder.exceeded {
            throw Failure(line: max(parser.lineNumber, 1), message: exceeded)
        }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "it is not well-formed"
            // The parser says line 0 when it stops before its first line is through (a file of `<`): a line of the
            // file is named all the same.
            let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw Failure(line: min(max(parser.lineNumber, 1), lines), message: "is not well-formed XML: \(reason)")
        }
        let storage = Storage(nodes: builder.nodes, strings: builder.strings, attributes: builder.attributeSets)
        self.root = Element(storage: storage, index: root)
    }

    /// Whether `bytes` hold `<!DOCTYPE` (in any case) anywhere: a DTD anywhere in the prolog, which is where XML
    /// allows one. The bytes are UTF-8 (``utf8(_:)``), the only encoding the parser is given.
    static func hasDocumentType(_ bytes: [UInt8]) -> Bool {
        let needle = Array("<!doctype".utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == UInt8(ascii: "<") {
            if (0..<needle.count).allSatisfy({ bytes[start + $0] | 0x20 == needle[$0] | 0x20 }) { return true }
        }
        return false
    }

    /// The encodings read besides UTF-8 and ASCII, by their names in lower case.
    static let singleByteEncodings: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso_8859-1": .isoLatin1, "latin1": .isoLatin1, "latin-1": .isoLatin1, "l1": .isoLatin1,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
    ]

    /// `bytes` as UTF-8, the one encoding the parser is given: UTF-8 (or ASCII) as it is; UTF-16 and UTF-32 (by
    /// their byte order mark or, without one, by the zero bytes around the first `<`), ISO-8859-1 and windows-1252
    /// (by the XML declaration) transcoded, with the declaration replaced by one without an encoding. Any other
    /// declared encoding is refused by name: what the tool has not transcoded it does not parse.
    static func utf8(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        let wide: (encoding: String.Encoding, name: String, bom: Int)? =
            if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { (.utf32LittleEndian, "UTF-32LE", 4) }
            else if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { (.utf32BigEndian, "UTF-32BE", 4) }
            else if bytes.starts(with: [0xFF, 0xFE]) { (.utf16LittleEndian, "UTF-16LE", 2) }
            else if bytes.starts(with: [0xFE, 0xFF]) { (.utf16BigEndian, "UTF-16BE", 2) }
            else if bytes.count >= 4, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0, bytes[0] != 0 { (.utf32LittleEndian, "UTF-32LE", 0) }
            else if bytes.count >= 4, bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, bytes[3] != 0 { (.utf32BigEndian, "UTF-32BE", 0) }
            else if bytes.count >= 2, bytes[0] != 0, bytes[1] == 0 { (.utf16LittleEndian, "UTF-16LE", 0) }
            else if bytes.count >= 2, bytes[0] == 0, bytes[1] != 0 { (.utf16BigEndian, "UTF-16BE", 0) }
            else { nil }
        let text: String
        if let wide {
            guard let decoded = String(bytes: bytes.dropFirst(wide.bom), encoding: wide.encoding) else {
                throw Failure(line: nil, message: "is not valid \(wide.name) text (its first bytes say it is \(wide.name)); save it as UTF-8")
            }
            text = decoded
        } else {
            let utf8BOM = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let declared = try declaredEncoding(bytes.dropFirst(utf8BOM))
            let name = declared?.lowercased() ?? "utf-8"
            if ["utf-8", "utf8", "us-ascii", "ascii"].contains(name) {
                // FoundationXML traps on an element name that is not UTF-8 (found by FuzzCSVImport): checked here.
                if let line = firstInvalidUTF8Line(bytes) {
                    throw Failure(line: line, message: "is not valid UTF-8 text; save it as UTF-8 (or declare its encoding)")
                }
                return bytes
            }
            guard let declared else { return bytes }
            if name.hasPrefix("utf-16") || name.hasPrefix("utf-32") || name.hasPrefix("ucs") {
                throw Failure(line: 1, message: "declares the encoding '\(declared)', but its first bytes are not in it; save it as UTF-8")
            }
            guard utf8BOM == 0, let encoding = singleByteEncodings[name] else {
                throw Failure(
                    line: 1,
                    message: "declares the encoding '\(declared)', which the tool does not read"
                        + (utf8BOM != 0 ? " (and starts with a UTF-8 byte order mark)" : "")
                        + "; save it as UTF-8 (UTF-16, UTF-32, ISO-8859-1 and windows-1252 are read too)")
            }
            guard let decoded = String(bytes: bytes, encoding: encoding) else {
                throw Failure(line: nil, message: "is not valid \(declared) text; save it as UTF-8")
            }
            text = decoded
        }
        var utf8 = Array(text.utf8)
        // The declaration names the old encoding: replaced by one that names none (UTF-8), keeping its line breaks.
        if utf8.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: Array("?>".utf8), in: utf8[...]) {
            let breaks = utf8[..<end].filter { $0 == 0x0A }.count
            utf8.replaceSubrange(..<(end + 2), with: Array(("<?xml version=\"1.0\"?>" + String(repeating: "\n", count: breaks)).utf8))
        }
        return utf8
    }

    /// The line of the first byte sequence in `bytes` that is not UTF-8, or nil when they all are.
    static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): if scalar.count == 1, scalar.first == 0x0A { line += 1 }
            case .emptyInput: return nil
            case .error: return line
            }
        }
    }

    /// The encoding an XML declaration at the start of `bytes` names, or nil when there is no declaration or it
    /// names none.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) throws(Failure) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = firstIndex(of: Array("?>".utf8), in: bytes) else { return nil }
        let declaration = bytes[bytes.startIndex..<end]
        guard let key = firstIndex(of: Array("encoding".utf8), in: declaration) else { return nil }
        var index = key + 8
        func skipSpaces() { while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 } }
        skipSpaces()
        guard index < end, bytes[index] == UInt8(ascii: "=") else {
            throw Failure(line: 1, message: "has an XML declaration whose encoding cannot be read; save it as UTF-8")
        }
        index += 1
        skipSpaces()
        guard index < end, [UInt8(ascii: "\""), UInt8(ascii: "'")].contains(bytes[index]),
            let close = bytes[(index + 1)..<end].firstIndex(of: bytes[index])
        else { throw Failure(line: 1, message: "has an XML declaration whose encoding cannot be read; save it as UTF-8") }
        return String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
    }

    static func firstIndex(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in bytes.startIndex...(bytes.endIndex - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    /// Collects the elements as the parser reports them, within the budget.
    private final class Builder: NSObject, XMLParserDelegate {
        var nodes: [Storage.Node] = []
        var strings: [String] = []
        var stringIndex: [String: Int32] = [:]
        var attributeSets: [[String: String]] = []
        var stack: [Int32] = []
        var texts: [String] = []
        var root: Int32?
        /// Why parsing stopped at a budget, naming it.
        var exceeded: String?

        func intern(_ string: String) -> Int32 {
            if let index = stringIndex[string] { return index }
            let index = Int32(strings.count)
            strings.append(string)
            stringIndex[string] = index
            return index
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            guard exceeded == nil else { return }
            if stack.count >= InputBudget.xmlDepth {
                exceeded = "nests elements deeper than \(InputBudget.xmlDepth) levels, the limit for an XML file (docs/reliability.md)"
            } else if nodes.count >= InputBudget.xmlElements {
                exceeded = "has more than \(InputBudget.xmlElements) elements, the limit for an XML file (docs/reliability.md)"
            }
            if exceeded != nil {
                parser.abortParsing()
                return
            }
            let index = Int32(nodes.count)
            let parent = stack.last ?? -1
            var node = Storage.Node(
                namespace: intern(namespaceURI ?? ""), name: intern(elementName), qualifiedName: intern(qName ?? elementName), parent: parent)
            if !attributeDict.isEmpty {
                node.attributes = Int32(attributeSets.count)
                attributeSets.append(attributeDict)
            }
            nodes.append(node)
            if parent >= 0 {
                let last = nodes[Int(parent)].lastChild
                if last >= 0 { nodes[Int(last)].nextSibling = index } else { nodes[Int(parent)].firstChild = index }
                nodes[Int(parent)].lastChild = index
            }
            stack.append(index)
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard exceeded == nil, !texts.isEmpty else { return }
            texts[texts.count - 1] += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard exceeded == nil, !texts.isEmpty else { return }
            texts[texts.count - 1] += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard exceeded == nil, let index = stack.popLast(), let text = texts.popLast() else { return }
            nodes[Int(index)].text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty { root = index }
        }
    }
}
