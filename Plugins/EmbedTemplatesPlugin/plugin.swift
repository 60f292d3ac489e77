import Foundation
import PackagePlugin

/// Generates `DefaultTemplates.swift` from the package's `Templates/` folder, so the binary carries the
/// default templates and `Templates/` stays their only source.
@main
struct EmbedTemplatesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        var names = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter { !$0.hasPrefix(".") && $0 != "i18n" }
        // The translation tables, `i18n/<language>.yaml`.
        let tables = (try? FileManager.default.contentsOfDirectory(atPath: templates.appending(path: "i18n").path)) ?? []
        names += tables.filter { !$0.hasPrefix(".") }.map { "i18n/" + $0 }
        let inputs = names.sorted().map { templates.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding default templates",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [templates.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
