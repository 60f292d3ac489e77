/// The store's schema, as data: every table and column of each version, once. The SQLite DDL is made from it, and
/// so can another store's (PostgreSQL maps ``ColumnType`` to its own types). docs/store.md describes it for users.
public enum Schema {
    /// The schema version this build writes (`PRAGMA user_version`).
    public static let version = 3
    /// The schema versions this build reads: a v1 store reads as before (every invoice sent, one payment of its
    /// whole amount on its paid date), a v2 store as before (every client in the report's language).
    public static let readableVersions = 1...3

    /// How a column stores its value; each store maps it to its own SQL type.
    public enum ColumnType: Sendable, Equatable {
        /// The row id: `INTEGER PRIMARY KEY` in SQLite.
        case key
        /// A 64-bit integer: amounts in minor units, row ids of other rows.
        case integer
        /// UTF-8 text.
        case text
        /// A calendar day: text `YYYY-MM-DD` in SQLite, `date` in PostgreSQL.
        case date

        /// The SQLite spelling.
        public var sqlite: String {
            switch self {
            case .key: "INTEGER PRIMARY KEY"
            case .integer: "INTEGER"
            case .text, .date: "TEXT"
            }
        }
    }

    /// A column: its name, type and constraints (portable SQL: `NOT NULL`, `DEFAULT`, `CHECK`, `REFERENCES`).
    public struct Column: Sendable, Equatable {
        public var name: String
        public var type: ColumnType
        public var constraints: String

        public init(_ name: String, _ type: ColumnType, _ constraints: String = "") {
            self.name = name
            self.type = type
            self.constraints = constraints
        }

        /// The name in snake_case (`clientId` is `client_id`): a PostgreSQL store's name, which needs no quotes.
        public var snakeName: String { Schema.snakeCase(name) }
    }

    /// A table: its columns, in order, and the columns with a (non-unique) index.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var columns: [Column]
        public var indexed: [String]

