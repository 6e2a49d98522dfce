/// A description of one message type: its full name and its fields, as declared in `proto/`.
///
/// The codec itself does not need it (each message decodes and encodes with hand-written code); the schema
/// serves everything that must name or walk fields generically: the proto3 JSON mapping, the annotated dump,
/// error paths, the conformance vector generator and the fuzzer. `Tests/peers/schema_check.py` (run by `.ci/run`)
/// compares every table with the descriptors `protoc` builds from `proto/`, so the two cannot drift apart.
public final class MessageSchema: Sendable, Hashable, CustomStringConvertible {
    /// The fully qualified name, e.g. `locationwire.v1.LocationBatch`.
    public let fullName: String
    /// The last component of the full name, e.g. `LocationBatch`.
    public let name: String
    /// The fields in field-number order (which is also declaration order in `proto/`).
    public let fields: [FieldSchema]
    /// Field index + 1 by field number, for numbers below its count (all of LocationWire's); 0 for none. JSON and
    /// the dump look a field up for every value, and a dictionary would hash each number.
    private let fieldIndexByLowNumber: [Int]
    private let fieldIndexByNumber: [UInt32: Int]
    private let fieldIndexByName: [String: Int]
    /// Every field's JSON name, then every `.proto` name that differs from it, with the field's index: the JSON
    /// reader matches member names in the input bytes with it.
    private let fieldIndexByNameUTF8: UTF8NameTable
    /// ``FieldSchema/info`` of each field, by index in ``fields``: what the walker and the JSON printer read for
    /// every value, with no reference to count.
    package let fieldInfos: [FieldInfo]
    /// The fields' numbers, by index in ``fields``: the keys the JSON reader writes. (Not in ``FieldInfo``, which
    /// the printer's walker copies for every value.)
    package let fieldNumbers: [UInt32]

    public init(_ fullName: String, fields: [FieldSchema]) {
        self.fullName = fullName
        self.name = String(fullName.split(separator: ".").last ?? Substring(fullName))
        let sorted = fields.sorted { $0.number < $1.number }
        self.fields = sorted
        var byNumber: [UInt32: Int] = [:]
        var byName: [String: Int] = [:]
        for (index, field) in sorted.enumerated() {
            byNumber[field.number] = index
            byName[field.name] = index
            byName[field.jsonName] = index
        }
        self.fieldIndexByNumber = byNumber
        self.fieldIndexByName = byName
        var byLowNumber = [Int](repeating: 0, count: 128)
        for (index, field) in sorted.enumerated() where field.number < 128 {
            byLowNumber[Int(field.number)] = index + 1
        }
        self.fieldIndexByLowNumber = byLowNumber
        self.fieldInfos = sorted.map(\.info)
        self.fieldNumbers = sorted.map(\.number)
        self.fieldIndexByNameUTF8 = UTF8NameTable(
            sorted.indices.map { (sorted[$0].jsonName, Int32($0)) }
                + sorted.indices.filter { sorted[$0].name != sorted[$0].jsonName }.map { (sorted[$0].name, Int32($0)) })
    }

    /// The index in ``fields`` of the field with this number, if the schema has one.
    @inline(__always)
    package func fieldIndex(number: UInt32) -> Int? {
        if number < 128 {
            let index = fieldIndexByLowNumber[Int(number)]
            return index == 0 ? nil : index - 1
        }
        return fieldIndexByNumber[number]
    }

    /// The field with this number, if the schema has one.
    @inline(__always)
    public func field(number: UInt32) -> FieldSchema? {
        if number < 128 {
            let index = fieldIndexByLowNumber[Int(number)]
            return index == 0 ? nil : fields[index - 1]
        }
        return fieldIndexByNumber[number].map { fields[$0] }
    }

    /// The field with this `.proto` name or JSON name.
    public func field(named name: String) -> FieldSchema? {
        fieldIndexByName[name].map { fields[$0] }
    }

    /// The index in ``fields`` (and ``fieldInfos``) of the field whose `.proto` name or JSON name is `name`,
    /// compared byte for byte (as protobuf's own JSON readers compare names). `hint` speeds up a series of lookups
    /// (``UTF8NameTable/value(of:hint:)``): start it at 0 for each object.
    @inline(__always)
    package func fieldIndex(namedUTF8 name: UnsafeBufferPointer<UInt8>, hint: inout Int) -> Int? {
        fieldIndexByNameUTF8.value(of: name, hint: &hint).map { Int($0) }
    }

    /// The path component that names the field of `key` in errors: its name when the schema knows the number,
    /// `#number` otherwise, nothing for key 0 (no tag read yet).
    func pathComponent(forKey key: FieldKey) -> FieldPath.Component? {
        guard key != 0 else { return nil }
        if let field = field(number: key >> 3) { return .field(field.name) }
        return .unknownField(key >> 3)
    }

    public var description: String { fullName }

    public static func == (lhs: MessageSchema, rhs: MessageSchema) -> Bool { lhs.fullName == rhs.fullName }
    public func hash(into hasher: inout Hasher) { hasher.combine(fullName) }
}

