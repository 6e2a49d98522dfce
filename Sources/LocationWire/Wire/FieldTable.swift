/// A message whose decoder, encoder and ``MessageSchema`` all come from one list of its fields, its
/// ``FieldTable``: each field is declared once, as a row that pairs its number, `.proto` name, kind and presence
/// with a key path to the Swift property that holds it.
///
/// For messages where clarity matters more than speed: the testee protocol, which a runner exchanges a few
/// thousand times per run, and the session engines' persisted states. Each field costs a dictionary lookup,
/// closure calls and key-path accesses where the hand-written `locationwire.v1` decoders switch on a constant.
///
/// ```swift
/// public struct HelloRequest: TableCodedMessage {
///     public var protocolVersion: UInt32 = 0
///     public var runner: String = ""
///     public var unknownFields = UnknownFields()
///     public init() {}
///
///     public static let fieldTable = FieldTable<HelloRequest>(
///         "locationwire.conformance.v1.HelloRequest",
///         [
///             .singular(1, "protocol_version", .uint32, \.protocolVersion),
///             .singular(2, "runner", .string, \.runner),
///         ])
/// }
/// ```
///
/// Decoding follows protobuf's binary rules as the hand-written decoders do: the last value of a scalar wins,
/// occurrences of a message merge, repeated numeric fields are read packed or not, a key the table does not know
/// (another number, or a known number with another wire type) is kept in ``LocationWireMessage/unknownFields`` in
/// arrival order, and an error names the field it occurred in. Encoding is canonical: fields in number order,
/// numeric repeats packed, unknown fields last.
public protocol TableCodedMessage: LocationWireMessage {
    /// The message's fields; a `static let`, so it is built once.
    static var fieldTable: FieldTable<Self> { get }
}

extension TableCodedMessage {
    public static var schema: MessageSchema { fieldTable.schema }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        let table = Self.fieldTable
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                if let field = table.field(forKey: key) {
                    try field.decode(&self, key, &reader)
                } else {
                    try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: table.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        for field in Self.fieldTable.fields {
            field.encode(self, &writer)
        }
        writer.writeUnknownFields(unknownFields)
    }
}

/// Every field of a ``TableCodedMessage``, declared once: the message's schema, the keys its decoder accepts and
/// the order its encoder writes in all derive from the rows.
public final class FieldTable<Message: LocationWireMessage>: Sendable {
    /// The schema the rows describe (JSON names, the dump, error paths and the vector generator read it).
    public let schema: MessageSchema
    /// The rows in field-number order, which is the order they are written in.
    public let fields: [Field]
    /// Row index by every key a row is read under.
    private let fieldIndexByKey: [FieldKey: Int]

    /// The table of the message named `fullName` (`locationwire.conformance.v1.HelloRequest`), from its rows in
    /// any order. Two rows with one number are a programming error.
    public init(_ fullName: String, _ fields: [Field]) {
        let sorted = fields.sorted { $0.declaration.number < $1.declaration.number }
        var fieldIndexByKey: [FieldKey: Int] = [:]
        for (index, field) in sorted.enumerated() {
            for key in field.keys {
                precondition(
                    fieldIndexByKey.updateValue(index, forKey: key) == nil,
                    "\(fullName): field number \(field.declaration.number) is declared twice")
            }
        }
        self.fields = sorted
        self.fieldIndexByKey = fieldIndexByKey
        self.schema = MessageSchema(fullName, fields: sorted.map(\.declaration.schema))
    }

    /// The row read under `key`, if any.
    func field(forKey key: FieldKey) -> Field? {
        fieldIndexByKey[key].map { fields[$0] }
    }

    /// One field: its declaration, and how it is read from the wire into the message and written from it. Built
    /// by ``singular(_:_:_:_:)``, ``optional(_:_:_:_:)``, ``alwaysWritten(_:_:_:_:)``, ``repeated(_:_:_:_:)`` and
    /// ``oneofMember(_:_:_:in:_:_:)``, which cover every field of proto3; ``init(_:keys:decode:encode:)`` is for a
    /// property whose Swift type is not the field's (a set persisted as a list).
    public struct Field: Sendable {
        /// Number, `.proto` name, type and label.
        public let declaration: FieldDeclaration
        /// The keys the field is read under: its canonical key, and for a repeated numeric field also the key of
        /// one unpacked element.
        let keys: [FieldKey]
        /// Reads the occurrence whose tag, the given key, was just read into the message.
        let decode: @Sendable (inout Message, FieldKey, inout WireReader) throws(DecodingError) -> Void
        /// Writes the field's occurrences, if any, from the message.
        let encode: @Sendable (Message, inout WireWriter) -> Void

        /// A field with hand-made reading and writing.
        public init(
            _ declaration: FieldDeclaration, keys: [FieldKey],
            decode: @escaping @Sendable (inout Message, FieldKey, inout WireReader) throws(DecodingError) -> Void,
            encode: @escaping @Sendable (Message, inout WireWriter) -> Void
        ) {
            self.declaration = declaration
            self.keys = keys
            self.decode = decode
            self.encode = encode
        }

