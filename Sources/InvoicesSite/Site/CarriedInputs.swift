public import Foundation
internal import InvoicesCore

/// The fingerprints of what each unit of the site shows (``SiteBuilder/Inputs``), carried from one build to the next
/// under the fingerprint of everything they are worked out from (``SiteBuilder/carryKey(books:)``): the store's
/// bytes and the build's settings, the site's options as the pages see them, and the executable.
///
/// A build whose books are read from the same bytes with the same settings and options has the same books, report
/// and figures, so the same inputs: when only the templates changed (a line of `month.md`), it takes them from here
/// instead of fingerprinting every client, invoice and quarter again, and each unit's fingerprint is its carried
/// data with this build's templates. It is kept beside the output (`.Output.inputs` for `Output`) and written after
/// the site is swapped into place. Like the manifest's entries, it states a fact that holds whichever build wrote it
/// ("books from these bytes have these inputs"), so a file older than the site costs nothing; one that does not parse,
/// or whose last line is not the fingerprint of the lines before it, is not used.
public struct CarriedInputs: Sendable, Equatable {
    /// The fingerprint the inputs were worked out under (``SiteBuilder/carryKey(books:)``).
    public var key: UInt64
    var base: UInt64
    var all: UInt64
    var clients: [UInt64]
    var months: [UInt64]
    /// What the fiscal periods' pages worked out once per build (``SiteBuilder/Inputs/periodsShown``), by key.
    var shown: [String: UInt64]

    static let header = "invoices-carried-inputs 1"

    /// The text: a header line, `K key`, `B base all`, a `C` line per client and an `M` line per month (hex, in
    /// order), a `P value key` line per period's value (sorted by key), and `E` with the fingerprint of every line
    /// before it.
    var text: String {
        var text = Self.header + "\nK \(hex(key))\nB \(hex(base)) \(hex(all))\n"
        for client in clients { text += "C \(hex(client))\n" }
        for month in months { text += "M \(hex(month))\n" }
        for (name, value) in shown.sorted(by: { $0.key < $1.key }) { text += "P \(hex(value)) \(SiteManifest.escape(name))\n" }
        var check = Fingerprint()
        check.add(text)
        return text + "E \(hex(check.value))\n"
    }

    init(key: UInt64, inputs: SiteBuilder.Inputs) {
        self.key = key
        base = inputs.base
        all = inputs.all
        clients = inputs.clients
        months = inputs.months
        shown = inputs.periodsShown.all
    }

    /// Parses ``text``; nil when it is not this version's, or damaged.
    init?(text: String) {
        guard let end = text.range(of: "\nE ", options: .backwards), text.hasSuffix("\n") else { return nil }
        let body = String(text[..<end.lowerBound]) + "\n"
        var check = Fingerprint()
        check.add(body)
        guard UInt64(text[end.upperBound...].dropLast(), radix: 16) == check.value else { return nil }
        var lines = body.split(separator: "\n")
        guard lines.count >= 3, lines.removeFirst() == Self.header else { return nil }
        guard let keyLine = lines.first, keyLine.hasPrefix("K "), let key = UInt64(keyLine.dropFirst(2), radix: 16) else { return nil }
        let baseLine = lines[1].split(separator: " ")
        guard baseLine.count == 3, baseLine[0] == "B", let base = UInt64(baseLine[1], radix: 16), let all = UInt64(baseLine[2], radix: 16)
        else { return nil }
        (self.key, self.base, self.all) = (key, base, all)
        (clients, months, shown) = ([], [], [:])
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count >= 2, let value = UInt64(fields[1], radix: 16) else { return nil }
            switch fields[0] {
            case "C" where fields.count == 2: clients.append(value)
            case "M" where fields.count == 2: months.append(value)
            case "P" where fields.count == 3: shown[SiteManifest.unescape(fields[2])] = value
            default: return nil
            }
        }
    }

    /// The carried inputs in the file at `url`; nil when there is none, or it is not one.
    public static func read(_ url: URL) -> CarriedInputs? {
        guard let file = try? RegularFile(url.path, links: .refuse), let data = try? file.readAll(budget: FileBudget.manifest) else { return nil }
        return CarriedInputs(text: String(decoding: data, as: UTF8.self))
    }

    /// Writes them to `url` atomically.
    public func write(to url: URL) throws(SiteWriteError) {
        try SiteManifest.replace(url, with: Data(text.utf8), what: "the carried inputs")
    }

    /// The inputs, with the periods' values known.
    var inputs: SiteBuilder.Inputs {
        var inputs = SiteBuilder.Inputs(base: base, all: all, clients: clients, months: months)
        inputs.carried = true
        inputs.periodsShown.all = shown
        return inputs
    }
}

private func hex(_ value: UInt64) -> String { String(value, radix: 16) }

extension SiteBuilder {
    /// The fingerprint this builder's inputs are carried under (``CarriedInputs``): `books`, the fingerprint of
    /// what its books were read from (the store's bytes and the build's settings: InvoicesApp's build pipeline
    /// makes it), with the options as the pages see them (the title and locale its templates' tables give) and the
    /// executable. Every value the inputs are worked out from follows from these.
    public func carryKey(books: UInt64) -> UInt64 {
        var fingerprint = Fingerprint(seed: books)
        fingerprint.add(Self.executableIdentity)
        Self.addOptions(options, to: &fingerprint)
        // The client link key is a function; the token it gives for a name no client can have stands for the key.
        fingerprint.add(options.clientLinkToken) { $0.add($1("\u{0}invoices-carried-inputs")) }
        return fingerprint.value
    }

    /// The inputs to carry to the next build, under ``carryKey(books:)``.
    public func carriedInputs(books: UInt64) -> CarriedInputs { CarriedInputs(key: carryKey(books: books), inputs: inputs) }

    /// Whether the inputs were taken from a previous build's (``init(books:report:figures:templates:options:carried:books:)``).
    public var inputsCarried: Bool { inputs.carried }
}
