/// The syntax tree of one template, parsed as swift-mustache 2.1.1 parses it (`Template+Parser.swift`), with the
/// line and column of every tag.
///
/// It follows swift-mustache's rules for standalone lines (a section, comment or delimiter tag alone on its line
/// takes the whole line), so that a node's text is exactly the text swift-mustache renders for it. It parses
/// iteratively and refuses sections nested deeper than ``maximumDepth`` before swift-mustache's recursive parser
/// sees the text, so no template can exhaust the stack. Template inheritance (`{{< name}}`, `{{$ name}}`) and
/// dynamic partials (`{{>* name}}`) are refused: a template's partials must be known to be checked.
struct TemplateSyntax {
    /// Where a tag's name starts: 1-based line and column (in characters).
    struct Location: Equatable {
        var line: Int
        var column: Int
    }

    struct Tag {
        /// The name as written, transforms included (`uppercase(name)`).
        var name: String
        var location: Location
    }

    /// A section's extent in the template's characters, for the compiled row path.
    struct Extent {
        /// The start of the open tag's line, and the character after that line when the open tag is standalone.
        var openLineStart: Int, bodyStart: Int
        /// The start of the close tag's line when the close tag is standalone (else where its `{{` starts), the
        /// character after the close tag's `}}`, and the character after its line when standalone (else the same).
        var bodyEnd: Int, closeTagEnd: Int, closeEnd: Int
        var openStandalone: Bool, closeStandalone: Bool
    }

    indirect enum Node {
        case text(String)
        case variable(Tag, escaped: Bool)
        case section(Tag, inverted: Bool, body: [Node], extent: Extent)
        case partial(Tag)
        /// Comments, set-delimiter tags and pragmas: they render nothing.
        case silent(Tag)
    }

    /// The deepest nesting of sections (counted across partials) a template set may have.
    static let maximumDepth = 100

    let characters: [Character]
    let nodes: [Node]
    /// Whether the template changes its delimiters (`{{=<% %>=}}`).
    let setsDelimiters: Bool

    /// Parses `text`.
    /// - Throws: ``TemplateSyntax/Failure`` at the offending tag.
    init(_ text: String) throws(Failure) {
        var parser = Parser(Array(text))
        nodes = try parser.parse()
        characters = parser.characters
        setsDelimiters = parser.setsDelimiters
    }

    /// Why a template does not parse, and where.
    struct Failure: Error {
        enum Kind { case syntax, unclosedSection, tooDeep, unsupported }
        var kind: Kind
        var location: Location
        var message: String
    }

    /// The 1-based line and column of `offset` in `characters`.
    static func location(of offset: Int, in characters: [Character]) -> Location {
        var line = 1, column = 1
        for character in characters[..<min(offset, characters.count)] {
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return Location(line: line, column: column)
    }
}

extension TemplateSyntax {
    /// A port of swift-mustache's parser loop, with an explicit stack of open sections instead of recursion.
    struct Parser {
        let characters: [Character]
        var position = 0
        var setsDelimiters = false
        /// Line starts, for locations.
        private let lineStarts: [Int]

        init(_ characters: [Character]) {
            self.characters = characters
            var starts = [0]
            for (index, character) in characters.enumerated() where character == "\n" || character == "\r\n" {
                starts.append(index + 1)
            }
            lineStarts = starts
        }

        struct Frame {
            var name: String?
            var tag: Tag?
            var inverted = false
            var openLineStart = 0, bodyStart = 0
            var openStandalone = false
            var start: [Character] = ["{", "{"]
            var end: [Character] = ["}", "}"]
            var newLine = true
            var whiteSpaceBefore: [Character] = []
            var nodes: [Node] = []
        }

        func location(_ offset: Int) -> Location {
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return Location(line: low + 1, column: offset - lineStarts[low] + 1)
        }

        func failure(_ kind: Failure.Kind, at offset: Int, _ message: String) -> Failure {
            Failure(kind: kind, location: location(offset), message: message)
        }

        var current: Character { position < characters.count ? characters[position] : "\0" }

        func matches(_ pattern: [Character], at offset: Int) -> Bool {
            guard offset + pattern.count <= characters.count else { return false }
            for (index, character) in pattern.enumerated() where characters[offset + index] != character { return false }
            return true
        }

