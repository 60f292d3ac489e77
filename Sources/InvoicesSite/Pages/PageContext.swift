import Foundation

/// What a page kind hands one of its templates: a Sendable value whose fields are the names the template may use.
///
/// The template's scope (``scope``), which `invoices check` and every build check the template against, is derived
/// from the type, never written beside it: ``ContextScope`` runs the type's `Decodable` initializer with a decoder
/// that records every key it is asked for. The compiler synthesizes that initializer from the same `CodingKeys` as
/// the `Encodable` conformance the renderer uses (``ContextEncoder``), so what a page is rendered with and what its
/// template is checked against are one list. The derivation needs no sample value: an optional field is asked for
/// (`decodeIfPresent`) whether or not a page sets it, and a list is decoded as one element, so an empty list or an
/// absent field still gives its names.
///
/// Adding a field to the type makes the template accept it; a name the type lacks is refused, with the template's
/// file and line. An optional field that is nil is absent from the page (a section over it is skipped and its name
/// is looked up in the enclosing sections, as for a name the page does not set).
protocol PageContext: Codable, Sendable {}

extension PageContext {
    /// The names its template may use: every page's (``TemplateVariables/common``, set by the renderer) and its
    /// fields, each list or object with its own fields.
    static var scope: TemplateScope { TemplateScope(values: TemplateVariables.common).adding(ContextScope.of(Self.self).names) }

    /// Its long lists of the compiled row path (``Rows``): the path of names to each from the page's context, and its
    /// row's columns.
    static var fastLists: [(path: [String], columns: [String])] { ContextScope.of(Self.self).lists }

    /// What swift-mustache renders: the fields as a dictionary, lists as arrays, ``Rows`` as ``RowList``s whose rows
    /// go in after cmark through `registry`, ``Markup`` as an HTML token.
    func mustacheValue(registry: RowListRegistry? = nil) -> [String: Any] {
        let encoder = ContextEncoder(registry: registry)
        try? encode(to: encoder)
        return encoder.node.value as? [String: Any] ?? [:]
    }
}

/// A value of a context that renders as something else than its encoding (``Rows``, ``Markup``), with its scope.
protocol ContextValue: Codable, Sendable {
    /// The scope a section over it opens; nil for a plain value.
    static var valueScope: TemplateScope? { get }
    /// Its columns when it is a long list of the compiled row path.
    static var rowColumns: [String]? { get }
    /// A value of the type, for the scope's derivation.
    static var placeholder: Self { get }
    /// What swift-mustache gets.
    func mustacheValue(registry: RowListRegistry?) -> Any
}

/// Markup the tool draws itself (a chart, a QR code): an HTML token that passes cmark unchanged
/// (``MarkdownValues/html(_:)``), written unescaped by the template (``TemplateChecker/unescapedNames(in:)``).
struct Markup: ContextValue {
    var html: String
    init(_ html: String) { self.html = html }
    init(from decoder: any Decoder) throws { html = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(html)
    }
    static var valueScope: TemplateScope? { nil }
    static var rowColumns: [String]? { nil }
    static var placeholder: Markup { Markup("") }
    func mustacheValue(registry: RowListRegistry?) -> Any { MarkdownValues.html(html) }
}

/// The columns of a long list's rows (``Rows``).
protocol RowColumns: Sendable {
    static var columns: [String] { get }
}

/// A long list given cell by cell: rendered by its compiled row template after cmark when its section compiles to
/// one, otherwise iterated by swift-mustache (``RowList``). Its columns are `Row`'s; they are its scope, and the
/// list is one of its kind's fast lists (``PageContext/fastLists``).
struct Rows<Row: RowColumns>: ContextValue {
    let count: Int
    /// The text of cell `column` (an index into `Row.columns`) of row `row`.
    let cell: @Sendable (_ row: Int, _ column: Int) -> String

    init(count: Int, cell: @escaping @Sendable (_ row: Int, _ column: Int) -> String) {
        self.count = count
        self.cell = cell
    }