/// One field of a message.
///
/// A class, not a struct: the schema's users look fields up by number and name, and handing out one reference is
/// cheaper than copying two strings and a type (three reference counts) each time. What is read for every value
/// (the walker, the JSON printer) is its `info`, which counts none.
///
/// `@unchecked Sendable`: besides its constants it owns the memory of `FieldInfo.jsonName`, written once in `init`
/// and only read after.
public final class FieldSchema: @unchecked Sendable, Hashable {
    /// How often a field occurs, and whether an unset field is distinguishable from its zero value.
    public enum Label: Sendable, Hashable {
        /// proto3 implicit presence: the zero value is not sent and reads back as "not set".
        case singular
        /// Explicit presence (written `oneof optional_<name>` in `proto/`): set-to-zero differs from absent.
        case optional
        /// Any number of elements; numeric scalars are packed.
        case repeated
    }

    public let number: UInt32
    /// The `.proto` name (snake_case).
    public let name: String
    /// The proto3 JSON name (lowerCamelCase), derived from `name` as protoc derives it.
    public let jsonName: String
    public let type: FieldType
    public let label: Label
    /// What the walker and the JSON printer read for every value, as plain values (``FieldInfo``).
    package let info: FieldInfo
    /// The memory of ``FieldInfo/jsonName``: the field's own, freed with it.
    private let jsonNameStorage: UnsafeMutableBufferPointer<UInt8>

