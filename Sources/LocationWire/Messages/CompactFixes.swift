/// A run of fixes stored column by column (`locationwire.v1.CompactFixes`,
/// `proto/locationwire/v1/compact_fixes.proto`, which states the reconstruction rule normatively).
///
/// Column `N` carries LocationFix field `N`. This type is the wire form only: ``CompactFixes/init(fixes:)`` builds
/// the canonical compact form from rows and ``CompactFixes/fixes(limit:)`` reconstructs the rows.
///
/// Unlike the other messages, this struct is declared by hand (scripts/codegen/overrides.py): its columns are one
/// array rather than a property each. The generator checks that column `N` of compact_fixes.proto is LocationFix
/// field `N`, so the schema below, built from `LocationFix.Field`, is the .proto's.
public struct CompactFixes: LocationWireMessage {
    /// The columns, indexed by LocationFix field number (index 0 is unused, so `columns[3]` is latitude_e7).
    /// A nil column is absent on the wire.
    public private(set) var columns: [FixColumn?] = Array(
        repeating: nil, count: CompactFixes.columnCount + 1)
    /// The number of fixes.
    public var count: UInt32 = 0
    public var unknownFields = UnknownFields()

    /// Every LocationFix field has a column of the same number; the numbers run from 1 without gaps (the
    /// `LocationFix.Field` list).
    public static let columnCount = LocationFix.Field.allCases.count

    public init() {}

    public subscript(column fieldNumber: Int) -> FixColumn? {
        get { columns[fieldNumber] }
        set { columns[fieldNumber] = newValue }
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                let fieldNumber = Int(key.fieldNumber)
                if key.wireTypeBits == WireType.lengthDelimited.rawValue, fieldNumber >= 1,
                    fieldNumber <= Self.columnCount
                {
                    if columns[fieldNumber] == nil { columns[fieldNumber] = FixColumn() }
                    try reader.readMessage(into: &columns[fieldNumber]!)
                } else if key == Self.countField.key {
                    count = try reader.readUInt32()
                } else {
                    try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    /// About the size of the encoding, for reserving space once instead of growing the writer several times: a
    /// few bytes per delta (most deltas of a trace take one to three), one per run length and the bitmaps. Not
    /// a bound.
    var encodedSizeEstimate: Int {
        var estimate = 16 + unknownFields.bytes.count
        columns.withUnsafeBufferPointer { columns in
            for index in columns.indices {
                guard let column = columns[index] else { continue }
                estimate += 8 + 3 * column.deltas.count + column.runLengths.count + column.presence.count
            }
        }
        return estimate
    }

    public func encodeFields(to writer: inout WireWriter) {
        for fieldNumber in 1...Self.columnCount {
            if let column = columns[fieldNumber] {
                writer.writeMessageField(FieldKey.make(UInt32(fieldNumber), .lengthDelimited), column)
            }
        }
        if count != 0 { writer.writeVarintField(Self.countField.key, UInt64(count)) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The one field that is not a column.
    static let countField = FieldDeclaration(100, "count", .uint32)

    /// The columns, one per `LocationFix.Field` with the field's number and name, then `count`.
    public static let schema = MessageSchema(
        "locationwire.v1.CompactFixes",
        fields: LocationFix.Field.allCases.map {
            FieldSchema($0.number, "\($0.declaration.name)", .message(FixColumn.schema))
        }
            + [countField.schema])
}
