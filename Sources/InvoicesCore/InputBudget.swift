/// The fixed limits every untrusted input is held to (docs/reliability.md, "Budgets for imports"): each is far
/// above what a real file needs, and past it the input is refused (exit 65) with the limit named, so that no file,
/// however made, can make the tool use unbounded memory or time. They are constants, not options.
public enum InputBudget {
    /// An XML e-invoice file, and the e-invoice decoded from a PDF's attachment: 32 MB (real ones are under 1 MB).
    public static let eInvoiceBytes = 32 << 20
    /// A PDF file read for its attached e-invoice: 32 MB (Factur-X PDFs are a few hundred kilobytes).
    public static let pdfBytes = 32 << 20
    /// How deep XML elements nest: 64 (EN 16931's deepest path is 8 elements).
    public static let xmlDepth = 64
    /// How many XML elements one document holds: 1,000,000 (about 20 per invoice line).
    public static let xmlElements = 1_000_000
    /// How many PDF objects are visited looking for the attachment (name tree nodes, file specifications): 100,000.
    public static let pdfObjects = 100_000
    /// A note or other long text field of an imported row or document: 64 KB of UTF-8.
    public static let noteBytes = 64 << 10
    /// A name, identifier, number, e-mail or address field of an imported row or document: 1 KB of UTF-8.
    public static let nameBytes = 1 << 10

    /// `bytes` as a figure for a message: `32 MB`, `64 KB`, `1 KB`, or bytes.
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
