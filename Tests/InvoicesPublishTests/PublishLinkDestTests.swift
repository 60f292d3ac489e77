import Testing

@testable import InvoicesPublish

/// The upload's `--link-dest` folders (issue 42 item 7: Debian 12's rsync 3.2.7 failed every delta against a
/// relative `../<id>` basis folder with "failed verification -- update discarded").
struct PublishLinkDestTests {
    @Test func keptReleasesAreNamedByTheirAbsolutePathNeverRelativeToTheUpload() {
        let kept = ["00000000000000bb", "00000000000000aa"]
        #expect(Publisher.linkDestinations(kept, destination: "/srv/www/reports") == [
            "--link-dest=/srv/www/reports/releases/00000000000000bb", "--link-dest=/srv/www/reports/releases/00000000000000aa",
        ])
        #expect(Publisher.linkDestinations(kept, destination: "/") == [
            "--link-dest=/releases/00000000000000bb", "--link-dest=/releases/00000000000000aa",
        ])
        // A destination with spaces and quotes stays one argument (rsync escapes it for the remote shell itself).
        #expect(Publisher.linkDestinations(["00000000000000aa"], destination: "/srv/my 'site'") == [
            "--link-dest=/srv/my 'site'/releases/00000000000000aa",
        ])
        // rsync accepts at most 20, the newest first.
        let many = (0..<25).map { String(format: "%016x", $0) }
        let arguments = Publisher.linkDestinations(many, destination: "/d")
        #expect(arguments.count == 20 && arguments.first == "--link-dest=/d/releases/\(many[0])")
        #expect(arguments.allSatisfy { $0.hasPrefix("--link-dest=/") && !$0.contains("..") })
    }
}
