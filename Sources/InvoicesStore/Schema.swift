/// The store's SQLite schema. docs/store.md describes it for users.
public enum Schema {
    /// The schema version this build reads and writes (`PRAGMA user_version`).
    public static let version = 1

    /// The statements that create an empty store of ``version``.
    public static let createStatements = """
        CREATE TABLE client (
            id INTEGER PRIMARY KEY,
            number TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            email TEXT NOT NULL DEFAULT '',
            street TEXT NOT NULL DEFAULT '',
            city TEXT NOT NULL DEFAULT '',
            zip TEXT NOT NULL DEFAULT '',
            country TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE invoice (
            id INTEGER PRIMARY KEY,
            identifier TEXT NOT NULL UNIQUE,
            clientId INTEGER NOT NULL REFERENCES client(id),
            amount INTEGER NOT NULL CHECK (amount >= 0),
            currency TEXT NOT NULL CHECK (length(currency) = 3),
            notes TEXT NOT NULL DEFAULT '',
            issuedOn TEXT NOT NULL,
            dueOn TEXT NOT NULL,
            paidOn TEXT
        );
        CREATE INDEX invoice_clientId ON invoice(clientId);
        PRAGMA user_version = \(version);
        """

    /// Columns the loader requires, per table.
    static var requiredColumns: [(table: String, columns: [String])] { tables.map { ($0.name, $0.columns.map(\.name)) } }
}
