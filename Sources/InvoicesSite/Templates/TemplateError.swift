internal import Mustache

/// An error in a report template, located at the offending character.
///
/// ```
/// Templates/month.md:14:5: unclosed section 'clients': '{{#clients}}' has no '{{/clients}}'
/// ```
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// A stable code for what went wrong.
    public struct Code: Hashable, Sendable {
        private enum Base: Hashable, Sendable {
            case syntax, unknownVariable, missingFolder, unreadable, unclosedSection, missingPartial, recursivePartial, tooDeep
            case reservedName, outsideFolder, otherKind, unescapedValue
        }
        private let base: Base
        public static var syntax: Self { Self(base: .syntax) }
        public static var unknownVariable: Self { Self(base: .unknownVariable) }
        public static var missingFolder: Self { Self(base: .missingFolder) }
        public static var unreadable: Self { Self(base: .unreadable) }
        /// A section without its closing tag; the error is at the open tag.
        public static var unclosedSection: Self { Self(base: .unclosedSection) }
        /// `{{> name}}` where no template has that name.
        public static var missingPartial: Self { Self(base: .missingPartial) }
        /// A partial that includes itself, directly or through other partials.
        public static var recursivePartial: Self { Self(base: .recursivePartial) }
        /// Sections and partials nested past ``TemplateSyntax/maximumDepth``.
        public static var tooDeep: Self { Self(base: .tooDeep) }
        /// A file in the templates folder named like a file or folder the build writes itself (`report.json`).
        public static var reservedName: Self { Self(base: .reservedName) }
        /// A symbolic link in the templates folder that leads outside it.
        public static var outsideFolder: Self { Self(base: .outsideFolder) }
        /// A file in the templates folder of a kind the tool does not read (not a template, stylesheet or script).
        public static var otherKind: Self { Self(base: .otherKind) }
        /// `{{{name}}}` or `{{& name}}` on a value from the books: only markup the tool draws may be unescaped.
        public static var unescapedValue: Self { Self(base: .unescapedValue) }
    }

    public var code: Code
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String {
        line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)"
    }

    static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "the closing tag does not match the open section"
        case .unfinishedName: "unfinished tag: a '{{' without its '}}'"
        case .expectedSectionEnd: "unclosed section: a '{{#name}}' without its '{{/name}}'"
        case .invalidSetDelimiter: "badly formed set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a transform cannot be applied to an inheritance section"
        case .illegalTokenInsideInheritSection: "illegal tag inside an inherited section"
        case .textInsideInheritSection: "text inside an inherited section of a partial"
        case .invalidConfigVariableSyntax: "badly formed '{{% ... }}' pragma"
        case .unrecognisedConfigVariable: "unknown '{{% ... }}' pragma"
        case nil: "\(error)"
        }
    }
}
