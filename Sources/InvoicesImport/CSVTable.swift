import Foundation
internal import InvoicesCore

/// A parsed CSV file's records with named column access.
struct CSVTable {
    struct Row {
        let table: CSVTable
        let record: CSVDocument.Record

        var location: SourceLocation { SourceLocation(file: table.file, line: record.line) }

        /// The value in `column`, trimmed of surrounding spaces; "" when the file has no such column.
        subscript(column: String) -> String {
            guard let index = table.indexByName[column], index < record.fields.count else { return "" }
            return record.fields[index].trimmingCharacters(in: .whitespaces)
        }

        /// The value in `column`, or nil when the file has no such column (the field is not carried).
        func optional(_ column: String) -> String? {
            table.indexByName[column] == nil ? nil : self[column]
        }
    }

    let file: String
    let indexByName: [String: Int]
    let rows: [Row]

    init(file: String, header: [String], records: [CSVDocument.Record]) {
        self.file = file
        var indexByName: [String: Int] = [:]
        for (index, name) in header.enumerated() where indexByName[name] == nil { indexByName[name] = index }
        self.indexByName = indexByName
        // Rows refer back to the table; build them from a copy without rows.
        let bare = CSVTable(file: file, indexByName: indexByName)
        self.rows = records.map { Row(table: bare, record: $0) }
    }

    private init(file: String, indexByName: [String: Int]) {
        self.file = file
        self.indexByName = indexByName
        self.rows = []
    }
}
