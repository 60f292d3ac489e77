import Foundation
import PackagePlugin

/// Generates `DefaultTemplates.swift` from the package's `Templates/` folder, so the binary carries the
/// default templates and `Templates/` stays their only source.
@main
struct EmbedTemplatesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { templates.appending(path: $0) }
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
