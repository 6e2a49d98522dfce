// The hand-written codec of `locationwire.v1.FixColumn`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/compact_fixes.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension FixColumn {
    public init(deltas: [Int64], runLengths: [UInt32] = [], presence: [UInt8] = []) {
        self.deltas = deltas
        self.runLengths = runLengths
        self.presence = presence
    }

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
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
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        writer.writePackedVarints(Field.deltas.key, deltas) { ZigZag.encode($0) }
        writer.writePackedVarints(Field.runLengths.key, runLengths) { UInt64($0) }
        if !presence.isEmpty { writer.writeBytesField(Field.presence.key, presence) }
        writer.writeUnknownFields(unknownFields)
    }
}
