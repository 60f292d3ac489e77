import Foundation
import InvoicesPublish
import InvoicesTesting
import Testing

/// `invoices publish` against a real sshd, the site served by a real nginx with the snippet publish wrote; both on
/// 127.0.0.1, started and stopped here.
@Suite(.serialized)
struct PublishOverSSHTests {
    static let user = "alice", password = "correct horse battery staple"

    /// Two builds of one store differing in their build id (so every page differs, assets and exports do not),
    /// with client links; the servers; the publish arguments.
    struct Fixture {
        let folder: TemporaryFolder
        let sshd: LoopbackSSHD
        let destination: String
        let remote: String

        init() throws {
            folder = try TemporaryFolder("invoices-publish")
            let store = folder.path("books.sqlite")
            try Self.check(try CLI.run(["sample", "--clients", "8", "--invoices", "200", "--seed", "7", "--output", store]))
            try Data((String(repeating: "k", count: 40) + "\n").utf8).write(to: URL(fileURLWithPath: folder.path("link.key")))
            try "# readers\n\(PublishOverSSHTests.user):\(PublishOverSSHTests.password)\n".write(
                toFile: folder.path("users.txt"), atomically: true, encoding: .utf8)
            for id in ["A", "B"] {
                try Self.check(try CLI.run([
                    "build", "--store", store, "--output", folder.path("site-\(id)"), "--build-id", id, "--quiet",
                    "--client-links", folder.path("link.key"), "--base-url", "https://example.com/reports/",
                ]))
            }
            try FileManager.default.createDirectory(atPath: folder.path("ssh"), withIntermediateDirectories: true)
            sshd = try LoopbackSSHD(folder: folder.path("ssh"))
            destination = folder.path("server/reports")
            remote = sshd.destination(destination)
        }

        func publish(_ site: String, _ extra: [String] = []) throws -> CLI.Result {
            try CLI.run([
                "publish", remote, "--site", folder.path(site), "-i", sshd.identity, "--known-hosts", sshd.knownHosts,
                "--server", "nginx", "--users", folder.path("users.txt"), "--url-path", "/reports/", "--bcrypt-cost", "4",
                "--web-group", getuid() == 0 ? "nogroup" : "\(getgid())",
            ] + extra)
        }

        var current: String { (try? FileManager.default.destinationOfSymbolicLink(atPath: destination + "/current")) ?? "" }

        func stop() {
            sshd.stop()
            folder.remove()
        }

