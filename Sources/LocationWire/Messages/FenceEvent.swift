// The hand-written codec of `locationwire.v1.FenceEvent`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/fence_event.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension FenceEvent: FastPathMessage {
    /// Lends the region id: a device's events mostly concern the few regions it has armed.
    public mutating func clearKeepingCapacity(lendingTo reader: inout WireReader) {
        reader.lend(regionId)
        clearKeepingCapacity()
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        try decodeFieldsFastFirst(from: &reader)
    }

    /// The fast path of ``decodeFields(from:)`` (see ``FastFieldScanner``): true when it decoded the whole event;
    /// false hands over to the careful decoder at the start of the field the fast path stopped at. The region id
    /// and the trigger fix are read by `reader` itself, where the scanner stands, so a damaged one throws the
    /// careful decoder's error (the field named as ``decodeFieldByField(from:)`` names it); the scanner reads the
    /// scalars.
    @inline(__always)
    package mutating func decodeFieldsFast(
        _ scanner: inout FastFieldScanner, reader: inout WireReader
    ) throws(DecodingError) -> Bool {
        while let key = scanner.nextKey() {
            switch key {
            case Field.eventSequence.key:
                guard let value = scanner.varint() else { return false }
                eventSequence = value
            case Field.regionId.key:
                reader.resume(atField: scanner)
                do { regionId = try reader.readString() } catch { throw error.inField(key, of: Self.schema) }
                scanner.skip(to: reader.cursor)
            case Field.regionVersion.key:
                guard let value = scanner.varint() else { return false }
                regionVersion = value
            case Field.assignmentVersion.key:
                guard let value = scanner.varint() else { return false }
                assignmentVersion = value
            case Field.kind.key:
                guard let value = scanner.varint() else { return false }
                kind = FenceEventKind(rawValue: Int32(truncatingIfNeeded: value))
            case Field.osEventTimeMs.key:
                guard let value = scanner.varint() else { return false }
                osEventTimeMs = Int64(bitPattern: value)
            case Field.detectedAtMs.key:
                guard let value = scanner.varint() else { return false }
                detectedAtMs = Int64(bitPattern: value)
            case Field.triggerFix.key:
                reader.resume(atField: scanner)
                if triggerFix == nil { triggerFix = LocationFix() }
                do { try reader.readMessage(into: &triggerFix!) } catch { throw error.inField(key, of: Self.schema) }
                scanner.skip(to: reader.cursor)
            case Field.source.key:
                guard let value = scanner.varint() else { return false }
                source = FenceEventSource(rawValue: Int32(truncatingIfNeeded: value))
            case Field.detectedElapsedRealtimeMs.key:
                guard let value = scanner.varint() else { return false }
                detectedElapsedRealtimeMs = value
            case Field.dwellMs.key:
                guard let value = scanner.varint() else { return false }
                dwellMs = UInt32(truncatingIfNeeded: value)
            case Field.bootId.key: bootId = scanner.fixed64()
            default: return false
            }
        }
        return scanner.isAtMessageEnd
    }

    /// For tests: decodes through the fast path alone, true when it decoded the whole event, false where
    /// ``decodeFields(from:)`` would hand over to the careful decoder.
    package mutating func decodeFieldsFastOnly(from reader: inout WireReader) throws(DecodingError) -> Bool {
        guard var scanner = reader.fastFieldScanner() else { return false }
        return try decodeFieldsFast(&scanner, reader: &reader)
    }

    /// One field of the careful decoder (`decodeFieldsCarefully(from:)`).
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.eventSequence.key: eventSequence = try reader.readVarint()
        case Field.regionId.key: regionId = try reader.readString()
        case Field.regionVersion.key: regionVersion = try reader.readVarint()
        case Field.assignmentVersion.key: assignmentVersion = try reader.readVarint()
        case Field.kind.key: kind = FenceEventKind(rawValue: try reader.readInt32())
        case Field.osEventTimeMs.key: osEventTimeMs = Int64(bitPattern: try reader.readVarint())
        case Field.detectedAtMs.key: detectedAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.triggerFix.key:
            if triggerFix == nil { triggerFix = LocationFix() }
            try reader.readMessage(into: &triggerFix!)
        case Field.source.key: source = FenceEventSource(rawValue: try reader.readInt32())
        case Field.detectedElapsedRealtimeMs.key:
            detectedElapsedRealtimeMs = try reader.readVarint()
        case Field.dwellMs.key: dwellMs = try reader.readUInt32()
        case Field.bootId.key: bootId = try reader.readFixed64()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        withUnsafePointer(to: self) { Self.encodeFields(at: $0, to: &writer) }
    }

    /// Encodes the event at `event`, reading its fields in place: its trigger fix is not copied (see
    /// ``LocationWireMessage/encodeFields(at:to:)``).
    public static func encodeFields(at event: UnsafePointer<FenceEvent>, to writer: inout WireWriter) {
        let event = UnsafeMutablePointer(mutating: event)  // only read through; `&` below needs a mutable pointer
        if event.pointee.eventSequence != 0 {
            writer.writeVarintField(Field.eventSequence.key, event.pointee.eventSequence)
        }
        if !event.pointee.regionId.isEmpty { writer.writeStringField(Field.regionId.key, event.pointee.regionId) }
        if event.pointee.regionVersion != 0 {
            writer.writeVarintField(Field.regionVersion.key, event.pointee.regionVersion)
        }
        if event.pointee.assignmentVersion != 0 {
            writer.writeVarintField(Field.assignmentVersion.key, event.pointee.assignmentVersion)
        }
        if event.pointee.kind.rawValue != 0 { writer.writeInt32Field(Field.kind.key, event.pointee.kind.rawValue) }
        if event.pointee.osEventTimeMs != 0 {
            writer.writeVarintField(Field.osEventTimeMs.key, UInt64(bitPattern: event.pointee.osEventTimeMs))
        }
        if event.pointee.detectedAtMs != 0 {
            writer.writeVarintField(Field.detectedAtMs.key, UInt64(bitPattern: event.pointee.detectedAtMs))
        }
        writer.writeMessageField(Field.triggerFix.key, ifPresentAt: &event.pointee.triggerFix)
        if event.pointee.source.rawValue != 0 {
            writer.writeInt32Field(Field.source.key, event.pointee.source.rawValue)
        }
        if let detectedElapsedRealtimeMs = event.pointee.detectedElapsedRealtimeMs {
            writer.writeVarintField(Field.detectedElapsedRealtimeMs.key, detectedElapsedRealtimeMs)
        }
        if let dwellMs = event.pointee.dwellMs { writer.writeVarintField(Field.dwellMs.key, UInt64(dwellMs)) }
        if event.pointee.bootId != 0 { writer.writeFixed64Field(Field.bootId.key, event.pointee.bootId) }
        writer.writeUnknownFields(event.pointee.unknownFields)
    }
}
