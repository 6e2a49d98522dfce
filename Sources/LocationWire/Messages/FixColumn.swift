/// One column of ``CompactFixes``: the values of one LocationFix field across the fixes that have it
/// (`locationwire.v1.FixColumn`, `proto/locationwire/v1/compact_fixes.proto`).
///
/// The values are delta coded (the first delta is the first value), optionally run-length coded, and the
/// presence bitmap says which fixes have the field. ``CompactFixes`` documents the exact reconstruction rule.
public struct FixColumn: LocationWireMessage {
    /// Zigzag-coded differences between consecutive values; the first is the first value.
    public var deltas: [Int64] = []
    /// When not empty, `deltas[j]` stands for `runLengths[j]` consecutive steps; as many entries as `deltas`.
    public var runLengths: [UInt32] = []
    /// Bitmap of the fixes that have the field, least significant bit first; empty when none or all have it.
    public var presence: [UInt8] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public init(deltas: [Int64], runLengths: [UInt32] = [], presence: [UInt8] = []) {
        self.deltas = deltas
        self.runLengths = runLengths
        self.presence = presence
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case Field.deltas.key:
                    try reader.readPackedVarints(appendingTo: &deltas) { ZigZag.decode($0) }
                case Field.deltas.unpackedKey:
                    try reader.checkCanAppend(to: deltas)
                    deltas.append(try reader.readSInt64())
                case Field.runLengths.key:
                    try reader.readPackedVarints(appendingTo: &runLengths) { UInt32(truncatingIfNeeded: $0) }
                case Field.runLengths.unpackedKey:
                    try reader.checkCanAppend(to: runLengths)
                    runLengths.append(try reader.readUInt32())
                case Field.presence.key: presence = try reader.readBytes()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedVarints(Field.deltas.key, deltas) { ZigZag.encode($0) }
        writer.writePackedVarints(Field.runLengths.key, runLengths) { UInt64($0) }
        if !presence.isEmpty { writer.writeBytesField(Field.presence.key, presence) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.v1.FixColumn`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case deltas, runLengths, presence

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .deltas: FieldDeclaration(1, "deltas", .sint64, .repeated)
            case .runLengths: FieldDeclaration(2, "run_lengths", .uint32, .repeated)
            case .presence: FieldDeclaration(3, "presence", .bytes)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.FixColumn", fields: Field.self)
}
