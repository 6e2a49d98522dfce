// The hand-written codec of `locationwire.v1.LocationBatch`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/location_batch.proto`
// (Sources/LocationWire/Generated/Messages.swift).
extension LocationBatch {
    /// Lends the device id, which a device sends unchanged in every batch.
    public mutating func clearKeepingCapacity(lendingTo reader: inout WireReader) {
        reader.lend(deviceId)
        clearKeepingCapacity()
    }

    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.deviceId.key: deviceId = try reader.readString()
        case Field.batchId.key: batchId = try reader.readFixed64()
        case Field.bootId.key: bootId = try reader.readFixed64()
        case Field.sentAtMs.key: sentAtMs = Int64(bitPattern: try reader.readVarint())
        case Field.sentElapsedRealtimeMs.key: sentElapsedRealtimeMs = try reader.readVarint()
        case Field.datum.key: datum = CoordinateDatum(rawValue: try reader.readInt32())
        case Field.fixes.key:
            try reader.readMessage(appendingTo: &fixes)
        case Field.liveFix.key:
            if liveFix == nil { liveFix = LocationFix() }
            try reader.readMessage(into: &liveFix!)
        case Field.compactFixes.key:
            if compactFixes == nil { compactFixes = CompactFixes() }
            try reader.readMessage(into: &compactFixes!)
        case Field.fenceEvents.key:
            try reader.readMessage(appendingTo: &fenceEvents)
        case Field.deviceStatus.key:
            if deviceStatus == nil { deviceStatus = DeviceStatus() }
            try reader.readMessage(into: &deviceStatus!)
        case Field.lifecycleEvents.key: try reader.readMessage(appendingTo: &lifecycleEvents)
        case Field.armedRegions.key:
            if armedRegions == nil { armedRegions = ArmedRegions() }
            try reader.readMessage(into: &armedRegions!)
        case Field.installId.key: installId = try reader.readFixed64()
        case Field.fixSequenceFloor.key: fixSequenceFloor = try reader.readVarint()
        case Field.eventSequenceFloor.key: eventSequenceFloor = try reader.readVarint()
        case Field.protocolRevision.key: protocolRevision = try reader.readUInt32()
        case Field.policyVersion.key: policyVersion = try reader.readVarint()
        default: return false
        }
        return true
    }

    /// What a fix takes on the wire, about: the fixture scenarios' fixes take 55 to 64 bytes with their key
    /// and length. An estimate only; the writer grows if the fixes are larger.
    static let typicalEncodedFixSize = 72

    public func encodeFields(to writer: inout WireWriter) {
        if fixes.count > 4 {
            writer.reserveCapacity(forAdditional: 128 + fixes.count * Self.typicalEncodedFixSize)
        } else if let compactFixes {
            writer.reserveCapacity(forAdditional: 128 + compactFixes.encodedSizeEstimate)
        }
        if !deviceId.isEmpty { writer.writeStringField(Field.deviceId.key, deviceId) }
        if batchId != 0 { writer.writeFixed64Field(Field.batchId.key, batchId) }
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        if sentAtMs != 0 { writer.writeVarintField(Field.sentAtMs.key, UInt64(bitPattern: sentAtMs)) }
        if let sentElapsedRealtimeMs {
            writer.writeVarintField(Field.sentElapsedRealtimeMs.key, sentElapsedRealtimeMs)
        }
        if datum.rawValue != 0 { writer.writeInt32Field(Field.datum.key, datum.rawValue) }
        // Read once: a computed static costs a call on every access.
        let fixBound = LocationFix.maxKnownFieldsSize
        fixes.withUnsafeBufferPointer { fixes in
            guard var fix = fixes.baseAddress else { return }
            for _ in 0..<fixes.count {
                let lengthOffset = writer.beginLengthDelimitedField(Field.fixes.key)
                LocationFix.encodeFields(at: fix, to: &writer, maxKnownFieldsSize: fixBound)
                writer.finishLengthDelimitedField(at: lengthOffset)
                fix += 1
            }
        }
        if let liveFix { writer.writeMessageField(Field.liveFix.key, liveFix) }
        if let compactFixes { writer.writeMessageField(Field.compactFixes.key, compactFixes) }
        writer.writeRepeatedMessageField(Field.fenceEvents.key, fenceEvents)
        if let deviceStatus { writer.writeMessageField(Field.deviceStatus.key, deviceStatus) }
        writer.writeRepeatedMessageField(Field.lifecycleEvents.key, lifecycleEvents)
        if let armedRegions { writer.writeMessageField(Field.armedRegions.key, armedRegions) }
        if installId != 0 { writer.writeFixed64Field(Field.installId.key, installId) }
        if fixSequenceFloor != 0 { writer.writeVarintField(Field.fixSequenceFloor.key, fixSequenceFloor) }
        if eventSequenceFloor != 0 { writer.writeVarintField(Field.eventSequenceFloor.key, eventSequenceFloor) }
        if protocolRevision != 0 { writer.writeVarintField(Field.protocolRevision.key, UInt64(protocolRevision)) }
        if policyVersion != 0 { writer.writeVarintField(Field.policyVersion.key, policyVersion) }
        writer.writeUnknownFields(unknownFields)
    }
}
