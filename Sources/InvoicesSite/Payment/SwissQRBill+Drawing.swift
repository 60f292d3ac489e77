internal import InvoicesCore

/// The QR-bill as it prints: the receipt (62 mm) and the payment part (148 mm) side by side, 210 × 105 mm, drawn as
/// one SVG in millimetres so it prints at its size on A4 and scales on a screen. Every value is escaped here
/// (``SiteBuilder/xml(_:)``); the page gets the SVG as an HTML token, never as a template's raw text.
extension SwissQRBill {
    /// The headings of the guidelines' Annex D, in the bill's language.
    struct Labels {
        var receipt, paymentPart, account, reference, information, payableBy, payableByBlank, currency, amount, acceptance: String

        /// German, French or Italian for a tag of those languages (`de-CH`, `fr`), else English.
        init(language: String) {
            switch language.lowercased().prefix(while: { $0 != "-" && $0 != "_" }) {
            case "de":
                (receipt, paymentPart, account, reference, information) = ("Empfangsschein", "Zahlteil", "Konto / Zahlbar an", "Referenz", "Zusätzliche Informationen")
                (payableBy, payableByBlank, currency, amount, acceptance) = ("Zahlbar durch", "Zahlbar durch (Name/Adresse)", "Währung", "Betrag", "Annahmestelle")
            case "fr":
                (receipt, paymentPart, account, reference, information) = ("Récépissé", "Section paiement", "Compte / Payable à", "Référence", "Informations supplémentaires")
                (payableBy, payableByBlank, currency, amount, acceptance) = ("Payable par", "Payable par (nom/adresse)", "Monnaie", "Montant", "Point de dépôt")
            case "it":
                (receipt, paymentPart, account, reference, information) = ("Ricevuta", "Sezione pagamento", "Conto / Pagabile a", "Riferimento", "Informazioni supplementari")
                (payableBy, payableByBlank, currency, amount, acceptance) = ("Pagabile da", "Pagabile da (nome/indirizzo)", "Valuta", "Importo", "Punto di accettazione")
            default:
                (receipt, paymentPart, account, reference, information) = ("Receipt", "Payment part", "Account / Payable to", "Reference", "Additional information")
                (payableBy, payableByBlank, currency, amount, acceptance) = ("Payable by", "Payable by (name/address)", "Currency", "Amount", "Acceptance point")
            }
        }
    }

    /// The smallest QR code version the bill is drawn at: from version 14 to 20 no alignment pattern sits in the middle
    /// of the symbol, under the Swiss cross (versions 7 to 13, which the usual payload would get, have one there), so
    /// decoders that sample the grid by those patterns (zbar among them) read the code; error correction level M
    /// restores the modules under the cross. The guidelines allow any version up to 25 in the 46 mm square.
    static let minimumVersion: Int32 = 14

    /// The amount as the bill prints it: two decimals, a space between thousands (`1 949.75`).
    var printedAmount: String {
        let text = Money.decimalString(amount, digits: 2)
        let whole = text.prefix { $0 != "." }, fraction = text.drop { $0 != "." }
        var groups: [Substring] = []
        var rest = whole
        while !rest.isEmpty {
            groups.insert(rest.suffix(3), at: 0)
            rest = rest.dropLast(3)
        }
        return groups.joined(separator: " ") + fraction
    }

