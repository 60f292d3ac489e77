internal import CQPDF
internal import Foundation
internal import InvoicesCore

/// The XML invoice inside a Factur-X / ZUGFeRD (or XRechnung-in-PDF) file: a PDF/A-3 with the CII document attached as
/// `factur-x.xml`, `zugferd-invoice.xml` or `xrechnung.xml`. Read with libqpdf: the attachments are the PDF's
/// embedded files (the `/EmbeddedFiles` name tree and the associated files `/AF`), their streams decoded by qpdf.
enum FacturX {
    /// The attachment names an e-invoice travels under, in lower case, in the order one is read when a PDF carries
    /// several.
    static let preference = ["factur-x.xml", "xrechnung.xml", "zugferd-invoice.xml", "order-x.xml"]

    struct Failure: Error, Sendable { var message: String }

    /// The attached invoice's bytes.
    static func invoiceXML(pdf bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var handle: qpdf_data? = qpdf_init()
        guard let qpdf = handle else { throw Failure(message: "could not start libqpdf") }
        defer {
            // An error left unread makes libqpdf print "WARNING: application did not handle error" at cleanup (a
            // damaged PDF without a catalog, found by FuzzEInvoicePDF): it is read, and the file already refused.
            if qpdf_has_error(qpdf) != 0 { _ = qpdf_get_error(qpdf) }
            qpdf_cleanup(&handle)
        }
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
        guard qpdf_has_error(qpdf) == 0, qpdf_oh_is_dictionary(qpdf, root) != 0 else {
            throw Failure(message: "is not a PDF libqpdf can read: it has no document catalog (/Root)")
        }
        // Every node of the name tree and every file specification counts against the budget; an indirect object
        // is visited once (a `/Kids` array naming its own node, or one node twice, is walked once).
        var visits = 0
        var visited: Set<Int64> = []
        var overBudget = false
        func visit(_ node: qpdf_oh) -> Bool {
            guard !overBudget else { return false }
            visits += 1
            if visits > InputBudget.pdfObjects {
                overBudget = true
                return false
            }
            if qpdf_oh_is_indirect(qpdf, node) != 0 {
                let key = Int64(qpdf_oh_get_object_id(qpdf, node)) << 32 | Int64(UInt32(bitPattern: qpdf_oh_get_generation(qpdf, node)))
                return visited.insert(key).inserted
            }
            return true
        }
        /// The file specifications of a name tree node: its `/Names` pairs and its `/Kids`, depth first.
        func walk(_ node: qpdf_oh, depth: Int) {
            guard depth < 32, qpdf_oh_is_dictionary(qpdf, node) != 0, visit(node) else { return }
            let names = qpdf_oh_get_key(qpdf, node, "/Names")
            if qpdf_oh_is_array(qpdf, names) != 0 {
                let count = qpdf_oh_get_array_n_items(qpdf, names)
                for index in stride(from: 1, to: Int(count), by: 2) where !overBudget { add(qpdf_oh_get_array_item(qpdf, names, Int32(index))) }
            }
            let kids = qpdf_oh_get_key(qpdf, node, "/Kids")
            if qpdf_oh_is_array(qpdf, kids) != 0 {
                for index in 0..<qpdf_oh_get_array_n_items(qpdf, kids) where !overBudget {
                    walk(qpdf_oh_get_array_item(qpdf, kids, index), depth: depth + 1)
                }
            }
        }
        /// A file specification's name (`/UF`, else `/F`) and its embedded stream (`/EF /F`, else `/EF /UF`).
        func add(_ spec: qpdf_oh) {
            guard qpdf_oh_is_dictionary(qpdf, spec) != 0, visit(spec) else { return }
            var name = ""
            for key in ["/UF", "/F"] where name.isEmpty {
                let value = qpdf_oh_get_key(qpdf, spec, key)
                if qpdf_oh_is_string(qpdf, value) != 0, let text = qpdf_oh_get_utf8_value(qpdf, value) {
                    name = String(String(cString: text).prefix(InputBudget.nameBytes))
                }
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
            for index in 0..<qpdf_oh_get_array_n_items(qpdf, associated) where !overBudget { add(qpdf_oh_get_array_item(qpdf, associated, index)) }
        }
        if overBudget {
            throw Failure(
                message: "has more than \(InputBudget.pdfObjects) objects in its attachment lists (name tree and /AF), the limit "
                    + "for a PDF (docs/reliability.md)")
        }
        // `factur-x.xml` first: a PDF may carry a ZUGFeRD 1 `ZUGFeRD-invoice.xml` beside it (sorted before it in the
        // name tree), an older syntax the tool does not read.
        let invoice = preference.lazy.compactMap { name in attachments.first { $0.name.lowercased() == name } }.first
        guard let invoice else {
            let found = Set(attachments.map(\.name)).sorted()
            throw Failure(
                message: "is a PDF without an e-invoice attached: a Factur-X or ZUGFeRD PDF carries factur-x.xml, zugferd-invoice.xml "
                    + "or xrechnung.xml" + (found.isEmpty ? "; this one has no attachments" : "; this one has " + found.joined(separator: ", ")))
        }
        return try decoded(qpdf, invoice.stream, name: invoice.name)
    }

    /// The attachment's bytes, decoded under ``InvoicesCore/InputBudget/eInvoiceBytes`` while they are inflated:
    /// the raw stream from qpdf (no larger than the file), then each of its filters, FlateDecode (zlib) the one an
    /// e-invoice attachment uses. Any other filter, or a predictor, is refused by name.
    static func decoded(_ qpdf: qpdf_data, _ stream: qpdf_oh, name: String) throws(Failure) -> [UInt8] {
        let dictionary = qpdf_oh_get_dict(qpdf, stream)
        let filter = qpdf_oh_get_key(qpdf, dictionary, "/Filter")
        var filters: [String] = []
        if qpdf_oh_is_name(qpdf, filter) != 0 {
            filters = [String(cString: qpdf_oh_get_name(qpdf, filter))]
        } else if qpdf_oh_is_array(qpdf, filter) != 0 {
            let count = qpdf_oh_get_array_n_items(qpdf, filter)
            guard count <= 8 else { throw Failure(message: "has an attachment \(name) with \(count) filters; the tool decodes at most 8") }
            for index in 0..<count {
                let item = qpdf_oh_get_array_item(qpdf, filter, index)
                filters.append(qpdf_oh_is_name(qpdf, item) != 0 ? String(cString: qpdf_oh_get_name(qpdf, item)) : "?")
            }
        }
        if let other = filters.first(where: { $0 != "/FlateDecode" }) {
            throw Failure(message: "has an attachment \(name) compressed with \(String(other.prefix(64))), which the tool does not decode (it reads FlateDecode)")
        }
        let parameters = qpdf_oh_get_key(qpdf, dictionary, "/DecodeParms")
        if !filters.isEmpty, qpdf_oh_is_null(qpdf, parameters) == 0 {
            let predictor = qpdf_oh_get_key(qpdf, qpdf_oh_is_array(qpdf, parameters) != 0 ? qpdf_oh_get_array_item(qpdf, parameters, 0) : parameters, "/Predictor")
            if qpdf_oh_is_integer(qpdf, predictor) != 0, qpdf_oh_get_int_value(qpdf, predictor) > 1 {
                throw Failure(message: "has an attachment \(name) with a FlateDecode predictor, which the tool does not decode")
            }
        }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_stream_data(qpdf, stream, qpdf_dl_none, nil, &buffer, &length) & QPDF_ERRORS == 0, let buffer
        else { throw Failure(message: "has an attachment \(name) that libqpdf cannot read") }
        var data = Array(UnsafeBufferPointer(start: buffer, count: length))
        free(buffer)
        for _ in filters { data = try inflate(data, name: name) }
        if data.count > InputBudget.eInvoiceBytes { throw tooLarge(name) }
        return data
    }

    static func tooLarge(_ name: String) -> Failure {
        Failure(
            message: "has an attachment \(name) larger than \(InputBudget.describe(InputBudget.eInvoiceBytes)) decoded, the limit "
                + "for an e-invoice (docs/reliability.md)")
    }

    /// `data` inflated (zlib), stopping as soon as the output passes the budget.
    static func inflate(_ data: [UInt8], name: String) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(message: "could not start zlib")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = data
        var status = Z_OK
        var exceeded = false
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while status == Z_OK {
                let produced = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = zlib_inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                if output.count + produced > InputBudget.eInvoiceBytes {
                    exceeded = true
                    break
                }
                output.append(contentsOf: chunk[..<produced])
                // No input left and no output made: the data ends before zlib's end mark.
                if produced == 0, status == Z_OK, stream.avail_in == 0 { status = Z_BUF_ERROR }
            }
            stream.next_in = nil
        }
        if exceeded { throw tooLarge(name) }
        guard status == Z_STREAM_END else { throw Failure(message: "has an attachment \(name) whose FlateDecode data is damaged (zlib)") }
        return output
    }
}

/// zlib's `inflate`, by a name that does not clash with ``FacturX/inflate(_:name:)``.
private func zlib_inflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 { CQPDF.inflate(stream, flush) }