    public init(_ number: UInt32, _ name: String, _ type: FieldType, _ label: Label = .singular) {
        self.number = number
        self.name = name
        let jsonName = FieldSchema.jsonName(for: name)
        self.jsonName = jsonName
        self.type = type
        self.label = label
        let utf8 = Array(jsonName.utf8)
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(utf8.count, 1))
        _ = storage.initialize(from: utf8)
        jsonNameStorage = storage
        info = FieldInfo(type: type, label: label, jsonName: UnsafeBufferPointer(rebasing: storage[..<utf8.count]))
    }

    deinit {
        jsonNameStorage.deallocate()
    }

    /// Messages always have explicit presence, so a message field is never `.singular` in the sense of
    /// "zero is not sent": an empty sub-message that is set is still sent.
    public var hasPresence: Bool { label == .optional || (label == .singular && type.isMessage) }

    /// Packed encoding applies to repeated numeric scalars (proto3 packs them by default).
    public var isPacked: Bool { info.isPacked }

    /// The key an element of this field carries in canonical encoding.
    public var canonicalKey: FieldKey {
        FieldKey.make(number, isPacked ? .lengthDelimited : type.wireType)
    }

    public static func == (lhs: FieldSchema, rhs: FieldSchema) -> Bool {
        lhs.number == rhs.number && lhs.name == rhs.name && lhs.type == rhs.type && lhs.label == rhs.label
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(label)
    }

    /// protoc's rule: drop each underscore and upper-case the letter after it.
    static func jsonName(for name: String) -> String {
        var result = ""
        var capitalizeNext = false
        for character in name {
            if character == "_" {
                capitalizeNext = true
            } else if capitalizeNext {
                result += character.uppercased()
                capitalizeNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A description of one enum type: its full name and its named values.
///
/// `@unchecked Sendable`: besides its constants it owns the memory of `nameBytes(of:)`, written once in `init`
/// and only read after.
public final class EnumSchema: @unchecked Sendable, Hashable, CustomStringConvertible {
    public let fullName: String
    public let name: String
    /// The named values in declaration order (which is numeric order in `proto/`).
    public let values: [(name: String, number: Int32)]
    private let nameByNumber: [Int32: String]
    /// The names as UTF-8, in one block of memory the schema owns (``nameBytes(of:)``): indexed without hashing for
    /// the numbers 0 to the largest below 64 (an empty buffer without a base address for a number without a name;
    /// the JSON printer looks a name up for every enum value it prints, and LocationWire's enums are small and
    /// dense), by number for the others.
    private let nameBytesByLowNumber: [UnsafeBufferPointer<UInt8>]
    private let nameBytesOfOthers: [Int32: UnsafeBufferPointer<UInt8>]
    private let nameStorage: UnsafeMutableBufferPointer<UInt8>
    private let numberByName: [String: Int32]
    /// ``values`` for ``number(namedUTF8:)``.
    private let numberByNameUTF8: UTF8NameTable

    public init(_ fullName: String, _ values: [(String, Int32)]) {
        self.fullName = fullName
        self.name = String(fullName.split(separator: ".").last ?? Substring(fullName))
        self.values = values.map { (name: $0.0, number: $0.1) }
        self.nameByNumber = Dictionary(values.map { ($0.1, $0.0) }, uniquingKeysWith: { first, _ in first })
        self.numberByName = Dictionary(values.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        let nameUTF8ByNumber = nameByNumber.mapValues { Array($0.utf8) }
        let lowCount = (nameUTF8ByNumber.keys.filter { $0 >= 0 && $0 < 64 }.max() ?? -1) + 1
        self.numberByNameUTF8 = UTF8NameTable(values.map { (name: $0.0, value: $0.1) })
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(
            capacity: max(nameUTF8ByNumber.values.reduce(0) { $0 + $1.count }, 1))
        var offset = 0
        var byNumber: [Int32: UnsafeBufferPointer<UInt8>] = [:]
        for (number, name) in nameUTF8ByNumber {
            _ = UnsafeMutableBufferPointer(rebasing: storage[offset..<(offset + name.count)]).initialize(from: name)
            byNumber[number] = UnsafeBufferPointer(rebasing: storage[offset..<(offset + name.count)])
            offset += name.count
        }
        nameStorage = storage
        nameBytesByLowNumber = (0..<lowCount).map { byNumber[$0] ?? UnsafeBufferPointer(start: nil, count: 0) }
        nameBytesOfOthers = byNumber.filter { !(0..<lowCount).contains($0.key) }
    }

    deinit {
        nameStorage.deallocate()
    }

    /// ``name(of:)`` as UTF-8, in memory the schema owns, for printers that write bytes: no array to count.
    package func nameBytes(of number: Int32) -> UnsafeBufferPointer<UInt8>? {
        if number >= 0, number < nameBytesByLowNumber.count {
            let name = nameBytesByLowNumber[Int(number)]
            return name.baseAddress == nil ? nil : name
        }
        return nameBytesOfOthers[number]
    }

    /// The name of a value, nil for a number the schema does not name (enums are open: such values are kept).
    public func name(of number: Int32) -> String? { nameByNumber[number] }

    /// The number of a named value.
    public func number(named name: String) -> Int32? { numberByName[name] }

    /// The number of the value named `name`, compared byte for byte (as protobuf's own JSON readers compare names).
    package func number(namedUTF8 name: UnsafeBufferPointer<UInt8>) -> Int32? {
        var hint = 0
        return numberByNameUTF8.value(of: name, hint: &hint)
    }

    public var description: String { fullName }

    public static func == (lhs: EnumSchema, rhs: EnumSchema) -> Bool { lhs.fullName == rhs.fullName }
    public func hash(into hasher: inout Hasher) { hasher.combine(fullName) }
}

/// What the schema walker, the JSON printer and the JSON reader read about a field for every value, as plain
/// values: reading them counts no reference. (Reading the ``FieldSchema`` itself, its ``FieldType`` and its name's
/// array counted three references a value: in time, nearly half of printing a batch's JSON went to those atomic
/// counts.)
package struct FieldInfo: @unchecked Sendable {
    /// The case of ``FieldType``, without its schema.
    package enum Kind: UInt8 {
        case int32, int64, uint32, uint64, sint32, sint64, fixed32, fixed64, sfixed32, sfixed64
        case bool, float, double, string, bytes, enumeration, message
    }

    package let kind: Kind
    package let label: FieldSchema.Label
    /// The wire type of one value (``FieldType/wireType``), and whether a length-delimited occurrence is a packed
    /// run (``FieldSchema/isPacked``).
    package let wireType: WireType
    package let isPacked: Bool
    /// The JSON name's bytes, in memory the field schema owns.
    package let jsonName: UnsafeBufferPointer<UInt8>
    /// The message's or enum's schema, unretained: the field schema holds it, and the caller holds the schema that
    /// holds the field.
    package let nested: UnsafeRawPointer?

    init(type: FieldType, label: FieldSchema.Label, jsonName: UnsafeBufferPointer<UInt8>) {
        switch type {
        case .int32: kind = .int32
        case .int64: kind = .int64
        case .uint32: kind = .uint32
        case .uint64: kind = .uint64
        case .sint32: kind = .sint32
        case .sint64: kind = .sint64
        case .fixed32: kind = .fixed32
        case .fixed64: kind = .fixed64
        case .sfixed32: kind = .sfixed32
        case .sfixed64: kind = .sfixed64
        case .bool: kind = .bool
        case .float: kind = .float
        case .double: kind = .double
        case .string: kind = .string
        case .bytes: kind = .bytes
        case .enumeration: kind = .enumeration
        case .message: kind = .message
        }
        switch type {
        case .enumeration(let schema): nested = UnsafeRawPointer(Unmanaged.passUnretained(schema).toOpaque())
        case .message(let schema): nested = UnsafeRawPointer(Unmanaged.passUnretained(schema).toOpaque())
        default: nested = nil
        }
        self.label = label
        wireType = type.wireType
        isPacked = label == .repeated && type.isPackable
        self.jsonName = jsonName
    }

    /// The enum's schema of an enumeration field, borrowed for `body`.
    @inline(__always)
    package func withEnumSchema<Result>(_ body: (EnumSchema) -> Result) -> Result {
        Unmanaged<EnumSchema>.fromOpaque(nested!)._withUnsafeGuaranteedRef(body)
    }

    /// The message's schema of a message field, borrowed for `body`.
    @inline(__always)
    package func withMessageSchema<Result>(_ body: (MessageSchema) -> Result) -> Result {
        Unmanaged<MessageSchema>.fromOpaque(nested!)._withUnsafeGuaranteedRef(body)
    }
}