        public init(_ name: String, _ columns: [Column], indexed: [String] = []) {
            self.name = name
            self.columns = columns
            self.indexed = indexed
        }
    }

    static let client = Table("client", [
        Column("id", .key),
        Column("number", .text, "NOT NULL UNIQUE"),
        Column("name", .text, "NOT NULL"),
        Column("email", .text, "NOT NULL DEFAULT ''"),
        Column("street", .text, "NOT NULL DEFAULT ''"),
        Column("city", .text, "NOT NULL DEFAULT ''"),
        Column("zip", .text, "NOT NULL DEFAULT ''"),
        Column("country", .text, "NOT NULL DEFAULT ''"),
    ])

    /// Version 3: the client's language, a well-formed BCP 47 tag; NULL (or empty) for the report's language.
    static let clientV3 = Table("client", client.columns + [Column("language", .text)])

    static let invoiceV1 = Table("invoice", [
        Column("id", .key),
        Column("identifier", .text, "NOT NULL UNIQUE"),
        Column("clientId", .integer, "NOT NULL REFERENCES client(id)"),
        Column("amount", .integer, "NOT NULL CHECK (amount >= 0)"),
        Column("currency", .text, "NOT NULL CHECK (length(currency) = 3)"),
        Column("notes", .text, "NOT NULL DEFAULT ''"),
        Column("issuedOn", .date, "NOT NULL"),
        Column("dueOn", .date, "NOT NULL"),
        Column("paidOn", .date),
    ], indexed: ["clientId"])

    static let invoiceV2 = Table("invoice", [
        Column("id", .key),
        Column("identifier", .text, "NOT NULL UNIQUE"),
        Column("clientId", .integer, "NOT NULL REFERENCES client(id)"),
        Column("amount", .integer, "NOT NULL CHECK (amount >= 0)"),
        Column("net", .integer),
        Column("currency", .text, "NOT NULL CHECK (length(currency) = 3)"),
        Column("notes", .text, "NOT NULL DEFAULT ''"),
        Column("issuedOn", .date, "NOT NULL"),
        Column("dueOn", .date, "NOT NULL"),
        Column("status", .text, "NOT NULL DEFAULT 'sent' CHECK (status IN ('draft', 'sent', 'void'))"),
        Column("kind", .text, "NOT NULL DEFAULT 'invoice' CHECK (kind IN ('invoice', 'credit'))"),
        Column("correctsId", .integer, "REFERENCES invoice(id)"),
        Column("appliedOn", .date),
    ], indexed: ["clientId"])

    static let payment = Table("payment", [
        Column("id", .key),
        Column("invoiceId", .integer, "NOT NULL REFERENCES invoice(id)"),
        Column("paidOn", .date, "NOT NULL"),
        Column("amount", .integer, "NOT NULL"),
        Column("currency", .text),
        Column("method", .text, "NOT NULL DEFAULT ''"),
        Column("reference", .text, "NOT NULL DEFAULT ''"),
    ], indexed: ["invoiceId"])

    static let writeOff = Table("writeOff", [
        Column("id", .key),
        Column("invoiceId", .integer, "NOT NULL REFERENCES invoice(id)"),
        Column("writtenOffOn", .date, "NOT NULL"),
        Column("amount", .integer, "NOT NULL CHECK (amount > 0)"),
        Column("reason", .text, "NOT NULL DEFAULT ''"),
    ], indexed: ["invoiceId"])

    static let taxLine = Table("taxLine", [
        Column("id", .key),
        Column("invoiceId", .integer, "NOT NULL REFERENCES invoice(id)"),
        Column("name", .text, "NOT NULL"),
        Column("rate", .text, "NOT NULL"),
        Column("net", .integer),
        Column("amount", .integer, "NOT NULL CHECK (amount >= 0)"),
    ], indexed: ["invoiceId"])

    /// The tables of a schema version, in creation order (a table after those it refers to).
    public static func tables(version: Int) -> [Table] {
        switch version {
        case 1: [client, invoiceV1]
        case 2: [client, invoiceV2, payment, writeOff, taxLine]
        default: [clientV3, invoiceV2, payment, writeOff, taxLine]
        }
    }

    /// The SQLite statements that create an empty store of `version`.
    public static func createStatements(version: Int) -> String {
        createStatements(tables(version: version)) + "PRAGMA user_version = \(version);\n"
    }

    /// The SQLite statements that create `tables` and their indexes.
    static func createStatements(_ tables: [Table]) -> String {
        var sql = ""
        for table in tables {
            let columns = table.columns.map { "    " + definition($0) }
            sql += "CREATE TABLE \(table.name) (\n" + columns.joined(separator: ",\n") + "\n);\n"
            for column in table.indexed { sql += "CREATE INDEX \(table.name)_\(column) ON \(table.name)(\(column));\n" }
        }
        return sql
    }

    /// A column's SQLite definition: `name TYPE constraints`.
    static func definition(_ column: Column) -> String {
        [column.name, column.type.sqlite, column.constraints].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The statements that create an empty store of ``version``.
    public static let createStatements = createStatements(version: version)

    /// Turns a v1 store into a v2 store in place, in one transaction: the invoice table loses `paidOn` and gains
    /// the v2 columns (every invoice sent, kind invoice, no taxes), and each paid date becomes one payment of the
    /// whole amount. Reads the same figures before and after. docs/store.md quotes it.
    public static let migrationFromV1 = """
        BEGIN;
        ALTER TABLE invoice RENAME TO invoiceV1;
        DROP INDEX invoice_clientId;
        \(createStatements([invoiceV2, payment, writeOff, taxLine]))
        INSERT INTO invoice (id, identifier, clientId, amount, currency, notes, issuedOn, dueOn)
            SELECT id, identifier, clientId, amount, currency, notes, issuedOn, dueOn FROM invoiceV1;
        INSERT INTO payment (invoiceId, paidOn, amount)
            SELECT id, paidOn, amount FROM invoiceV1 WHERE paidOn IS NOT NULL AND amount > 0 ORDER BY id;
        DROP TABLE invoiceV1;
        PRAGMA user_version = 2;
        COMMIT;
        """

    /// Turns a v2 store into a v3 store in place, in one transaction: the client table gains `language`, NULL for
    /// every client (the report's language). Every row is kept as it is. docs/store.md quotes it.
    public static let migrationFromV2 = """
        BEGIN;
        ALTER TABLE client ADD COLUMN \(definition(clientV3.columns[client.columns.count]));
        PRAGMA user_version = 3;
        COMMIT;
        """

    /// The migrations from `version` to the current one, in order (each a transaction of its own): a v1 store runs
    /// ``migrationFromV1`` then ``migrationFromV2``.
    public static func migrations(from version: Int) -> [String] {
        [(1, migrationFromV1), (2, migrationFromV2)].filter { $0.0 >= version }.map(\.1)
    }

    /// `name` in snake_case: `writeOff` is `write_off`, `clientId` is `client_id`.
    public static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }

    /// Columns the loader requires, per table, for a schema version.
    static func requiredColumns(version: Int) -> [(table: String, columns: [String])] {
        tables(version: version).map { ($0.name, $0.columns.map(\.name)) }
    }
}