        mutating func skip(while condition: (Character) -> Bool) {
            while position < characters.count, condition(characters[position]) { position += 1 }
        }

        /// After a tag: when only blanks and a line break (or the end) follow, consumes them.
        mutating func lineFinished() -> Bool {
            if position >= characters.count { return true }
            var probe = position
            while probe < characters.count, characters[probe] == " " || characters[probe] == "\t" { probe += 1 }
            if probe < characters.count, characters[probe].isNewline {
                position = probe + 1
                return true
            }
            return false
        }

        mutating func parse() throws(Failure) -> [Node] {
            var stack = [Frame()]
            func isNewlineStop(_ character: Character) -> Bool { character == "\n" || character == "\r\n" }
            while position < characters.count {
                var frame = stack.removeLast()
                if frame.newLine {
                    let start = position
                    skip { $0 == " " || $0 == "\t" }
                    frame.whiteSpaceBefore = Array(characters[start..<position])
                }
                // Text up to a tag or a line break.
                var text: [Character] = []
                var tagStart = -1
                while position < characters.count {
                    let character = characters[position]
                    if isNewlineStop(character) { break }
                    if character == frame.start[0] {
                        if matches(frame.start, at: position) {
                            tagStart = position
                            position += frame.start.count
                            break
                        }
                    }
                    text.append(character)
                    position += 1
                }
                if tagStart < 0, position < characters.count {
                    frame.nodes.append(.text(String(frame.whiteSpaceBefore + text + [characters[position]])))
                    frame.newLine = true
                    position += 1
                    stack.append(frame)
                    continue
                }
                if !text.isEmpty {
                    frame.nodes.append(.text(String(frame.whiteSpaceBefore + text)))
                    frame.whiteSpaceBefore = []
                    frame.newLine = false
                }
                if position >= characters.count, tagStart < 0 {
                    stack.append(frame)
                    break
                }
                func flushWhiteSpace() {
                    if !frame.whiteSpaceBefore.isEmpty {
                        frame.nodes.append(.text(String(frame.whiteSpaceBefore)))
                        frame.whiteSpaceBefore = []
                    }
                }
                let lineStart = frame.newLine ? tagStart - frame.whiteSpaceBefore.count : tagStart
                var setNewLine = false
                switch current {
                case "#", "^":
                    let inverted = current == "^"
                    position += 1
                    let tag = try name(frame)
                    if frame.newLine && lineFinished() {
                        setNewLine = true
                    } else {
                        flushWhiteSpace()
                    }
                    guard stack.count < TemplateSyntax.maximumDepth else {
                        throw failure(
                            .tooDeep, at: tagStart,
                            "sections nested more than \(TemplateSyntax.maximumDepth) deep (see docs/templates.md)")
                    }
                    var inner = frame
                    inner.name = tag.name
                    inner.tag = tag
                    inner.inverted = inverted
                    inner.openLineStart = setNewLine ? lineStart : tagStart
                    inner.bodyStart = position
                    inner.openStandalone = setNewLine
                    inner.nodes = []
                    inner.whiteSpaceBefore = []
                    if !setNewLine { inner.newLine = false }
                    frame.newLine = setNewLine
                    stack.append(frame)
                    stack.append(inner)
                    continue
                case "/":
                    position += 1
                    let nameStart = position
                    let tag = try name(frame)
                    guard let open = frame.name, tag.name == open, let openTag = frame.tag else {
                        if let open = frame.name, let openTag = frame.tag {
                            throw failure(
                                .syntax, at: nameStart,
                                "'{{/\(tag.name)}}' closes section '\(open)', opened at line \(openTag.location.line), column \(openTag.location.column)"
                            )
                        }
                        throw failure(.syntax, at: nameStart, "'{{/\(tag.name)}}' closes a section that is not open")
                    }
                    let closeTagEnd = position
                    let closeStandalone = frame.newLine && lineFinished()
                    if !closeStandalone { flushWhiteSpace() }
                    let extent = Extent(
                        openLineStart: frame.openLineStart, bodyStart: frame.bodyStart,
                        bodyEnd: closeStandalone ? lineStart : tagStart, closeTagEnd: closeTagEnd, closeEnd: position,
                        openStandalone: frame.openStandalone, closeStandalone: closeStandalone)
                    var outer = stack.removeLast()
                    outer.nodes.append(.section(openTag, inverted: frame.inverted, body: frame.nodes, extent: extent))
                    stack.append(outer)
                    continue
                case "!":
                    position += 1
                    let location = location(position)
                    guard let close = find(frame.end, from: position) else {
                        throw failure(.syntax, at: tagStart, "unfinished comment: a '{{!' without its '}}'")
                    }
                    position = close + frame.end.count
                    frame.nodes.append(.silent(Tag(name: "!", location: location)))
                    setNewLine = frame.newLine && lineFinished()
                case "{", "&":
                    flushWhiteSpace()
                    let triple = current == "{"
                    position += 1
                    let tag = try name(frame)
                    if triple {
                        guard current == "}" else { throw failure(.syntax, at: position, "unfinished tag: '{{{' without its '}}}'") }
                        position += 1
                    }
                    frame.nodes.append(.variable(tag, escaped: false))
                case ">":
                    position += 1
                    skip { $0.isWhitespace }
                    if current == "*" { throw failure(.unsupported, at: position, "dynamic partials ('{{>*name}}') are not supported") }
                    let tag = try partialName(frame)
                    flushWhiteSpace()
                    setNewLine = frame.newLine && lineFinished()
                    frame.nodes.append(.partial(tag))
                case "<", "$":
                    throw failure(.unsupported, at: tagStart, "template inheritance ('{{<' and '{{$') is not supported")
                case "=":
                    position += 1
                    skip { $0.isWhitespace }
                    let first = position
                    skip { !$0.isWhitespace }
                    let open = Array(characters[first..<position])
                    skip { $0.isWhitespace }
                    let second = position
                    skip { $0 != "=" && !$0.isWhitespace }
                    let close = Array(characters[second..<position])
                    skip { $0.isWhitespace }
                    guard current == "=", matches(frame.end, at: position + 1), !open.isEmpty, !close.isEmpty else {
                        throw failure(.syntax, at: tagStart, "badly formed set-delimiter tag")
                    }
                    position += 1 + frame.end.count
                    frame.start = open
                    frame.end = close
                    setsDelimiters = true
                    frame.nodes.append(.silent(Tag(name: "=", location: location(tagStart))))
                    setNewLine = frame.newLine && lineFinished()
                case "%":
                    position += 1
                    guard let close = find(frame.end, from: position) else {
                        throw failure(.syntax, at: tagStart, "badly formed '{{% ... }}' pragma")
                    }
                    let pragma = String(characters[position..<close]).filter { !$0.isWhitespace }
                    guard pragma.hasPrefix("CONTENT_TYPE:") else {
                        throw failure(.syntax, at: tagStart, "unknown '{{% ... }}' pragma")
                    }
                    position = close + frame.end.count
                    frame.nodes.append(.silent(Tag(name: "%", location: location(tagStart))))
                    setNewLine = frame.newLine && lineFinished()
                default:
                    flushWhiteSpace()
                    frame.nodes.append(.variable(try name(frame), escaped: true))
                }
                frame.newLine = setNewLine
                stack.append(frame)
            }
            let last = stack.removeLast()
            if let open = last.name, let tag = last.tag {
                throw Failure(
                    kind: .unclosedSection, location: tag.location,
                    message: "unclosed section '\(open)': '{{\(last.inverted ? "^" : "#")\(open)}}' has no '{{/\(open)}}'")
            }
            return last.nodes
        }

        func find(_ pattern: [Character], from offset: Int) -> Int? {
            var index = offset
            while index + pattern.count <= characters.count {
                if matches(pattern, at: index) { return index }
                index += 1
            }
            return nil
        }

        static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")

        /// A tag's name and its closing delimiter.
        mutating func name(_ frame: Frame, characters allowed: Set<Character> = nameCharacters) throws(Failure) -> Tag {
            skip { $0.isWhitespace }
            let start = position
            skip { allowed.contains($0) }
            let name = String(characters[start..<position])
            skip { $0.isWhitespace }
            guard matches(frame.end, at: position) else {
                throw failure(.syntax, at: start, "unfinished tag: a name must be followed by '\(String(frame.end))'")
            }
            position += frame.end.count
            return Tag(name: name, location: location(start))
        }

        mutating func partialName(_ frame: Frame) throws(Failure) -> Tag {
            var allowed = Self.nameCharacters
            allowed.insert("/")
            return try name(frame, characters: allowed)
        }
    }
}
