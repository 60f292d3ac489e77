internal import InvoicesReport

/// The words a statement's lines repeat on every row (a line's document type, "due {date}", "for {document}"),
/// looked up once per list instead of once per cell: each is the text ``SiteView/word(_:_:)`` gives.
struct StatementWords: Sendable {
    let invoice, creditNote, payment, refund, writeOff: String
    let due: Translation.Filler
    let `for`: Translation.Filler
    let tooLarge: String

    init(_ site: SiteView) {
        invoice = site.word("document.invoice")
        creditNote = site.word("document.creditNote")
        payment = site.word("document.payment")
        refund = site.word("document.refund")
        writeOff = site.word("document.writeOff")
        due = site.language.translation.filler("statement.due", name: "date")
        `for` = site.language.translation.filler("statement.for", name: "document")
        tooLarge = site.word("figure.tooLarge")
    }

    /// The word for a line's kind of document.
    func document(_ kind: ClientStatement.Line.Kind) -> String {
        switch kind {
        case .invoice: invoice
        case .creditNote: creditNote
        case .payment: payment
        case .refund: refund
        case .writeOff: writeOff
        }
    }
}