        static func check(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try #require(result.status == 0, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func publishesAtomicallyServesPrivatelyAndRollsBack() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let first = try fixture.publish("site-A")
        try Fixture.check(first)
        let siteA = fixture.folder.path("site-A"), siteB = fixture.folder.path("site-B")
        let idA = try ReleaseManifest(folders: [siteA]).id
        #expect(fixture.current == "releases/\(idA)")
        #expect(first.stdout.contains("Published release \(idA)"))
        let htpasswd = try String(contentsOfFile: fixture.destination + "/htpasswd", encoding: .utf8)
        #expect(htpasswd.hasPrefix("\(Self.user):$2y$04$"))
        #expect(!htpasswd.contains(Self.password) && !first.stdout.contains(Self.password) && !first.stderr.contains(Self.password))

        let nginx = try LoopbackNginx(folder: fixture.folder.path("nginx"), include: fixture.destination + "/nginx.conf")
        defer { nginx.stop() }

        // Basic auth, noindex header and meta.
        #expect(try nginx.get("/reports/index.html").status == 401)
        #expect(try nginx.get("/reports/index.html", user: Self.user, password: "wrong").status == 401)
        #expect(try nginx.get("/reports/index.html", user: "mallory", password: Self.password).status == 401)
        let index = try nginx.get("/reports/", user: Self.user, password: Self.password)
        #expect(index.status == 200)
        #expect(index.headers["x-robots-tag"] == "noindex, nofollow")
        #expect(index.headers["cache-control"]?.contains("max-age=300") == true)
        #expect(index.text.contains(#"<meta name="robots" content="noindex">"#))
        #expect(index.text.contains(#"<meta name="invoices-build" content="A">"#))
        let style = try nginx.get("/reports/style.css", user: Self.user, password: Self.password)
        #expect(style.status == 200 && style.headers["cache-control"]?.contains("max-age=604800") == true)
        #expect(try nginx.get("/reports/index.html").headers["x-robots-tag"] == "noindex, nofollow")

        // Client links: reachable by token only, without a password; a wrong token is a 404; no listing.
        let links = try CLI.run([
            "links", "--store", fixture.folder.path("books.sqlite"), "--client-links", fixture.folder.path("link.key"),
        ])
        try Fixture.check(links)
        let paths = links.stdout.split(separator: "\n").map { String($0.split(separator: "\t").last ?? "") }
        #expect(paths.count == 8)
        let link = try #require(paths.first)
        let page = try nginx.get("/reports/" + link)
        #expect(page.status == 200)
        #expect(page.text.contains(#"<meta name="robots" content="noindex">"#))
        #expect(page.headers["x-robots-tag"] == "noindex, nofollow")
        let name = links.stdout.split(separator: "\n")[0].split(separator: "\t")[1]
        #expect(page.text.contains(String(name)))
        // The private statement links only to the client page beside it (and mailto: links).
        #expect(page.text.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("mailto:") || $0.hasPrefix("client.html\"") })
        #expect(try nginx.get("/reports/" + link + "client.html").status == 200)
        #expect(try nginx.get("/reports/c/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/").status == 404)
        #expect(try nginx.get("/reports/c/").status == 404)
        #expect(try nginx.get("/reports/c/", user: Self.user, password: Self.password).status == 404)
        let token = String(link.dropFirst(2).dropLast())
        for listed in ["sitemap.xml", "feed.xml", "index.html", "clients.html", "report.json"] {
            let body = try nginx.get("/reports/" + listed, user: Self.user, password: Self.password)
            #expect(body.status == 200 && !body.text.contains(token) && !body.text.contains("/c/"), "\(listed)")
        }

        // Publish B, then A again, while a reader keeps asking for pages: each answer is one release's file.
        let pages = ["index.html", "clients.html", "months/2025-06.html", link + "index.html"]
        let reader = Reader(nginx: nginx, pages: pages.map { "/reports/" + $0 })
        reader.start()
        let second = try fixture.publish("site-B")
        try Fixture.check(second)
        let idB = fixture.current.replacingOccurrences(of: "releases/", with: "")
        #expect(idB != idA)
        let third = try fixture.publish("site-A")
        try Fixture.check(third)
        #expect(third.stdout.contains("published before (nothing uploaded)"))
        try Fixture.check(try fixture.publish("site-B"))
        let answers = reader.stop()
        #expect(answers.count >= 20, "only \(answers.count) answers")
        var seen: Set<String> = []
        for answer in answers {
            let page = pages[answer.page]
            let a = try Data(contentsOf: URL(fileURLWithPath: siteA + "/" + page + (page.hasSuffix("/") ? "index.html" : "")))
            let b = try Data(contentsOf: URL(fileURLWithPath: siteB + "/" + page))
            #expect(answer.status == 200, "\(page): \(answer.status)")
            let release = answer.body == a ? "A" : answer.body == b ? "B" : "neither"
            #expect(release != "neither", "\(page) is not the file of either release")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("<meta name=\"invoices-build\" content=\"\(release)\">"))
            seen.insert(release)
        }
        #expect(seen == ["A", "B"])

        // Unchanged files are linked, not uploaded: B differs from A in its pages only.
        let changed = try Self.differingFiles(siteA, siteB)
        #expect(second.stdout.contains("\(changed) uploaded"), "\(second.stdout)")
        let all = try Self.files(in: siteB).count
        #expect(changed > 0 && changed < all)
        let inodeA = try FileManager.default.attributesOfItem(atPath: "\(fixture.destination)/releases/\(idA)/style.css")[.systemFileNumber] as? Int
        let inodeB = try FileManager.default.attributesOfItem(atPath: "\(fixture.destination)/releases/\(idB)/style.css")[.systemFileNumber] as? Int
        #expect(inodeA != nil && inodeA == inodeB)

        // Rollback: current goes back to A, and nginx serves it.
        let rollback = try CLI.run(["publish", fixture.remote, "--rollback", "-i", fixture.sshd.identity, "--known-hosts", fixture.sshd.knownHosts])
        try Fixture.check(rollback)
        #expect(fixture.current == "releases/\(idA)")
        #expect(try nginx.get("/reports/", user: Self.user, password: Self.password).text.contains(#"content="A">"#))
    }

