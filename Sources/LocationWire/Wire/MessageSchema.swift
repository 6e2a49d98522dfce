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
        self.fieldIndexByNameUTF8 = UTF8NameTable(
            sorted.indices.map { (sorted[$0].jsonName, Int32($0)) }
                + sorted.indices.filter { sorted[$0].name != sorted[$0].jsonName }.map { (sorted[$0].name, Int32($0)) })
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

    /// The field whose `.proto` name or JSON name is `name`, compared byte for byte (as protobuf's own JSON
    /// readers compare names). `hint` speeds up a series of lookups (``UTF8NameTable/value(of:hint:)``): start it at
    /// 0 for each object.
    @inline(__always)
    package func field(namedUTF8 name: UnsafeBufferPointer<UInt8>, hint: inout Int) -> FieldSchema? {
        fieldIndexByNameUTF8.value(of: name, hint: &hint).map { fields[Int($0)] }
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
/// A class, not a struct: JSON and the schema walkers look fields up once per value, and handing out one
/// reference is far cheaper than copying two strings and a type (three reference counts) each time.
public final class FieldSchema: Sendable, Hashable {
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
    /// `jsonName` as UTF-8, for printers that write bytes.
    package let jsonNameUTF8: [UInt8]
    public let type: FieldType
    public let label: Label

    public init(_ number: UInt32, _ name: String, _ type: FieldType, _ label: Label = .singular) {
        self.number = number
        self.name = name
        self.jsonName = FieldSchema.jsonName(for: name)
        self.jsonNameUTF8 = Array(jsonName.utf8)
        self.type = type
        self.label = label
    }

    /// Messages always have explicit presence, so a message field is never `.singular` in the sense of
    /// "zero is not sent": an empty sub-message that is set is still sent.
    public var hasPresence: Bool { label == .optional || (label == .singular && type.isMessage) }

    /// Packed encoding applies to repeated numeric scalars (proto3 packs them by default).
    public var isPacked: Bool { label == .repeated && type.isPackable }

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
public final class EnumSchema: Sendable, Hashable, CustomStringConvertible {
    public let fullName: String
    public let name: String
    /// The named values in declaration order (which is numeric order in `proto/`).
    public let values: [(name: String, number: Int32)]
    private let nameByNumber: [Int32: String]
    private let nameUTF8ByNumber: [Int32: [UInt8]]
    /// ``nameUTF8ByNumber`` for the numbers 0 to the largest below 64, indexed without hashing: the JSON printer
    /// looks a name up for every enum value it prints, and LocationWire's enums are small and dense.
    private let nameUTF8ByLowNumber: [[UInt8]?]
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
        self.nameUTF8ByNumber = nameUTF8ByNumber
        let lowCount = (nameUTF8ByNumber.keys.filter { $0 >= 0 && $0 < 64 }.max() ?? -1) + 1
        self.nameUTF8ByLowNumber = (0..<lowCount).map { nameUTF8ByNumber[$0] }
        self.numberByNameUTF8 = UTF8NameTable(values.map { (name: $0.0, value: $0.1) })
    }

    /// ``name(of:)`` as UTF-8, for printers that write bytes.
    package func nameUTF8(of number: Int32) -> [UInt8]? {
        if number >= 0, number < nameUTF8ByLowNumber.count { return nameUTF8ByLowNumber[Int(number)] }
        return nameUTF8ByNumber[number]
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
