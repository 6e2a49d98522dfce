/// A run of fixes stored column by column (`locationwire.v1.CompactFixes`,
/// `proto/locationwire/v1/compact_fixes.proto`, which states the reconstruction rule normatively).
///
/// Column `N` carries LocationFix field `N`. This type is the wire form only: ``CompactFixes/init(fixes:)`` builds
/// the canonical compact form from rows and ``CompactFixes/fixes(limit:)`` reconstructs the rows.
public struct CompactFixes: LocationWireMessage {
    /// The columns, indexed by LocationFix field number (index 0 is unused, so `columns[3]` is latitude_e7).
    /// A nil column is absent on the wire.
    public private(set) var columns: [FixColumn?] = Array(repeating: nil, count: CompactFixes.columnCount + 1)
    /// The number of fixes.
    public var count: UInt32 = 0
    public var unknownFields = UnknownFields()

    /// LocationFix fields 1 to 23 each have a column.
    public static let columnCount = 23

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
                let fieldNumber = Int(key >> 3)
                if key & 7 == 2, fieldNumber >= 1, fieldNumber <= Self.columnCount {
                    if columns[fieldNumber] == nil { columns[fieldNumber] = FixColumn() }
                    try reader.readMessage(into: &columns[fieldNumber]!)
                } else if key == 0x320 {
                    count = try reader.readUInt32()
                } else {
                    try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    public func encodeFields(to writer: inout WireWriter) {
        for fieldNumber in 1...Self.columnCount {
            if let column = columns[fieldNumber] {
                writer.writeMessageField(FieldKey.make(UInt32(fieldNumber), .lengthDelimited), column)
            }
        }
        if count != 0 { writer.writeVarintField(0x320, UInt64(count)) }
        writer.writeUnknownFields(unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.CompactFixes",
        fields: LocationFix.schema.fields.map { FieldSchema($0.number, $0.name, .message(FixColumn.schema)) }
            + [FieldSchema(100, "count", .uint32)])
}
