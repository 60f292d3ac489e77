import Foundation
import Yams

extension ProjectConfig {
    /// Reads the `publish:` mapping into `publish.KEY` values; returns the problems found.
    mutating func readPublish(_ mapping: Node.Mapping, path: String) -> [ConfigError] {
        var problems: [ConfigError] = []
        for (key, value) in mapping {
            let line = value.mark?.line ?? key.mark?.line ?? 0, column = value.mark?.column ?? key.mark?.column ?? 0
            guard let name = key.string, Self.publishKeys.contains(name) else {
                problems.append(ConfigError(path: path, line: key.mark?.line ?? 0, column: key.mark?.column ?? 0,
                                            message: "unknown key 'publish.\(key.string ?? "\(key)")'; known keys under publish: \(Self.publishKeys.joined(separator: ", "))"))
                continue
            }
            if value.null != nil { continue }
            guard let scalar = value.scalar else {
                problems.append(ConfigError(path: path, line: line, column: column, message: "'publish.\(name)' must be a single value"))
                continue
            }
            values["publish." + name] = Value(text: scalar.string, line: line, column: column)
            if let problem = ConfigCheck.problem(key: "publish." + name, value: scalar.string) {
                problems.append(ConfigError(path: path, line: line, column: column, message: problem))
            }
        }
        return problems
    }

    /// `client_links`: `env:NAME` as it is, a file path resolved against the file's folder.
    var clientLinksSource: String? {
        guard let text = self["client_links"] else { return nil }
        return text.hasPrefix("env:") ? text : path("client_links")
    }
}
