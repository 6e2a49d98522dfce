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
                case 0x0A: try reader.readPackedVarints(appendingTo: &deltas) { ZigZag.decode($0) }
                case 0x08:
                    try reader.checkCanAppend(to: deltas)
                    deltas.append(try reader.readSInt64())
                case 0x12: try reader.readPackedVarints(appendingTo: &runLengths) { UInt32(truncatingIfNeeded: $0) }
                case 0x10:
                    try reader.checkCanAppend(to: runLengths)
                    runLengths.append(try reader.readUInt32())
                case 0x1A: presence = try reader.readBytes()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedVarints(0x0A, deltas) { ZigZag.encode($0) }
        writer.writePackedVarints(0x12, runLengths) { UInt64($0) }
        if !presence.isEmpty { writer.writeBytesField(0x1A, presence) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.FixColumn",
        fields: [
            FieldSchema(1, "deltas", .sint64, .repeated),
            FieldSchema(2, "run_lengths", .uint32, .repeated),
            FieldSchema(3, "presence", .bytes),
        ])
}
