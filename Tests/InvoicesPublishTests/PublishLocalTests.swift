import Foundation
import InvoicesPublish
import InvoicesTesting
import Testing

/// `invoices publish` to a local folder, the private-by-default pages, htpasswd and client-link keys.
@Suite(.serialized)
struct PublishLocalTests {
    /// A store and a folder to build sites from it.
    static func store(in folder: TemporaryFolder) throws -> String {
        let store = folder.path("books.sqlite")
        let result = try CLI.run(["sample", "--clients", "4", "--invoices", "40", "--seed", "2", "--output", store])
        try #require(result.status == 0, "\(result.stderr)")
        return store
    }

    @Test(.temporaryFolder) func dryRunListsChangesWritesNothingAndKeepBoundsTheReleases() throws {
        let folder = try TemporaryFolder.current
        let store = try Self.store(in: folder)
        let dest = folder.path("www/reports")
        for id in ["1", "2", "3"] {
            #expect(try CLI.run(["build", "--store", store, "--output", folder.path("site-\(id)"), "--build-id", id, "--quiet"]).status == 0)
        }
        let dry = try CLI.run(["publish", dest, "--site", folder.path("site-1"), "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("new      index.html"))
        #expect(dry.stdout.contains("nothing published yet"))
        #expect(!FileManager.default.fileExists(atPath: dest))

        #expect(try CLI.run(["publish", dest, "--site", folder.path("site-1"), "--keep", "2"]).status == 0)
        // site-2 differs in its pages; and has one file more, one fewer.
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("site-2/extra.txt")))
        try FileManager.default.removeItem(atPath: folder.path("site-2/aging.csv"))
        let plan = try CLI.run(["publish", dest, "--site", folder.path("site-2"), "--dry-run"])
        let pages = try Self.count(folder.path("site-2"), suffix: ".html")
        #expect(plan.stdout.contains("new      extra.txt") && plan.stdout.contains("deleted  aging.csv"))
        #expect(plan.stdout.contains(": 1 new, \(pages) changed, 1 deleted, "), "\(plan.stdout)")
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: dest + "/current")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dest + "/releases").count == 1)

        #expect(try CLI.run(["publish", dest, "--site", folder.path("site-2"), "--keep", "2"]).status == 0)
        let third = try CLI.run(["publish", dest, "--site", folder.path("site-3"), "--keep", "2"])
        #expect(third.stdout.contains("Removed 1 old releases: \(current.dropFirst("releases/".count))"), "\(third.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dest + "/releases").count == 2)
    }

    @Test(.temporaryFolder) func pagesArePrivateByDefaultAndPublicOnRequest() throws {
        let folder = try TemporaryFolder.current
        let store = try Self.store(in: folder)
        #expect(try CLI.run(["build", "--store", store, "--output", folder.path("private"), "--quiet"]).status == 0)
        #expect(try CLI.run(["build", "--store", store, "--output", folder.path("public"), "--public", "--quiet"]).status == 0)
        for page in try FileManager.default.subpathsOfDirectory(atPath: folder.path("private")) where page.hasSuffix(".html") {
            let text = try String(contentsOfFile: folder.path("private/" + page), encoding: .utf8)
            #expect(text.contains(#"<meta name="robots" content="noindex">"#), "\(page)")
            #expect(text.contains("Content-Security-Policy\" content=\"default-src 'self'"), "\(page)")
            // Scripts only from the site itself: an inline script a value managed to inject would not run.
            #expect(text.contains("script-src 'self';") && !text.contains("script-src 'self' 'unsafe-inline'"), "\(page)")
            // The one script is the site's own file (clients.html's search), never inline.
            #expect(text.components(separatedBy: "<script").count - 1 == (page == "clients.html" ? 1 : 0), "\(page)")
            #expect(!text.contains("<script>"), "\(page)")
            // No third-party resource: every src and stylesheet is relative.
            for attribute in ["src=\"", "<link rel=\"stylesheet\" href=\""] {
                for value in text.components(separatedBy: attribute).dropFirst() {
                    #expect(!value.hasPrefix("http") && !value.hasPrefix("//"), "\(page): \(value.prefix(40))")
                }
            }
            let open = try String(contentsOfFile: folder.path("public/" + page), encoding: .utf8)
            #expect(!open.contains(#"name="robots""#) && !open.contains("Content-Security-Policy"), "\(page)")
        }
    }

    @Test(.temporaryFolder) func htpasswdHashesAreBcryptThatApacheAcceptsAndStayWhenUnchanged() throws {
        let folder = try TemporaryFolder.current
        try "alice:s3cret: with colon\n\n# comment\nbob:hunter2\n".write(toFile: folder.path("users"), atomically: true, encoding: .utf8)
        let first = try Htpasswd(usersFile: folder.path("users"), cost: 5)
        #expect(first.entries.map(\.name) == ["alice", "bob"])
        #expect(first.entries.allSatisfy { $0.hash.hasPrefix("$2y$05$") && $0.hash.count == 60 })
        try first.text.write(toFile: folder.path("htpasswd"), atomically: true, encoding: .utf8)
        // Apache's own tool verifies the hashes.
        #expect(try CLI.shell("htpasswd -vb \(folder.path("htpasswd")) alice 's3cret: with colon'").status == 0)
        #expect(try CLI.shell("htpasswd -vb \(folder.path("htpasswd")) bob hunter2").status == 0)
        #expect(try CLI.shell("htpasswd -vb \(folder.path("htpasswd")) bob hunter3").status != 0)
        // Same users file: same hashes (the salt is random, so a new hash would differ).
        #expect(try Htpasswd(usersFile: folder.path("users"), previous: first.text, cost: 5) == first)
        try "alice:changed\n".write(toFile: folder.path("users"), atomically: true, encoding: .utf8)
        let changed = try Htpasswd(usersFile: folder.path("users"), previous: first.text, cost: 5)
        #expect(changed.entries[0].hash != first.entries[0].hash && Bcrypt.verify("changed", hash: changed.entries[0].hash))
        try "alice\n".write(toFile: folder.path("users"), atomically: true, encoding: .utf8)
        #expect(throws: PublishError.self) { try Htpasswd(usersFile: folder.path("users")) }
    }

    @Test func clientLinkTokensAreHMACsOfTheNumberUnderTheKey() throws {
        let key = String(repeating: "k", count: 40)
        let fromEnvironment = try ClientLinkKey(source: "env:LINK_KEY", environment: ["LINK_KEY": key + "\n"])
        // HMAC-SHA256(key, "invoices-client-link:C-001"), first 20 bytes, base32 (computed with openssl).
        let expected = try CLI.shell(
            "printf %s 'invoices-client-link:C-001' | openssl dgst -sha256 -hmac '\(key)' -binary | head -c 20 | base32 | tr A-Z a-z")
        #expect(fromEnvironment.token(forClient: "C-001") == expected.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(fromEnvironment.token(forClient: "C-001") != fromEnvironment.token(forClient: "C-002"))
        let other = try ClientLinkKey(source: "env:LINK_KEY", environment: ["LINK_KEY": key + "x"])
        #expect(other.token(forClient: "C-001") != fromEnvironment.token(forClient: "C-001"))
        #expect(throws: PublishError.self) { try ClientLinkKey(source: "env:LINK_KEY", environment: ["LINK_KEY": "short"]) }
        #expect(throws: PublishError.self) { try ClientLinkKey(source: "env:MISSING", environment: [:]) }
    }

    @Test(.temporaryFolder) func exitCodesFollowSysexits() throws {
        let folder = try TemporaryFolder.current
        try FileManager.default.createDirectory(atPath: folder.path("site"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("site/index.html")))
        let usage = try CLI.run(["publish", "ftp://host/path", "--site", folder.path("site")])
        #expect(usage.status == 64 && usage.stderr.contains("ftp://host/path"))
        #expect(try CLI.run(["publish", folder.path("d"), "--site", folder.path("nope")]).status == 66)
        #expect(try CLI.run(["publish", folder.path("d"), "--rollback"]).status == 66)
        let port = try LoopbackHTTP.freePort()  // nothing listens there
        let unreachable = try CLI.run(["publish", "ssh://nobody@127.0.0.1:\(port)/srv/x", "--site", folder.path("site")])
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
        let key = try CLI.run(["links", "--store", "x.sqlite", "--client-links", folder.path("no.key")])
        #expect(key.status == 66)
    }

    @Test(.temporaryFolder) func theProjectFileHoldsThePublishSettings() throws {
        let folder = try TemporaryFolder.current
        _ = try Self.store(in: folder)
        try "alice:pw\n".write(toFile: folder.path("users.txt"), atomically: true, encoding: .utf8)
        try """
            store: books.sqlite
            output: site
            public: true
            build_id: june
            publish:
              destination: www/reports
              keep: 1
              server: nginx
              users: users.txt
              url_path: /books/
              bcrypt_cost: 4

            """.write(toFile: folder.path("invoices.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["build", "--quiet"], in: folder.url).status == 0)
        let index = try String(contentsOfFile: folder.path("site/index.html"), encoding: .utf8)
        #expect(index.contains(#"<meta name="invoices-build" content="june">"#) && !index.contains(#"name="robots""#))
        let publish = try CLI.run(["publish"], in: folder.url)
        #expect(publish.status == 0, "\(publish.stderr)")
        let snippet = try String(contentsOfFile: folder.path("www/reports/nginx.conf"), encoding: .utf8)
        #expect(snippet.contains("location /books/ {") && !snippet.contains("X-Robots-Tag"))
        #expect(try String(contentsOfFile: folder.path("www/reports/htpasswd"), encoding: .utf8).hasPrefix("alice:$2y$04$"))

        try "publish:\n  destination: x\n  keep: none\n  colour: red\n".write(toFile: folder.path("bad.yaml"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["publish", "--config", "bad.yaml"], in: folder.url)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("bad.yaml:3:9: publish.keep 'none' must be a positive whole number"), "\(bad.stderr)")
        #expect(bad.stderr.contains("unknown key 'publish.colour'"))
    }

    static func count(_ folder: String, suffix: String) throws -> Int {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(suffix) }.count
    }
}