    init(from decoder: any Decoder) throws { self = Self.placeholder }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for row in 0..<count {
            try container.encode(Dictionary(uniqueKeysWithValues: Row.columns.indices.map { (Row.columns[$0], cell(row, $0)) }))
        }
    }
    static var valueScope: TemplateScope? { TemplateScope(values: Row.columns) }
    static var rowColumns: [String]? { Row.columns }
    static var placeholder: Self { Self(count: 0) { _, _ in "" } }
    func mustacheValue(registry: RowListRegistry?) -> Any { RowList(columns: Row.columns, count: count, registry: registry, cell: cell) }
}

/// A link: its text and its address.
struct PageLink: Codable, Sendable {
    var label: String
    var href: String
}

// MARK: - The scope of a type

/// The scope a context type gives its template, derived through its `Decodable` conformance (see ``PageContext``).
enum ContextScope {
    struct Derived {
        var names: [String: TemplateScope?]
        var lists: [(path: [String], columns: [String])]
    }

    /// Derived once per type: the derivation is pure.
    private static let cache = Cache()

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var derived: [ObjectIdentifier: Derived] = [:]
    }

    static func of<T: Decodable>(_ type: T.Type) -> Derived {
        let key = ObjectIdentifier(type)
        if let found = cache.lock.withLock({ cache.derived[key] }) { return found }
        let recorder = Recorder(path: [])
        _ = try? T(from: ScopeDecoder(recorder: recorder))
        let derived = Derived(names: recorder.names, lists: recorder.lists)
        cache.lock.withLock { cache.derived[key] = derived }
        return derived
    }

    /// The names one value's decoding asked for, and the long lists found under it.
    final class Recorder {
        let path: [String]
        var names: [String: TemplateScope?] = [:]
        var keyed = false
        var lists: [(path: [String], columns: [String])] = []
        init(path: [String]) { self.path = path }
    }

    /// Types nested deeper than this are refused (a type that holds itself would never finish).
    static let maximumDepth = 32

    struct DerivationError: Error {}

    /// A placeholder of `type`, recording the names its decoding asks for under `key` of `recorder`.
    static func value<T: Decodable>(_ type: T.Type, key: String, in recorder: Recorder) throws -> T {
        if let special = type as? any ContextValue.Type {
            recorder.names[key] = .some(special.valueScope)
            if let columns = special.rowColumns { recorder.lists.append((recorder.path + [key], columns)) }
            return try placeholder(special) as T
        }
        guard recorder.path.count < maximumDepth else { throw DerivationError() }
        let child = Recorder(path: recorder.path + [key])
        let value = try T(from: ScopeDecoder(recorder: child))
        recorder.names[key] = .some(child.keyed ? TemplateScope(child.names) : nil)
        recorder.lists += child.lists
        return value
    }

    private static func placeholder<T>(_ type: any ContextValue.Type) throws -> T {
        guard let value = type.placeholder as? T else { throw DerivationError() }
        return value
    }

    struct ScopeDecoder: Decoder {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            recorder.keyed = true
            return KeyedDecodingContainer(Keyed<Key>(recorder: recorder))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(recorder: recorder) }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single() }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func plain<T>(_ key: Key, _ value: T) -> T {
            recorder.names[key.stringValue] = .some(nil)
            return value
        }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { plain(key, false) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { plain(key, "") }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { plain(key, 0) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { plain(key, 0) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { plain(key, 0) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { plain(key, 0) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { plain(key, 0) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { plain(key, 0) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { plain(key, 0) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { plain(key, 0) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { plain(key, 0) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { plain(key, 0) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { plain(key, 0) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { plain(key, 0) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try ContextScope.value(type, key: key.stringValue, in: recorder)
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DerivationError()
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw DerivationError() }
        func superDecoder() throws -> any Decoder { ScopeDecoder(recorder: recorder) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw DerivationError() }
    }

    /// A list, decoded as one element whose names are the list's scope.
    struct Unkeyed: UnkeyedDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= 1 }
        init(recorder: Recorder) { self.recorder = recorder }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            if let special = type as? any ContextValue.Type { return try ContextScope.placeholder(special) }
            guard recorder.path.count < maximumDepth else { throw DerivationError() }
            return try T(from: ScopeDecoder(recorder: recorder))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DerivationError()
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw DerivationError() }
        mutating func superDecoder() throws -> any Decoder { throw DerivationError() }
    }

    /// A plain value: the placeholder of its type.
    struct Single: SingleValueDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { throw DerivationError() }
    }
}

// MARK: - What swift-mustache renders

/// Encodes a context into the values swift-mustache renders: objects as `[String: Any]`, lists as arrays, strings,
/// numbers and booleans as they are, a ``ContextValue`` as its ``ContextValue/mustacheValue(registry:)``. An
/// optional that is nil is left out (`encodeIfPresent`), so the page does not have the name.
final class ContextEncoder: Encoder {
    /// What one value encoded to.
    final class Node {
        var dictionary: [String: Any] = [:]
        var array: [Any] = []
        var single: Any?
        var isKeyed = false
        var isList = false
        var value: Any { isKeyed ? dictionary : isList ? array : single as Any }
    }

    let node = Node()
    let registry: RowListRegistry?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(registry: RowListRegistry?) { self.registry = registry }

    /// What swift-mustache gets for `value`, its long lists' rows going in through `registry`.
    static func value(_ value: some Encodable, registry: RowListRegistry? = nil) -> Any {
        (try? ContextEncoder(registry: registry).box(value)) ?? [String: Any]()
    }

    /// What swift-mustache gets for `value`.
    func box<T: Encodable>(_ value: T) throws -> Any {
        switch value {
        case let value as String: return value
        case let value as Bool: return value
        case let value as Int: return value
        case let value as any ContextValue: return value.mustacheValue(registry: registry)
        default:
            let child = ContextEncoder(registry: registry)
            try value.encode(to: child)
            return child.node.value
        }
    }

    /// Several containers of one encoder write into the same object: a list page's common fields, its list's and
    /// its rows' are one context (``ListPageContext``).
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.isKeyed = true
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.isList = true
        return Unkeyed(encoder: self)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ContextEncoder
        var codingPath: [any CodingKey] { [] }
        func set(_ value: Any, _ key: Key) { encoder.node.dictionary[key.stringValue] = value }
        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try encoder.box(value), key) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            // Not used by synthesized conformances; its fields go into the object itself.
            KeyedEncodingContainer(ContextEncoder.Keyed<NestedKey>(encoder: encoder))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Unkeyed(encoder: ContextEncoder(registry: encoder.registry)) }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: ContextEncoder
        var codingPath: [any CodingKey] { [] }
        var count: Int { encoder.node.array.count }
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.node.array.append(try encoder.box(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(ContextEncoder.Keyed<NestedKey>(encoder: ContextEncoder(registry: encoder.registry)))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: ContextEncoder(registry: encoder.registry)) }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: ContextEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.node.single = try encoder.box(value) }
    }
}

// MARK: - Pages of a long list

/// What every page of a long list has besides its list's fields and rows (``SiteView/forEachPage(of:_:)``): its
/// number, the list's length and links to its neighbours.
struct ListPageFields: Codable, Sendable {
    var page: Int
    var rowCount: Int
    var previous: PageLink?
    var next: PageLink?
}

/// The context of one page of a long list: the fields every such page has (``ListPageFields``), the list's own
/// (`Fields`, the same on each of its pages) and the page's rows (`Page`), all at the top of one context.
struct ListPageContext<Fields: Codable & Sendable, Page: Codable & Sendable>: PageContext {
    var list: ListPageFields
    var fields: Fields
    var rows: Page

    init(list: ListPageFields, fields: Fields, rows: Page) {
        self.list = list
        self.fields = fields
        self.rows = rows
    }

    init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        list = try ListPageFields(from: decoder)
        rows = try Page(from: decoder)
    }

    /// The rows last: a name in both is the rows'.
    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        try list.encode(to: encoder)
        try rows.encode(to: encoder)
    }
}

/// A context without fields of its own (a list whose pages have only their rows and ``ListPageFields``).
struct NoFields: Codable, Sendable {}

/// What the page that holds a paged list's totals shows of it (``SiteView/pagesLinks(of:from:)``): `rowCount` and
/// `pages`, the links to its pages.
struct PageLinks: Codable, Sendable {
    var rowCount: Int
    var pages: [PageLink]
}
