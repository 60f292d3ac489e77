import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a tree of elements, read by Foundation's `XMLParser` (libxml2 on Linux) with namespaces
/// processed and nothing resolved: a document with a document type declaration is refused before it is parsed, so
/// there are no entities to expand (no XXE, no "billion laughs") and no external resources are read.
struct XMLTree: Sendable {
    /// One element: its namespace and local name, its name as written (`cbc:ID`), its attributes, its children
    /// and its text (the character data directly inside it, trimmed).
    struct Element: Sendable {
        var namespace: String
        var name: String
        var qualifiedName: String
        var attributes: [String: String]
        var children: [Element]
        var text: String
        /// The element's path from the root, as written (`/Invoice/cac:LegalMonetaryTotal/cbc:PayableAmount`).
        var path: String

        /// The first child named `name` (local name).
        func child(_ name: String) -> Element? { children.first { $0.name == name } }
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

    init(bytes: [UInt8]) throws(Failure) {
        if Self.hasDocumentType(bytes) {
            throw Failure(
                line: nil,
                message: "has a document type declaration (<!DOCTYPE>); e-invoices have none, and the tool reads none, so no entity "
                    + "or external resource is ever expanded or fetched")
        }
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "it is not well-formed"
            // The parser says line 0 when it stops before its first line is through (a file of `<`): a line of the
            // file is named all the same.
            let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw Failure(line: min(max(parser.lineNumber, 1), lines), message: "is not well-formed XML: \(reason)")
        }
        self.root = root
    }

    /// Whether `bytes` hold `<!DOCTYPE` (in any case) outside the first comment-free text: a DTD anywhere in the
    /// prolog, which is where XML allows one.
    static func hasDocumentType(_ bytes: [UInt8]) -> Bool {
        let needle = Array("<!doctype".utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == UInt8(ascii: "<") {
            if (0..<needle.count).allSatisfy({ bytes[start + $0] | 0x20 == needle[$0] | 0x20 }) { return true }
        }
        return false
    }

    /// Collects the elements as the parser reports them.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var texts: [String] = []
        var root: Element?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            let written = qName ?? elementName
            let path = (stack.last?.path ?? "") + "/" + written
            stack.append(
                Element(
                    namespace: namespaceURI ?? "", name: elementName, qualifiedName: written, attributes: attributeDict, children: [],
                    text: "", path: path))
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !texts.isEmpty else { return }
            texts[texts.count - 1] += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !texts.isEmpty else { return }
            texts[texts.count - 1] += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard var element = stack.popLast(), let text = texts.popLast() else { return }
            element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
