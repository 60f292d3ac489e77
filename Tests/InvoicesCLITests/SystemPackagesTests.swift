import Foundation
import Testing

/// The build's system packages are listed once, in scripts/system-packages.txt (issue 42): `make setup` installs
/// from that file and names none of its own, and the README's package list and its CI example name the same
/// packages, so a runner that follows the README builds.
struct SystemPackagesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The packages of scripts/system-packages.txt, in order.
    static func listed() throws -> [String] { try lines().map { $0[0] } }

    /// The README's "CI and publishing" section.
    static func ciSection() throws -> String {
        let readme = try read("README.md")
        let start = try #require(readme.range(of: "## CI and publishing"))
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The list's lines: package, check, purpose.
    static func lines() throws -> [[String]] {
        try read("scripts/system-packages.txt").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func theListHoldsEverySystemLibraryOfThePackage() throws {
        let lines = try Self.lines()
        #expect(lines.allSatisfy { $0.count == 3 }, "package, check, purpose on each line")
        #expect(lines.count == Set(lines.map { $0[0] }).count, "no package twice")
        // Each system library target of Package.swift: its apt package, checked by its pkg-config module.
        let manifest = try Self.read("Package.swift")
        let libraries = manifest.matches(of: /pkgConfig: "([^"]+)", providers: \[\.apt\(\["([^"]+)"\]\)\]/)
        #expect(libraries.count >= 6)
        for library in libraries {
            #expect(lines.contains { $0.prefix(2) == [String(library.output.2), String(library.output.1)] }, "\(library.output.2) checked by \(library.output.1)")
        }
    }

    @Test func makeSetupInstallsFromTheListAndNamesNoPackageOfItsOwn() throws {
        let makefile = try Self.read("Makefile")
        let start = try #require(makefile.range(of: "\nsetup:\n"))
        let rest = makefile[start.upperBound...]
        let recipe = rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]
        #expect(recipe.contains("scripts/system-packages.txt"))
        #expect(recipe.contains("apt-get install -y -qq $$missing"))
        let named = recipe.matches(of: /lib[a-z0-9]+-dev/).map { String($0.output) }
        #expect(named.isEmpty, "the recipe names \(named)")
    }

    @Test func theReadmeAndItsCIExampleNameTheListedPackages() throws {
        let packages = try Self.listed()
        let section = try Self.ciSection()
        // The sentence before the example: the packages in backquotes, up to "to build".
        let sentence = try #require(section.firstRange(of: /to\s+build/)).lowerBound
        let named = section[..<sentence].matches(of: /`([a-z0-9.+-]+-dev)`/).map { String($0.output.1) }
        #expect(named == packages)
        // The example's install step: those packages, then what publishing needs.
        let install = try #require(section.firstMatch(of: /apt-get install -y ([^\n]+(?:\n +[a-z0-9][a-z0-9 .+-]*(?=\n))*)/))
        let installed = install.output.1.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(installed == packages + ["rsync", "openssh-client"])
    }

    /// A closed period is checked against the previous build's trail: the CI example (output `public`) brings
    /// `.public.trail` back before the build and keeps it after.
    @Test func theCIExampleKeepsTheTrailBetweenRuns() throws {
        let lines = try Self.ciSection().split(separator: "\n")
        let restore = try #require(lines.firstIndex { $0.contains("- run: scp") && $0.hasSuffix(":public.trail .public.trail || true") })
        let build = try #require(lines.firstIndex { $0.contains("invoices build --store") && $0.contains("--output public") })
        let keep = try #require(lines.firstIndex { $0.contains("- run: scp") && $0.contains(" .public.trail books@") })
        #expect(restore < build && build < keep)
    }
}
