/// The fields of one message type, as `proto/` declares them: one enum case per field and one
/// ``FieldDeclaration`` row per case. This list is the single place a field's number, name, type and presence are
/// written; the message's ``MessageSchema`` (and with it the JSON names, the dump, error paths and the vector
/// generator), the keys its hand-written decoder and encoder switch on, and the encoded-size bounds all derive
/// from it.
///
/// Because the rows are a `switch` over the cases, the compiler refuses a case without a row, and a key such as
/// `LocationFix.Field.latitudeE7.key` folds to a constant in optimized builds, so a decoder can switch on it as
/// cheaply as on a literal. Two things keep it folding: `declaration` is marked `@inline(__always)`, and a row
/// names enum and message types by metatype (`.message(Circle.self)`). Without the first, every key is a call;
/// with a closure or a `LocationWireEnum` existential in a row, every key fetches a witness table or retains a
/// context. Each added a fifth or more to decoding when tried; `Benchmarks/gate.sh` shows such costs.
public protocol MessageFields: CaseIterable, Sendable {
    /// This field's row: number, `.proto` name, type and presence.
    var declaration: FieldDeclaration { get }
}

extension MessageFields {
    /// The key the field's elements carry in canonical encoding: packed (length-delimited) for a repeated numeric
    /// scalar, the type's own wire type otherwise.
    ///
    /// Transparent rather than `@inline(__always)`: with the latter the optimizer sometimes kept the specialized
    /// getter as a call into a lookup table (18 calls a fix in the fix encoder, and a varint loop on each result);
    /// mandatory inlining makes every key a constant where the field is.
    @_transparent
    public var key: FieldKey { declaration.key }

    /// The key of one unpacked element of a repeated numeric scalar (decoders accept both forms, as protobuf
    /// requires). The same as ``key`` for every other field.
    @inline(__always)
    public var unpackedKey: FieldKey { FieldKey.make(declaration.number, declaration.type.wireType) }

    /// The field number.
    @inline(__always)
    public var number: UInt32 { declaration.number }

    /// The largest encoding of all the fields together when each is a scalar that occurs once: a bound for
    /// `BoundedWireWriter`. Nil when any field is a string, bytes, message or repeated field, which have no
    /// fixed bound.
    public static var maxScalarFieldsEncodedSize: Int? {
        var total = 0
        for field in allCases {
            guard let size = field.declaration.maxEncodedSize else { return nil }
            total += size
        }
        return total
    }
}

/// One field of a message, as `proto/` declares it (see ``MessageFields``).
public struct FieldDeclaration: Sendable {
    /// The field number, 1 to 2^29 - 1.
    public let number: UInt32
    /// The `.proto` name (snake_case). A `StaticString`, so that a declaration built in a hot path costs nothing.
    public let name: StaticString
    public let type: DeclaredFieldType
    public let label: FieldSchema.Label

    @inline(__always)
    public init(
        _ number: UInt32, _ name: StaticString, _ type: DeclaredFieldType, _ label: FieldSchema.Label = .singular
    ) {
        self.number = number
        self.name = name
        self.type = type
        self.label = label
    }

    /// See ``MessageFields/key``.
    @inline(__always)
    public var key: FieldKey {
        FieldKey.make(number, label == .repeated && type.isPackable ? .lengthDelimited : type.wireType)
    }

    /// The most bytes one occurrence of a scalar field takes, key included: nil for strings, bytes, messages and
    /// repeated fields, whose size depends on the value.
    public var maxEncodedSize: Int? {
        guard label != .repeated else { return nil }
        let valueSize: Int
        switch type {
        // int32 and enum values are sign-extended to 64 bits when negative, as protobuf requires.
        case .int32, .int64, .uint64, .sint64, .enumeration: valueSize = 10
        case .uint32, .sint32: valueSize = 5
        case .bool: valueSize = 1
        case .fixed32, .sfixed32, .float: valueSize = 4
        case .fixed64, .sfixed64, .double: valueSize = 8
        case .string, .bytes, .message: return nil
        }
        return Varint.encodedSize(of: UInt64(FieldKey.make(number, type.wireType))) + valueSize
    }

