import Foundation
import InvoicesPublish
import InvoicesTesting
import Testing

struct ReleaseManifestTests {
    @Test(.temporaryFolder) func theSameFilesGiveTheSameIDAndAnyChangeAnother() throws {
        let folder = try TemporaryFolder.current
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.path("\(name)/sub"), withIntermediateDirectories: true)
            try Data("page".utf8).write(to: URL(fileURLWithPath: folder.path("\(name)/index.html")))
            try Data("style".utf8).write(to: URL(fileURLWithPath: folder.path("\(name)/sub/style.css")))
        }
        let a = try ReleaseManifest(folders: [folder.path("a")])
        #expect(a.id == (try ReleaseManifest(folders: [folder.path("b")])).id)
        #expect(a.id.count == 16)
        #expect(a.files.map(\.path) == ["index.html", "sub/style.css"])
        try Data("page!".utf8).write(to: URL(fileURLWithPath: folder.path("b/index.html")))
        #expect(a.id != (try ReleaseManifest(folders: [folder.path("b")])).id)
    }
}
