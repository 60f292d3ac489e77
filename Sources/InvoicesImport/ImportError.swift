public import InvoicesCore

/// One problem found while reading or applying an import, located at a file, a line and a column.
///
/// The message and column quote values from the files (a BT-1, an attachment's name, a cell): they are kept with
/// ``InvoicesCore/TerminalText/escaped(_:)`` applied, so no control, C1 or bidirectional character of a file
/// reaches the terminal, whoever prints the problem.
///
/// ```
/// invoices.csv:14: column 'Line Total': '12.345' has more decimals than USD allows (2); it is not rounded
/// ```
public struct ImportProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    /// The column (CSV) or key (JSON), when the problem is in one.
    public var column: String?
    /// What is wrong, and what to do about it.
    public var message: String

    public init(location: SourceLocation, column: String? = nil, message: String) {
        self.location = location
        self.column = column.map(TerminalText.escaped)
        self.message = TerminalText.escaped(message)
    }

    public var description: String {
        var text = "\(location): "
        if let column { text += "column '\(column)': " }
        return text + message
    }
}

/// Why an import wrote nothing.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; decides the exit code.
    public enum Kind: Sendable, Hashable {
        /// An option's value cannot be used, such as a `--date-format` with an hour in it (exit 64).
        case badOption
        /// An input file does not exist or cannot be read (exit 66).
        case missingInput
        /// The input or the store holds data that cannot be imported (exit 65).
        case badData
        /// The store cannot be created or written (exit 73).
        case cannotWrite
        /// A PostgreSQL store's server: unreachable (69), login or rights refused (77), no database (66), or busy
        /// with concurrent writers after every retry (75).
        case server(ExitStatus)
    }

    /// The exit code of an import that stops on this error.
    public var exitStatus: ExitStatus {
        switch kind {
        case .badOption: .usage
        case .missingInput: .noInput
        case .badData: .dataError
        case .cannotWrite: .cannotCreate
        case .server(let status): status
        }
    }

    public var kind: Kind
    /// The problems, in file and line order (at most the reader's limit).
    public var problems: [ImportProblem]
    /// How many problems there were in all.
    public var total: Int

    public init(kind: Kind, problems: [ImportProblem], total: Int? = nil) {
        self.kind = kind
        self.problems = problems
        self.total = total ?? problems.count
    }

    /// How many problems an error lists at most by default (all are counted).
    public static let defaultProblemLimit = 200

    /// An error listing `problems` in the order of `files`, then by line (a stable sort, so problems of one
    /// line, or of one JSON file, keep the order they were found in), at most `limit` of them.
    /// - Parameter omitted: Problems counted before `problems` were gathered but not kept (``ImportBatch/omittedProblems``).
    public init(
        kind: Kind, ordering problems: [ImportProblem], files: [String], limit: Int = defaultProblemLimit, omitted: Int = 0
    ) {
        var rank: [String: Int] = [:]
        for (index, file) in files.enumerated() where rank[file] == nil { rank[file] = index }
        let ordered = problems.enumerated().sorted { left, right in
            let a = (rank[left.element.location.file] ?? files.count, left.element.location.line ?? 0, left.offset)
            let b = (rank[right.element.location.file] ?? files.count, right.element.location.line ?? 0, right.offset)
            return a < b
        }.map(\.element)
        self.init(kind: kind, problems: Array(ordered.prefix(limit)), total: ordered.count + omitted)
    }

    public init(kind: Kind, file: String, message: String) {
        self.init(kind: kind, problems: [ImportProblem(location: SourceLocation(file: file), message: message)])
    }

    public var description: String {
        var lines = problems.map(\.description)
        if total > problems.count { lines.append("... and \(total - problems.count) more problems") }
        return lines.joined(separator: "\n")
    }
}
