import Foundation
@testable import InvoicesSite
import InvoicesTesting
import Testing

/// The templates are checked as one graph before anything renders (issue 16): recursion, depth, missing partials,
/// unclosed sections, each located and with the include chain that leads there.
struct TemplateGraphTests {
    func folder(with files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder.current
        for (name, text) in files { try Data(text.utf8).write(to: folder.url.appendingPathComponent(name)) }
        return folder
    }

    func errors(_ files: [String: String]) throws -> (folder: TemporaryFolder, errors: [TemplateError]) {
        let folder = try folder(with: files)
        let errors = TemplateSet.problems(directory: folder.url.path)
        // The build's load stops at the first of the same errors.
        if let first = errors.first {
            let thrown = try #require(throws: TemplateError.self) { try TemplateSet(directory: folder.url.path) }
            #expect(thrown.description == first.description)
        } else {
            _ = try TemplateSet(directory: folder.url.path)
        }
        return (folder, errors)
    }

    @Test(.temporaryFolder) func aPartialThatIncludesItselfIsAnErrorWithItsChain() throws {
        let (folder, errors) = try errors(["invoice-list.md": "<table>\n{{#invoices}}\n<tr><td>{{notes}}</td></tr>\n{{> invoice-list}}\n{{/invoices}}\n</table>\n"])
        let error = try #require(errors.first)
        #expect(error.code == .recursivePartial)
        #expect(error.description.hasPrefix(folder.path("invoice-list.md") + ":4:5: partial 'invoice-list' includes itself"), "\(error)")
        #expect(error.message.hasSuffix(": invoice-list.md:4 includes invoice-list.md"), "\(error)")
    }

    @Test(.temporaryFolder) func partialsThatIncludeEachOtherAreAnError() throws {
        let (folder, errors) = try errors([
            "client.md": "# {{name}}\n\n{{> ping}}\n",
            "ping.md": "ping\n{{> pong}}\n",
            "pong.md": "pong\n\n{{> ping}}\n",
        ])
        let error = try #require(errors.first { $0.code == .recursivePartial })
        #expect(error.description.hasPrefix(folder.path("pong.md") + ":3:5: partial 'ping' includes itself"), "\(error)")
        #expect(error.message.contains("ping.md:2 includes pong.md, pong.md:3 includes ping.md"), "\(error)")
        // The same loop is not reported twice over: once from the page, once from each partial walked on its own.
        #expect(errors.filter { $0.code == .recursivePartial }.count <= 3)
    }

    @Test(.temporaryFolder) func aMissingPartialIsAnErrorLikeAnUnknownVariable() throws {
        let (folder, errors) = try errors(["month.md": "# {{label}}\n\nSee {{> nope}}\n"])
        let error = try #require(errors.first)
        #expect(error.code == .missingPartial)
        #expect(error.description.hasPrefix(folder.path("month.md") + ":3:9: missing partial 'nope'"), "\(error)")
    }

    @Test(.temporaryFolder) func anErrorInAPartialNamesTheChainThatIncludesIt() throws {
        let (_, errors) = try errors(["totals-table.md": "{{#totals}}\n{{> nope}}\n{{/totals}}\n"])
        let error = try #require(errors.first)
        #expect(error.code == .missingPartial)
        #expect(error.message.contains("client.md:"), "\(error)")
        #expect(error.message.contains(" includes totals-table.md"), "\(error)")
    }

    @Test(.temporaryFolder) func anUnclosedSectionSaysWhichAndWhereItWasOpened() throws {
        let (folder, errors) = try errors(["month.md": "# {{label}}\n\n{{#currencies}}\n{{#rows}}\n{{name}}\n{{/rows}}\n"])
        let error = try #require(errors.first)
        #expect(error.code == .unclosedSection)
        #expect(error.description == folder.path("month.md") + ":3:4: unclosed section 'currencies': '{{#currencies}}' has no '{{/currencies}}'")
    }

    @Test(.temporaryFolder) func aMismatchedCloseNamesTheOpenSection() throws {
        let (folder, errors) = try errors(["month.md": "{{#currencies}}\nx\n{{/rows}}\n"])
        let error = try #require(errors.first)
        #expect(error.description.hasPrefix(folder.path("month.md") + ":3:4: '{{/rows}}' closes section 'currencies', opened at line 1, column 4"), "\(error)")
    }

    @Test(.temporaryFolder, arguments: [TemplateSyntax.maximumDepth + 1, 5_000, 100_000])
    func sectionsNestedPastTheLimitAreAnErrorNotACrash(depth: Int) throws {
        let text = String(repeating: "{{#hasAddress}}", count: depth) + "x" + String(repeating: "{{/hasAddress}}", count: depth)
        let (folder, errors) = try errors(["client.md": text])
        let error = try #require(errors.first)
        #expect(error.code == .tooDeep)
        #expect(error.description.hasPrefix(folder.path("client.md") + ":1:"), "\(error)")
        #expect(error.message.contains("nested more than \(TemplateSyntax.maximumDepth) deep"))
    }

    @Test(.temporaryFolder) func sectionsNestedToTheLimitRender() throws {
        let depth = TemplateSyntax.maximumDepth - 1
        let text = String(repeating: "{{#hasAddress}}", count: depth) + "x" + String(repeating: "{{/hasAddress}}", count: depth)
        let (folder, errors) = try errors(["client.md": text])
        #expect(errors.isEmpty, "\(errors)")
        let templates = try TemplateSet(directory: folder.url.path)
        #expect(templates.render("client", ["hasAddress": true]) == "x")
    }

    @Test(.temporaryFolder) func depthCountsAcrossPartials() throws {
        let half = TemplateSyntax.maximumDepth / 2 + 1
        let open = String(repeating: "{{#hasAddress}}", count: half), close = String(repeating: "{{/hasAddress}}", count: half)
        let (_, errors) = try errors(["client.md": open + "{{> deep}}" + close, "deep.md": open + "x" + close])
        let error = try #require(errors.first)
        #expect(error.code == .tooDeep)
        #expect(error.message.contains("client.md:1 includes deep.md"), "\(error)")
    }

    @Test(.temporaryFolder) func everyProblemIsListedNotOnlyTheFirst() throws {
        let (_, errors) = try errors([
            "month.md": "{{> nope}}\n{{totl}}\n",
            "clients.md": "{{#clients}}\n",
        ])
        #expect(errors.map(\.code) == [.unclosedSection, .missingPartial, .unknownVariable], "\(errors)")
    }

    @Test(.temporaryFolder) func partialsExpandingExponentiallyAreRefusedQuickly() throws {
        var files = ["client.md": "{{> p0}}\n"]
        for level in 0..<40 { files["p\(level).md"] = "{{> p\(level + 1)}}{{> p\(level + 1)}}\n" }
        files["p40.md"] = "x\n"
        let (_, errors) = try errors(files)
        #expect(!errors.isEmpty)
    }

    @Test func setDelimitersAndCommentsAreFollowed() throws {
        let syntax = try TemplateSyntax("{{! a comment }}\n{{=<% %>=}}\nx <%name%> {{notATag}}")
        let variables = syntax.nodes.compactMap { node -> TemplateSyntax.Tag? in
            if case .variable(let tag, _) = node { return tag }
            return nil
        }
        #expect(variables.map(\.name) == ["name"])
        #expect(variables.first?.location == TemplateSyntax.Location(line: 3, column: 5))
    }
}
