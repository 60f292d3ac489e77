/// The exit codes of every `invoices` command: the sysexits(3) values, defined once.
///
/// | Code | Meaning |
/// | --- | --- |
/// | 0 | success |
/// | 64 | usage: a bad flag or option, no store named |
/// | 65 | bad data: store rows, templates, the project file, import files |
/// | 66 | an input is missing: the store, the templates folder, an import file |
/// | 69 | a server or a program it needs is unavailable: `publish`'s server, ssh, rsync; a PostgreSQL store's server |
/// | 77 | permission denied: a PostgreSQL server refused the login or the role's rights |
/// | 70 | internal error |
/// | 73 | cannot create or write the output (or the store, for `import`) |
/// | 74 | an upload or a step on the server failed (`publish`) |
/// | 75 | try again later: concurrent writers made a PostgreSQL import give up after its retries |
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
}
