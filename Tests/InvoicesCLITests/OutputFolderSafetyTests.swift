import Foundation
import InvoicesTesting
import Testing

/// A build replaces only a folder it wrote, never the store, the project file or the templates (issue 28).
@Suite(.serialized)
struct OutputFolderSafetyTests {
    /// Every file under `folder` with its bytes, by relative path.
    func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder)! {
            let full = folder + "/" + path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }

    @Test(.temporaryFolder) func buildingIntoTheCurrentFolderOfAProjectKeepsEverything() throws {
        let folder = try TemporaryFolder.current
        #expect(try CLI.run(["init", folder.path("reports")]).status == 0)
        let project = folder.url.appendingPathComponent("reports")
        let before = try contents(project.path)
        #expect(before.keys.contains("books.sqlite") && before.keys.contains("invoices.yaml"))

        for arguments in [["build", "--output", "."], ["build", "--store", "books.sqlite", "--output", "."]] {
            let result = try CLI.run(arguments, in: project)
            #expect(result.status == 73, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("books.sqlite") && result.stderr.contains("never replaces"), "\(result.stderr)")
            #expect(try contents(project.path) == before)
        }
        // `output: .` in the project file, as a user may write it.
        let yaml = project.appendingPathComponent("invoices.yaml")
        let text = try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: "\noutput: Output\n", with: "\noutput: .\n")
        #expect(text.contains("\noutput: .\n"))
        try text.write(to: yaml, atomically: true, encoding: .utf8)
        let edited = try contents(project.path)
        let result = try CLI.run(["build"], in: project)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try contents(project.path) == edited)
    }

    @Test(.temporaryFolder) func aFolderHoldingTheStoreOrTheTemplatesIsNeverReplaced() throws {
        let folder = try TemporaryFolder.current
        let data = folder.path("data")
        try FileManager.default.createDirectory(atPath: data + "/templates", withIntermediateDirectories: true)
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--output", data + "/books.sqlite"]).status == 0)
        try Data("# {{title}}\n".utf8).write(to: URL(fileURLWithPath: data + "/templates/notes.txt"))
        let before = try contents(data)
        // The output is the store's folder, the store's parent, or the templates folder itself.
        for output in [data, folder.url.path, data + "/templates"] {
            let result = try CLI.run([
                "build", "--store", data + "/books.sqlite", "--templates", data + "/templates", "--output", output, "--quiet",
            ])
            #expect(result.status == 73, "\(output): \(result.stderr)")
            #expect(result.stderr.contains("never replaces"), "\(result.stderr)")
            #expect(try contents(data) == before)
        }
    }

    @Test(.temporaryFolder) func aFolderOfOtherFilesIsRefusedAndAnEmptyOrOwnFolderIsReplaced() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--output", store]).status == 0)
        let other = folder.path("photos")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: other + "/holiday.jpg"))
        let refused = try CLI.run(["build", "--store", store, "--output", other, "--quiet"])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("'holiday.jpg'") && refused.stderr.contains("did not write"), "\(refused.stderr)")
        #expect(try contents(other) == ["holiday.jpg": Data("jpeg".utf8)])

        let empty = folder.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try CLI.run(["build", "--store", store, "--output", empty, "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: empty + "/index.html"))
        #expect(FileManager.default.fileExists(atPath: empty + "/.invoices-site"))
        // The tool's own site is replaced, build after build.
        #expect(try CLI.run(["build", "--store", store, "--output", empty, "--title", "Again", "--quiet"]).status == 0)
        #expect(try String(contentsOfFile: empty + "/index.html", encoding: .utf8).contains("Again"))
    }

    @Test(.temporaryFolder) func aSiteWrittenBeforeTheMarkerIsRecognisedByItsManifest() throws {
        let folder = try TemporaryFolder.current
        let store = folder.path("books.sqlite")
        #expect(try CLI.run(["sample", "--clients", "3", "--invoices", "20", "--output", store]).status == 0)
        let site = folder.path("site")
        #expect(try CLI.run(["build", "--store", store, "--output", site, "--quiet"]).status == 0)
        // As an earlier version left it: no marker, the manifest beside it.
        try FileManager.default.removeItem(atPath: site + "/.invoices-site")
        #expect(try CLI.run(["build", "--store", store, "--output", site, "--title", "Upgraded", "--quiet"]).status == 0)
        #expect(try String(contentsOfFile: site + "/index.html", encoding: .utf8).contains("Upgraded"))
        // The same folder with a file no manifest names, and no marker: not provably the tool's own.
        try FileManager.default.removeItem(atPath: site + "/.invoices-site")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: site + "/notes.txt"))
        let result = try CLI.run(["build", "--store", store, "--output", site, "--quiet"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(try String(contentsOfFile: site + "/notes.txt", encoding: .utf8) == "mine")
    }
}