    /// The receipt and the payment part as one SVG, in `language`'s headings, named for screen readers by `label`
    /// (the page's words, `pay.qrBillLabel`; English when nil); nil when the payload does not fit a QR code (it
    /// always does: the fields are cut to their limits).
    func svg(language: String, label: String? = nil) -> String? {
        guard let code = QRCode(bytes: Array(payload.utf8), level: .medium, minimumVersion: Self.minimumVersion) else { return nil }
        let labels = Labels(language: language)
        var body = ""
        func text(_ x: Double, _ y: Double, _ size: Double, _ value: String, bold: Bool = false, anchor: String? = nil) {
            body += "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\"" + (bold ? " font-weight=\"700\"" : "")
                + (anchor.map { " text-anchor=\"\($0)\"" } ?? "") + ">\(SiteBuilder.xml(value))</text>"
        }
        /// A heading and its lines, from `y`; returns the `y` after them and a gap.
        func block(_ x: Double, _ y: Double, heading: String, _ lines: [String], headingSize: Double, size: Double, width: Int) -> Double {
            var y = y + headingSize
            text(x, y, headingSize, heading, bold: true)
            for line in lines.flatMap({ Self.wrap($0, width) }) {
                y += size * 1.2
                text(x, y, size, line)
            }
            return y + size * 1.1
        }
        // 1 pt is 0.3528 mm: headings 6 pt and values 8 pt on the receipt, 8 pt and 10 pt on the payment part.
        let pt = 0.3528
        let account = [Payee.printedIBAN(iban)] + Self.lines(creditor)
        let debtorLines = debtor.map(Self.lines) ?? []
        // The receipt: 5 mm margins, 52 mm wide.
        text(5, 5 + 11 * pt, 11 * pt, labels.receipt, bold: true)
        var y = block(5, 12, heading: labels.account, account, headingSize: 6 * pt, size: 8 * pt, width: 36)
        if reference != .none { y = block(5, y, heading: labels.reference, [reference.printed], headingSize: 6 * pt, size: 8 * pt, width: 36) }
        if debtor != nil {
            _ = block(5, y, heading: labels.payableBy, debtorLines, headingSize: 6 * pt, size: 8 * pt, width: 36)
        } else {
            _ = block(5, y, heading: labels.payableByBlank, [], headingSize: 6 * pt, size: 8 * pt, width: 36)
            body += Self.corners(x: 5, y: y + 4, width: 52, height: 20)
        }
        text(5, 68 + 6 * pt, 6 * pt, labels.currency, bold: true)
        text(5, 68 + 6 * pt + 9 * pt, 8 * pt, currency)
        text(22, 68 + 6 * pt, 6 * pt, labels.amount, bold: true)
        text(22, 68 + 6 * pt + 9 * pt, 8 * pt, printedAmount)
        text(57, 82 + 6 * pt, 6 * pt, labels.acceptance, bold: true, anchor: "end")
        // The payment part: its title, the code (46 mm) with the Swiss cross (7 mm), currency and amount below it,
        // the details in the column to the right.
        text(67, 5 + 11 * pt, 11 * pt, labels.paymentPart, bold: true)
        let modules = Double(code.width)
        let cross = modules * 7 / 46
        body += "<svg x=\"67\" y=\"17\" width=\"46\" height=\"46\" viewBox=\"0 0 \(code.width) \(code.width)\" shape-rendering=\"crispEdges\">"
            + "<path fill=\"#000\" d=\"\(code.pathData(offset: 0))\"/>" + Self.swissCross(center: modules / 2, side: cross) + "</svg>"
        text(67, 68 + 8 * pt, 8 * pt, labels.currency, bold: true)
        text(67, 68 + 8 * pt + 11 * pt, 10 * pt, currency)
        text(87, 68 + 8 * pt, 8 * pt, labels.amount, bold: true)
        text(87, 68 + 8 * pt + 11 * pt, 10 * pt, printedAmount)
        y = block(118, 5, heading: labels.account, account, headingSize: 8 * pt, size: 10 * pt, width: 40)
        if reference != .none { y = block(118, y, heading: labels.reference, [reference.printed], headingSize: 8 * pt, size: 10 * pt, width: 40) }
        let message = Self.field(self.message, 140)
        if !message.isEmpty { y = block(118, y, heading: labels.information, [message], headingSize: 8 * pt, size: 10 * pt, width: 40) }
        if debtor != nil {
            _ = block(118, y, heading: labels.payableBy, debtorLines, headingSize: 8 * pt, size: 10 * pt, width: 40)
        } else {
            _ = block(118, y, heading: labels.payableByBlank, [], headingSize: 8 * pt, size: 10 * pt, width: 40)
            body += Self.corners(x: 118, y: y + 4, width: 65, height: 25)
        }
        let name = SiteBuilder.xml(
            label ?? "Swiss QR-bill: \(currency) \(printedAmount) to \(creditor.name), account \(Payee.printedIBAN(iban))"
                + (reference == .none ? "" : ", reference \(reference.printed)"))
        // The dashed lines along which the bill is cut off: above it, and between the receipt and the payment part.
        return "<svg class=\"qr-bill\" viewBox=\"0 0 210 105\" role=\"img\" aria-label=\"\(name)\" "
            + "style=\"display:block;width:100%;max-width:210mm;height:auto;background:#fff;color:#000\" "
            + "font-family=\"Helvetica, Arial, 'Liberation Sans', sans-serif\" fill=\"#000\">"
            + "<rect width=\"210\" height=\"105\" fill=\"#fff\"/>"
            + "<path d=\"M0 0.2H210M62 0V105\" stroke=\"#000\" stroke-width=\"0.2\" stroke-dasharray=\"1 1\" fill=\"none\"/>"
            + body + "</svg>"
    }

    /// A party's lines as the bill prints them: the name, the street and building number, the postal code and town
    /// (with the country code first outside Switzerland).
    static func lines(_ party: Party) -> [String] {
        let fields = party.fields
        let street = [fields[2], fields[3]].filter { !$0.isEmpty }.joined(separator: " ")
        let town = [fields[4], fields[5]].filter { !$0.isEmpty }.joined(separator: " ")
        return [fields[1], street, party.country == "CH" ? town : party.country + "-" + town].filter { !$0.isEmpty && $0 != "-" }
    }

    /// `line` in lines of at most `width` characters, broken at spaces where it can be.
    static func wrap(_ line: String, _ width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// The Swiss cross in the middle of the code: a black square with a thin white border and a white cross whose
    /// arms are a sixth longer than they are wide, `side` modules across.
    static func swissCross(center: Double, side: Double) -> String {
        let half = side / 2, inner = side * 0.92 / 2
        let arm = side * 0.17, length = arm * 10 / 3
        func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ fill: String) -> String {
            "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\" fill=\"\(fill)\"/>"
        }
        return rect(center - half, center - half, side, side, "#fff") + rect(center - inner, center - inner, 2 * inner, 2 * inner, "#000")
            + rect(center - arm / 2, center - length / 2, arm, length, "#fff") + rect(center - length / 2, center - arm / 2, length, arm, "#fff")
    }

    /// The corner marks of a blank field to write in by hand.
    static func corners(x: Double, y: Double, width: Double, height: Double) -> String {
        let l = 3.0
        let d = "M\(x) \(y + l)V\(y)H\(x + l)M\(x + width - l) \(y)H\(x + width)V\(y + l)"
            + "M\(x) \(y + height - l)V\(y + height)H\(x + l)M\(x + width - l) \(y + height)H\(x + width)V\(y + height - l)"
        return "<path d=\"\(d)\" stroke=\"#000\" stroke-width=\"0.3\" fill=\"none\"/>"
    }
}