    @Test func aPublishKilledMidUploadLeavesCurrentOnTheOldRelease() throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        try Fixture.check(try fixture.publish("site-A"))
        let before = fixture.current
        // Site B plus 2 MiB of incompressible data, uploaded at 256 KiB/s: about 8 s; killed after the upload began.
        let big = fixture.folder.path("site-B/big.bin")
        try Shell.run("head -c \(2 << 20) /dev/urandom > \(big)")
        let arguments = [
            "publish", fixture.remote, "--site", fixture.folder.path("site-B"), "-i", fixture.sshd.identity,
            "--known-hosts", fixture.sshd.knownHosts, "--bwlimit", "256",
        ]
        let run = try Background(CLI.executable.path, arguments, log: fixture.folder.path("publish.log"))
        let releases = fixture.destination + "/releases"
        var partial: String?
        for _ in 0..<200 where partial == nil {
            usleep(50_000)
            partial = (try? FileManager.default.contentsOfDirectory(atPath: releases))?.first { $0.hasSuffix(".partial") }
        }
        let started = try #require(partial, "no upload started: \(run.output)")
        usleep(500_000)
        let status = run.kill()
        #expect(status & 0x7f == SIGKILL, "it had ended by itself: \(run.output)")
        #expect(fixture.current == before)
        #expect((try FileManager.default.contentsOfDirectory(atPath: releases)).filter { !$0.hasPrefix(".") }.count == 1)
        let uploaded = (try? FileManager.default.attributesOfItem(atPath: "\(releases)/\(started)/big.bin")[.size] as? Int) ?? 0
        #expect(uploaded < 2 << 20, "the upload finished before it was killed")

        // The next publish finishes the job and removes what the killed one left.
        let again = try CLI.run(Array(arguments.dropLast(2)))
        try Fixture.check(again)
        #expect(fixture.current != before)
        #expect((try FileManager.default.contentsOfDirectory(atPath: releases)).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// Paths under `folder`, relative to it.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// How many files of `b` are new or differ from `a`.
    static func differingFiles(_ a: String, _ b: String) throws -> Int {
        try files(in: b).filter { FileManager.default.contents(atPath: a + "/" + $0) != FileManager.default.contents(atPath: b + "/" + $0) }.count
    }
}

/// Requests pages in a loop on a thread of its own until stopped (at most 20,000 requests or 60 s).
final class Reader: @unchecked Sendable {
    // @unchecked Sendable: `answers` and `stopping` are only touched under `lock`.
    struct Answer { var page: Int; var status: Int; var body: Data }
    let nginx: LoopbackNginx
    let pages: [String]
    private let lock = NSCondition()
    private var answers: [Answer] = []
    private var stopping = false
    private var done = false

    init(nginx: LoopbackNginx, pages: [String]) {
        self.nginx = nginx
        self.pages = pages
    }

    func start() {
        Thread {
            let deadline = Date().addingTimeInterval(60)
            var count = 0
            while count < 20_000, Date() < deadline, !self.lock.withLock({ self.stopping }) {
                let page = count % self.pages.count
                let user = self.pages[page].contains("/c/") ? nil : PublishOverSSHTests.user
                let response = try? self.nginx.get(self.pages[page], user: user, password: PublishOverSSHTests.password)
                self.lock.withLock { self.answers.append(Answer(page: page, status: response?.status ?? 0, body: response?.body ?? Data())) }
                count += 1
                usleep(2_000)  // leave the publish some of the two cores
            }
            self.lock.withLock {
                self.done = true
                self.lock.broadcast()
            }
        }.start()
    }

    func stop() -> [Answer] {
        lock.lock()
        defer { lock.unlock() }
        stopping = true
        while !done { lock.wait() }
        return answers
    }
}
