import Foundation
import Testing

/// What the tests need beyond the build's libraries is installed by scripts/test-deps.sh alone, which `make test`
/// runs in the background while the package and its tests compile (issue 42 item 7): a tool installed anywhere else
/// on the way to the suite (the Makefile's test recipe, scripts/site-checks.sh) waits on the network after the build,
/// on a fresh machine's critical path. Held here as later issues add test tools.
extension SystemPackagesTests {
    /// The recipe of a Makefile target, up to its blank line.
    static func recipe(_ target: String) throws -> Substring {
        let makefile = try read("Makefile")
        let start = try #require(makefile.range(of: "\n\(target):"))
        let rest = makefile[start.upperBound...]
        return rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]
    }

    /// The Debian packages scripts/test-deps.sh installs when missing (each `apt+=(...)`), and its PyPI ones.
    static func testTools() throws -> (apt: Set<String>, pip: Set<String>) {
        let script = try read("scripts/test-deps.sh")
        func named(_ list: String) -> Set<String> {
            Set(script.split(separator: "\n").flatMap { line -> [String] in
                guard let open = line.range(of: "\(list)+=(") else { return [] }
                let inside = line[open.upperBound...].prefix { $0 != ")" }
                return inside.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            })
        }
        return (named("apt"), named("pip"))
    }

    @Test func makeTestInstallsTheTestToolsWhileTheTestsCompile() throws {
        let recipe = try Self.recipe("test")
        let lines = recipe.split(separator: "\n")
        let build = try #require(lines.firstIndex { $0.contains("$(SWIFT) build --build-tests") })
        let tests = try #require(lines.firstIndex { $0.contains("$(SWIFT) test") })
        // Started in the background before the build, waited for before any test runs.
        let background = try #require(lines.firstIndex { $0.contains("scripts/test-deps.sh") && $0.contains("& deps=$$!") })
        let wait = try #require(lines.firstIndex { $0.contains("wait $$deps") })
        #expect(background <= build && build <= wait && wait < tests)
        #expect(!recipe.contains("apt-get") && !recipe.contains("pip install"), "the test recipe installs nothing itself")
        #expect(try Self.recipe("test-deps").contains("scripts/test-deps.sh"))
    }

    @Test func theTestToolsAreInstalledInOneAptRunWithoutRecommendedPackages() throws {
        let script = try Self.read("scripts/test-deps.sh")
        let installs = script.matches(of: /\$SUDO [^\n]*apt-get install[^\n]*/).map { String($0.output) }
        #expect(installs.count == 1)
        #expect(installs.allSatisfy { $0.contains("--no-install-recommends") && $0.contains("\"${apt[@]}\"") })
        #expect(script.matches(of: /\$SUDO [^\n]*apt-get update/).count == 1)
        let (apt, pip) = try Self.testTools()
        #expect(apt.isSuperset(of: ["postgresql", "chromium", "nginx-light", "qpdf", "zbar-tools", "hledger", "ledger", "sqlite3"]))
        #expect(pip.isSuperset(of: ["html5lib", "beancount>=3", "beanquery", "qrbill"]))
    }

    /// scripts/site-checks.sh (the last step of `make test`) installs what it misses when run alone (`make
    /// site-checks`); in `make test` scripts/test-deps.sh has installed every one of them already.
    @Test func everyToolSiteChecksInstallsIsATestTool() throws {
        let siteChecks = try Self.read("scripts/site-checks.sh")
        let (apt, pip) = try Self.testTools()
        let needed = siteChecks.matches(of: /need_apt\+=\(([a-z0-9.+-]+)\)/).map { String($0.output.1) }
        #expect(needed.count >= 3)
        for package in needed { #expect(apt.contains(package), "\(package): scripts/site-checks.sh installs it after the build") }
        let pipped = Set(siteChecks.matches(of: /pip install -q (?:--break-system-packages )?([a-z0-9]+)/).map { String($0.output.1) })
        #expect(!pipped.isEmpty)
        for package in pipped { #expect(pip.contains(package), "\(package): scripts/site-checks.sh installs it after the build") }
    }
}
