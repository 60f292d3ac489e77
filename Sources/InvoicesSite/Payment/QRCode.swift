internal import CQRencode

/// A QR code symbol made by libqrencode: its modules (dark or light), row by row.
struct QRCode: Sendable, Equatable {
    /// Modules per side.
    let width: Int
    /// `width × width` modules, row by row; true is dark.
    let modules: [Bool]

    /// The error correction level: M (15 %) is what the EPC's guidelines require.
    enum Level { case low, medium, quartile, high }

    /// The symbol for `bytes` in 8-bit mode, of the smallest version that holds them; nil when they do not fit in a
    /// QR code (2,953 bytes at level L, fewer above).
    /// `minimumVersion` (1 to 40; 0 for the smallest that fits) makes the symbol at least that large.
    init?(bytes: [UInt8], level: Level = .medium, minimumVersion: Int32 = 0) {
        let qrLevel: QRecLevel
        switch level {
        case .low: qrLevel = QR_ECLEVEL_L
        case .medium: qrLevel = QR_ECLEVEL_M
        case .quartile: qrLevel = QR_ECLEVEL_Q
        case .high: qrLevel = QR_ECLEVEL_H
        }
        guard !bytes.isEmpty, let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, minimumVersion, qrLevel) })
        else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what kind of module it is.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
        self.width = width
    }

    /// Whether the module at `row`, `column` is dark.
    subscript(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// The symbol as an SVG image: one path of dark runs on a light square, with the four-module quiet zone the
    /// standard asks for, `role="img"` and `label` as its accessible name (escaped here). Scales to any size with
    /// crisp edges; prints as it shows.
    func svg(label: String, className: String = "qr") -> String {
        let side = width + 8
        let path = pathData(offset: 4)
        let name = SiteBuilder.xml(label)
        return "<svg class=\"\(className)\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"\(name)\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// The dark modules as SVG path data, one rectangle per run of dark modules in a row, each module one unit, the
    /// symbol's top left corner at (`offset`, `offset`).
    func pathData(offset: Int) -> String {
        var path = ""
        path.reserveCapacity(width * width)
        for row in 0..<width {
            var column = 0
            while column < width {
                guard self[row, column] else { column += 1; continue }
                var end = column
                while end < width && self[row, end] { end += 1 }
                path += "M\(column + offset) \(row + offset)h\(end - column)v1h-\(end - column)z"
                column = end
            }
        }
        return path
    }
}
