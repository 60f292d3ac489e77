internal import CQPDF
internal import Foundation

/// The XML invoice inside a Factur-X / ZUGFeRD (or XRechnung-in-PDF) file: a PDF/A-3 with the CII document attached as
/// `factur-x.xml`, `zugferd-invoice.xml` or `xrechnung.xml`. Read with libqpdf: the attachments are the PDF's
/// embedded files (the `/EmbeddedFiles` name tree and the associated files `/AF`), their streams decoded by qpdf.
enum FacturX {
    /// The attachment names an e-invoice travels under, in lower case.
    static let names: Set<String> = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "order-x.xml"]

    struct Failure: Error, Sendable { var message: String }

    /// The attached invoice's bytes.
    static func invoiceXML(pdf bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var handle: qpdf_data? = qpdf_init()
        guard let qpdf = handle else { throw Failure(message: "could not start libqpdf") }
        defer { qpdf_cleanup(&handle) }
        qpdf_silence_errors(qpdf)
        qpdf_set_suppress_warnings(qpdf, 1)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                qpdf_read_memory(qpdf, "invoice.pdf", $0, UInt64(buffer.count), nil)
            }
        }
        if status & QPDF_ERRORS != 0 {
            let text = qpdf_has_error(qpdf) != 0 ? String(cString: qpdf_get_error_full_text(qpdf, qpdf_get_error(qpdf))) : "unreadable"
            throw Failure(message: "is not a PDF libqpdf can read: \(text)")
        }
        var attachments: [(name: String, stream: qpdf_oh)] = []
        let root = qpdf_get_root(qpdf)
        /// The file specifications of a name tree node: its `/Names` pairs and its `/Kids`, depth first.
        func walk(_ node: qpdf_oh, depth: Int) {
            guard depth < 32, qpdf_oh_is_dictionary(qpdf, node) != 0 else { return }
            let names = qpdf_oh_get_key(qpdf, node, "/Names")
            if qpdf_oh_is_array(qpdf, names) != 0 {
                let count = qpdf_oh_get_array_n_items(qpdf, names)
                for index in stride(from: 1, to: Int(count), by: 2) { add(qpdf_oh_get_array_item(qpdf, names, Int32(index))) }
            }
            let kids = qpdf_oh_get_key(qpdf, node, "/Kids")
            if qpdf_oh_is_array(qpdf, kids) != 0 {
                for index in 0..<qpdf_oh_get_array_n_items(qpdf, kids) { walk(qpdf_oh_get_array_item(qpdf, kids, index), depth: depth + 1) }
            }
        }
        /// A file specification's name (`/UF`, else `/F`) and its embedded stream (`/EF /F`, else `/EF /UF`).
        func add(_ spec: qpdf_oh) {
            guard qpdf_oh_is_dictionary(qpdf, spec) != 0 else { return }
            var name = ""
            for key in ["/UF", "/F"] where name.isEmpty {
                let value = qpdf_oh_get_key(qpdf, spec, key)
                if qpdf_oh_is_string(qpdf, value) != 0, let text = qpdf_oh_get_utf8_value(qpdf, value) { name = String(cString: text) }
            }
            let embedded = qpdf_oh_get_key(qpdf, spec, "/EF")
            for key in ["/F", "/UF"] {
                let stream = qpdf_oh_get_key(qpdf, embedded, key)
                if qpdf_oh_is_stream(qpdf, stream) != 0 {
                    attachments.append((name, stream))
                    return
                }
            }
        }
        walk(qpdf_oh_get_key(qpdf, qpdf_oh_get_key(qpdf, root, "/Names"), "/EmbeddedFiles"), depth: 0)
        let associated = qpdf_oh_get_key(qpdf, root, "/AF")
        if qpdf_oh_is_array(qpdf, associated) != 0 {
            for index in 0..<qpdf_oh_get_array_n_items(qpdf, associated) { add(qpdf_oh_get_array_item(qpdf, associated, index)) }
        }
        guard let invoice = attachments.first(where: { names.contains($0.name.lowercased()) }) else {
            let found = Set(attachments.map(\.name)).sorted()
            throw Failure(
                message: "is a PDF without an e-invoice attached: a Factur-X or ZUGFeRD PDF carries factur-x.xml, zugferd-invoice.xml "
                    + "or xrechnung.xml" + (found.isEmpty ? "; this one has no attachments" : "; this one has " + found.joined(separator: ", ")))
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_stream_data(qpdf, invoice.stream, qpdf_dl_generalized, nil, &buffer, &length) & QPDF_ERRORS == 0, let buffer
        else { throw Failure(message: "has an attachment \(invoice.name) that libqpdf cannot decode") }
        defer { free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
}