        /// Implicit presence (a plain proto3 field): a scalar is written unless it is zero. A message held in a
        /// non-optional property is always present, so always written.
        public static func singular<Value>(
            _ number: UInt32, _ name: StaticString, _ kind: FieldKind<Value>,
            _ property: FieldProperty<Message, Value>
        ) -> Field {
            nonOptional(FieldDeclaration(number, name, kind.type, .singular), kind, property, writesZero: false)
        }

        /// Explicit presence (`oneof optional_<name> { ... }` in `.proto`) held in a property that is never
        /// absent: written every time, even when zero; a field absent on the wire leaves the property as it was.
        public static func alwaysWritten<Value>(
            _ number: UInt32, _ name: StaticString, _ kind: FieldKind<Value>,
            _ property: FieldProperty<Message, Value>
        ) -> Field {
            let declaration = FieldDeclaration(number, name, kind.type, explicitPresenceLabel(kind))
            return nonOptional(declaration, kind, property, writesZero: true)
        }

        /// Explicit presence, held as an optional: a scalar written `oneof optional_<name> { ... }` in `.proto`,
        /// or a message that may be absent. Written when not nil, even when zero. (As in `.proto`, this is a oneof
        /// of one member, whose value is its own case.)
        public static func optional<Value>(
            _ number: UInt32, _ name: StaticString, _ kind: FieldKind<Value>,
            _ property: FieldProperty<Message, Value?>
        ) -> Field {
            oneofMember(number, name, kind, in: property, { $0 }, { $0 })
        }

        /// A repeated field: numeric elements are written packed and read packed or one by one.
        public static func repeated<Value>(
            _ number: UInt32, _ name: StaticString, _ kind: FieldKind<Value>,
            _ property: FieldProperty<Message, [Value]>
        ) -> Field {
            let declaration = FieldDeclaration(number, name, kind.type, .repeated)
            let key = declaration.key
            let unpackedKey = FieldKey.make(number, kind.type.wireType)
            return Field(
                declaration, keys: key == unpackedKey ? [key] : [key, unpackedKey],
                decode: { message, key, reader throws(DecodingError) in
                    try kind.readElements(&message[keyPath: property], key, &reader)
                },
                encode: { message, writer in kind.writeElements(message[keyPath: property], key, &writer) })
        }

        /// One member of a real oneof, whose members share `choice`, an optional enum with a case per member.
        /// `embed` makes the case from the member's value (an enum case works as a function), `extract` gets the
        /// value back when the case is this member's (a computed property of the enum works as a key path).
        ///
        /// The member written last wins: reading it replaces whatever `choice` held. A message member merges
        /// with its own earlier occurrence, not with another member's. An `embed` that returns nil (a member
        /// the enum cannot represent, such as a flag set to false) leaves `choice` nil.
        public static func oneofMember<Choice, Value>(
            _ number: UInt32, _ name: StaticString, _ kind: FieldKind<Value>,
            in choice: FieldProperty<Message, Choice?>,
            _ embed: @escaping @Sendable (Value) -> Choice?, _ extract: @escaping @Sendable (Choice) -> Value?
        ) -> Field {
            let declaration = FieldDeclaration(number, name, kind.type, explicitPresenceLabel(kind))
            let key = declaration.key
            return Field(
                declaration, keys: [key],
                decode: { message, _, reader throws(DecodingError) in
                    var value = message[keyPath: choice].flatMap(extract) ?? kind.zero
                    try kind.read(&value, &reader)
                    message[keyPath: choice] = embed(value)
                },
                encode: { message, writer in
                    if let value = message[keyPath: choice].flatMap(extract) { kind.write(value, key, &writer) }
                })
        }

        /// A field held in a non-optional property: read into it, and written unless it is zero and
        /// `writesZero` is false (messages have no zero: they are always written).
        private static func nonOptional<Value>(
            _ declaration: FieldDeclaration, _ kind: FieldKind<Value>, _ property: FieldProperty<Message, Value>,
            writesZero: Bool
        ) -> Field {
            let key = declaration.key
            return Field(
                declaration, keys: [key],
                decode: { message, _, reader throws(DecodingError) in
                    try kind.read(&message[keyPath: property], &reader)
                },
                encode: { message, writer in
                    let value = message[keyPath: property]
                    if !writesZero, let isZero = kind.isZero, isZero(value) { return }
                    kind.write(value, key, &writer)
                })
        }

        /// The label of a field with explicit presence, as ``MessageSchema`` writes it: `.optional` for a
        /// scalar; `.singular` for a message, whose presence is always explicit.
        private static func explicitPresenceLabel<Value>(_ kind: FieldKind<Value>) -> FieldSchema.Label {
            kind.type.isMessage ? .singular : .optional
        }
    }
}

/// The key path to the property that holds a field: writable, since decoding stores into it, and `Sendable`, since
/// a ``FieldTable`` is shared (a key path literal such as `\.runner` is both).
public typealias FieldProperty<Message, Value> = any WritableKeyPath<Message, Value> & Sendable