    /// The row of this field in a ``MessageSchema``.
    public var schema: FieldSchema {
        FieldSchema(number, "\(name)", type.map(enumeration: { $0.schema }, message: { $0.schema }), label)
    }
}

/// The type of a field, as `.proto` spells it, with enum and message types named by something of type
/// `EnumReference` and `MessageReference`: their schemas in a ``FieldType``, their Swift types in a
/// ``DeclaredFieldType``. One list of cases serves both, so the wire type of every `.proto` type is written once.
public enum GenericFieldType<EnumReference, MessageReference> {
    case int32, int64, uint32, uint64, sint32, sint64
    case fixed32, fixed64, sfixed32, sfixed64
    case bool, float, double, string, bytes
    case enumeration(EnumReference)
    case message(MessageReference)

    /// The wire type of one unpacked value.
    @inline(__always)
    public var wireType: WireType {
        switch self {
        case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool, .enumeration: .varint
        case .fixed64, .sfixed64, .double: .fixed64
        case .fixed32, .sfixed32, .float: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        }
    }

    /// Packed encoding applies to repeated numeric scalars (proto3 packs them by default).
    @inline(__always)
    public var isPackable: Bool { wireType != .lengthDelimited }

    public var isMessage: Bool {
        if case .message = self { return true }
        return false
    }

    /// The same type with enum and message references converted.
    public func map<NewEnumReference, NewMessageReference>(
        enumeration convertEnum: (EnumReference) -> NewEnumReference,
        message convertMessage: (MessageReference) -> NewMessageReference
    ) -> GenericFieldType<NewEnumReference, NewMessageReference> {
        switch self {
        case .int32: .int32
        case .int64: .int64
        case .uint32: .uint32
        case .uint64: .uint64
        case .sint32: .sint32
        case .sint64: .sint64
        case .fixed32: .fixed32
        case .fixed64: .fixed64
        case .sfixed32: .sfixed32
        case .sfixed64: .sfixed64
        case .bool: .bool
        case .float: .float
        case .double: .double
        case .string: .string
        case .bytes: .bytes
        case .enumeration(let reference): .enumeration(convertEnum(reference))
        case .message(let reference): .message(convertMessage(reference))
        }
    }
}

/// A field type in a ``FieldDeclaration``: enum and message types by their Swift type, such as
/// `.message(Circle.self)`.
public typealias DeclaredFieldType = GenericFieldType<any EnumSchemaProvider.Type, any MessageSchemaProvider.Type>

/// A type that describes an enum: what a ``DeclaredFieldType`` names. A protocol of its own, with nothing else in
/// it, so that naming a type in a declaration costs a constant (``LocationWireEnum``'s conformances would make the
/// compiler fetch a witness table at run time, in the middle of a decoder).
public protocol EnumSchemaProvider: SendableMetatype {
    static var schema: EnumSchema { get }
}

/// A type that describes a message: what a ``DeclaredFieldType`` names (see ``EnumSchemaProvider``).
public protocol MessageSchemaProvider: SendableMetatype {
    static var schema: MessageSchema { get }
}

/// A field type in a ``FieldSchema``: enum and message types by their schema.
public typealias FieldType = GenericFieldType<EnumSchema, MessageSchema>

extension GenericFieldType: Sendable where EnumReference: Sendable, MessageReference: Sendable {}

extension GenericFieldType: Equatable where EnumReference: Equatable, MessageReference: Equatable {}

extension GenericFieldType: Hashable where EnumReference: Hashable, MessageReference: Hashable {}

extension GenericFieldType where EnumReference == EnumSchema, MessageReference == MessageSchema {
    /// The name `.proto` uses: `sint32`, `string`, or the full name of an enum or message.
    public var protoName: String {
        switch self {
        case .enumeration(let schema): schema.fullName
        case .message(let schema): schema.fullName
        default: "\(self)"
        }
    }
}

extension MessageSchema {
    /// The schema of a message whose fields `Fields` declares.
    public convenience init<Fields: MessageFields>(_ fullName: String, fields: Fields.Type) {
        self.init(fullName, fields: Fields.allCases.map { $0.declaration.schema })
    }
}
