import Foundation
import InvoicesTesting

/// A program started in the background by a test with `posix_spawn`, its output going to a file.
///
/// Not Foundation's `Process`: on Linux its exit monitoring of a long-running child delays noticing that other
/// children (the `invoices` runs) have exited.
final class Background: @unchecked Sendable {
    // @unchecked Sendable: `pid` is set once in init; `status` is only touched under `lock`.
    let pid: pid_t
    let log: String
    private let lock = NSLock()
    private var status: Int32?

    init(_ program: String, _ arguments: [String], log: String) throws {
        self.log = log
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, nil, argv, environ)
        guard result == 0 else { throw Shell.Failure(description: "cannot start \(program): \(String(cString: strerror(result)))") }
        pid = child
    }

    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Kills the process and every process it started (as a CI runner ending a job would); returns its wait status.
    @discardableResult
    func kill() -> Int32 {
        for child in Self.descendants(of: pid) + [pid] { Glibc.kill(child, SIGKILL) }
        return wait()
    }

    /// Asks the process to end (SIGTERM) and waits for it.
    func stop() {
        Glibc.kill(pid, SIGTERM)
        _ = wait()
    }

    /// Waits for the process to end and returns its wait status.
    func wait() -> Int32 {
        lock.withLock {
            if let status { return status }
            var value: Int32 = 0
            while waitpid(pid, &value, 0) < 0, errno == EINTR {}
            status = value
            return value
        }
    }

    /// The children of `pid`, their children, and so on (from /proc).
    static func descendants(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let children = text.split(separator: " ").compactMap { Int32($0) }
        return children.flatMap { descendants(of: $0) + [$0] }
    }
}

/// sshd from Debian's openssh-server on a free 127.0.0.1 port, with a host key and a client key made for the test;
/// it lets the current user in with that key only.
final class LoopbackSSHD: Sendable {
    let port: Int
    let folder: String
    let daemon: Background
    /// The client's private key (`-i`) and a known_hosts file holding the server's key.
    var identity: String { folder + "/client_key" }
    var knownHosts: String { folder + "/known_hosts" }
    let user: String

    init(folder: String) throws {
        self.folder = folder
        user = ProcessInfo.processInfo.userName
        try Shell.run("ssh-keygen -q -t ed25519 -N '' -f \(folder)/host_key && ssh-keygen -q -t ed25519 -N '' -f \(folder)/client_key")
        try FileManager.default.copyItem(atPath: folder + "/client_key.pub", toPath: folder + "/authorized_keys")
        port = try LoopbackHTTP.freePort()
        let hostKey = try String(contentsOfFile: folder + "/host_key.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(port) \(hostKey)\n".write(toFile: folder + "/known_hosts", atomically: true, encoding: .utf8)
        try """
            ListenAddress 127.0.0.1
            Port \(port)
            HostKey \(folder)/host_key
            PidFile \(folder)/sshd.pid
            AuthorizedKeysFile \(folder)/authorized_keys
            AllowUsers \(user)
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            LogLevel ERROR
            \(Self.pathSetting)

            """.write(toFile: folder + "/sshd_config", atomically: true, encoding: .utf8)
        // Privilege separation wants this folder when sshd runs as root.
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        daemon = try Background("/usr/sbin/sshd", ["-D", "-e", "-f", folder + "/sshd_config"], log: folder + "/sshd.log")
        try LoopbackHTTP.waitUntilListening(port: port)
    }

    /// The test's own PATH for the sessions, so the server side runs the same `rsync` as the client: run the suite
    /// with an older rsync first on the PATH to test publishing with it on both sides (docs/publishing.md).
    static var pathSetting: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.isEmpty || path.contains("\"") ? "" : "SetEnv \"PATH=\(path)\""
    }

    /// `ssh://user@127.0.0.1:port` + `path`.
    func destination(_ path: String) -> String { "ssh://\(user)@127.0.0.1:\(port)\(path)" }

    func stop() { daemon.stop() }
}

/// nginx on a free 127.0.0.1 port, with `include` of the snippet `invoices publish --server nginx` wrote.
final class LoopbackNginx: Sendable {
    let port: Int
    let daemon: Background

    init(folder: String, include snippet: String) throws {
        port = try LoopbackHTTP.freePort()
        try FileManager.default.createDirectory(atPath: folder + "/tmp", withIntermediateDirectories: true)
        // As root, workers run as nobody:nogroup, as on a server: they read what publish made readable to them.
        let user = getuid() == 0 ? "user nobody nogroup;" : ""
        try """
            daemon off;
            \(user)
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log;
            events { worker_connections 64; }
            http {
                include /etc/nginx/mime.types;
                access_log off;
                client_body_temp_path \(folder)/tmp; proxy_temp_path \(folder)/tmp; fastcgi_temp_path \(folder)/tmp;
                uwsgi_temp_path \(folder)/tmp; scgi_temp_path \(folder)/tmp;
                server {
                    listen 127.0.0.1:\(port);
                    include \(snippet);
                }
            }

            """.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        daemon = try Background(
            FileManager.default.fileExists(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "/usr/bin/nginx",
            ["-c", folder + "/nginx.conf", "-e", folder + "/error.log"], log: folder + "/nginx.out")
        try LoopbackHTTP.waitUntilListening(port: port)
    }

    func get(_ path: String, user: String? = nil, password: String? = nil) throws -> LoopbackHTTP.Response {
        try LoopbackHTTP.get(port: port, path, user: user, password: password)
    }

    func stop() { daemon.stop() }
}

/// Runs shell commands for test set-up.
enum Shell {
    struct Failure: Error, CustomStringConvertible { var description: String }

    @discardableResult
    static func run(_ command: String) throws -> String {
        let result = try CLI.shell(command)
        guard result.status == 0 else { throw Failure(description: "'\(command)' failed (\(result.status)): \(result.stderr)") }
        return result.stdout
    }
}
