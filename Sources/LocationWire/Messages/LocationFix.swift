// The hand-written codec of `locationwire.v1.LocationFix`: decode, encode and Swift conveniences. The struct
// itself, its fields and their documentation are generated from `proto/locationwire/v1/location_fix.proto`
// (Sources/LocationWire/Generated/Messages.swift).
//
// A LocationFix holds no strings, arrays or nested messages, so decoding one allocates nothing: a batch of any size
// decodes with one allocation for its array of fixes (plus one per fix that carries unknown fields).
extension LocationFix: FastPathMessage {
    /// Barometric pressure, hPa, 100 ... 1200.
    public var pressureHpa: Float? {
        get { pressureHpaBits.map(Float.init(bitPattern:)) }
        set { pressureHpaBits = newValue?.bitPattern }
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        try decodeFieldsFastFirst(from: &reader)
    }

    /// One field of the careful decoder (`decodeFieldsCarefully(from:)`).
    @inline(__always)
    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.sequence.key: sequence = try reader.readVarint()
        case Field.timeMs.key: timeMs = Int64(bitPattern: try reader.readVarint())
        case Field.latitudeE7.key: latitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.longitudeE7.key: longitudeE7 = Int32(bitPattern: try reader.readFixed32())
        case Field.horizontalAccuracyCm.key: horizontalAccuracyCm = try reader.readUInt32()
        case Field.altitudeCm.key: altitudeCm = try reader.readSInt32()
        case Field.verticalAccuracyCm.key: verticalAccuracyCm = try reader.readUInt32()
        case Field.speedCmS.key: speedCmS = try reader.readUInt32()
        case Field.speedAccuracyCmS.key: speedAccuracyCmS = try reader.readUInt32()
        case Field.courseCdeg.key: courseCdeg = try reader.readUInt32()
        case Field.courseAccuracyCdeg.key: courseAccuracyCdeg = try reader.readUInt32()
        case Field.elapsedRealtimeMs.key: elapsedRealtimeMs = try reader.readVarint()
        case Field.reason.key: reason = FixReason(rawValue: try reader.readInt32())
        case Field.source.key: source = FixSource(rawValue: try reader.readInt32())
        case Field.batteryPercent.key: batteryPercent = try reader.readUInt32()
        case Field.batteryState.key: batteryState = BatteryState(rawValue: try reader.readInt32())
        case Field.motionActivity.key:
            motionActivity = MotionActivity(rawValue: try reader.readInt32())
        case Field.motionConfidencePct.key: motionConfidencePct = try reader.readUInt32()
        case Field.floor.key: floor = try reader.readSInt32()
        case Field.ageMs.key: ageMs = try reader.readUInt32()
        case Field.isMock.key: isMock = try reader.readBool()
        case Field.ellipsoidalHeightCm.key: ellipsoidalHeightCm = try reader.readSInt32()
        case Field.pressureHpa.key: pressureHpaBits = try reader.readFixed32()
        case Field.bootId.key: bootId = try reader.readFixed64()
        default: return false
        }
        return true
    }

    /// The fast path of ``decodeFields(from:)`` (see ``FastFieldScanner``): true when it decoded the whole fix;
    /// false hands over to the careful decoder, which goes on from the start of the field the fast path stopped at.
    /// Every field is a number, so `reader` is not needed.
    @inline(__always)
    package mutating func decodeFieldsFast(_ scanner: inout FastFieldScanner, reader: inout WireReader) -> Bool {
        while let key = scanner.nextKey() {
            switch key {
            case Field.sequence.key:
                guard let value = scanner.varint() else { return false }
                sequence = value
            case Field.timeMs.key:
                guard let value = scanner.varint() else { return false }
                timeMs = Int64(bitPattern: value)
            case Field.latitudeE7.key: latitudeE7 = Int32(bitPattern: scanner.fixed32())
            case Field.longitudeE7.key: longitudeE7 = Int32(bitPattern: scanner.fixed32())
            case Field.horizontalAccuracyCm.key:
                guard let value = scanner.varint() else { return false }
                horizontalAccuracyCm = UInt32(truncatingIfNeeded: value)
            case Field.altitudeCm.key:
                guard let value = scanner.varint() else { return false }
                altitudeCm = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case Field.verticalAccuracyCm.key:
                guard let value = scanner.varint() else { return false }
                verticalAccuracyCm = UInt32(truncatingIfNeeded: value)
            case Field.speedCmS.key:
                guard let value = scanner.varint() else { return false }
                speedCmS = UInt32(truncatingIfNeeded: value)
            case Field.speedAccuracyCmS.key:
                guard let value = scanner.varint() else { return false }
                speedAccuracyCmS = UInt32(truncatingIfNeeded: value)
            case Field.courseCdeg.key:
                guard let value = scanner.varint() else { return false }
                courseCdeg = UInt32(truncatingIfNeeded: value)
            case Field.courseAccuracyCdeg.key:
                guard let value = scanner.varint() else { return false }
                courseAccuracyCdeg = UInt32(truncatingIfNeeded: value)
            case Field.elapsedRealtimeMs.key:
                guard let value = scanner.varint() else { return false }
                elapsedRealtimeMs = value
            case Field.reason.key:
                guard let value = scanner.varint() else { return false }
                reason = FixReason(rawValue: Int32(truncatingIfNeeded: value))
            case Field.source.key:
                guard let value = scanner.varint() else { return false }
                source = FixSource(rawValue: Int32(truncatingIfNeeded: value))
            case Field.batteryPercent.key:
                guard let value = scanner.varint() else { return false }
                batteryPercent = UInt32(truncatingIfNeeded: value)
            case Field.batteryState.key:
                guard let value = scanner.varint() else { return false }
                batteryState = BatteryState(rawValue: Int32(truncatingIfNeeded: value))
            case Field.motionActivity.key:
                guard let value = scanner.varint() else { return false }
                motionActivity = MotionActivity(rawValue: Int32(truncatingIfNeeded: value))
            case Field.motionConfidencePct.key:
                guard let value = scanner.varint() else { return false }
                motionConfidencePct = UInt32(truncatingIfNeeded: value)
            case Field.floor.key:
                guard let value = scanner.varint() else { return false }
                floor = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case Field.ageMs.key:
                guard let value = scanner.varint() else { return false }
                ageMs = UInt32(truncatingIfNeeded: value)
            case Field.isMock.key:
                guard let value = scanner.varint() else { return false }
                isMock = value != 0
            case Field.ellipsoidalHeightCm.key:
                guard let value = scanner.varint() else { return false }
                ellipsoidalHeightCm = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case Field.pressureHpa.key: pressureHpaBits = scanner.fixed32()
            case Field.bootId.key: bootId = scanner.fixed64()
            default: return false
            }
        }
        return scanner.isAtMessageEnd
    }

    /// The fast path alone, for the test that it knows every field (`EveryFieldTests`): true when it decoded the
    /// whole fix, false where ``decodeFields(from:)`` would hand over to the careful decoder. The reader must have
    /// at least ``FastFieldScanner/lookahead`` bytes of input left, as inside a batch.
    package mutating func decodeFieldsFastOnly(from reader: inout WireReader) -> Bool {
        guard var scanner = reader.fastFieldScanner() else { return false }
        return decodeFieldsFast(&scanner, reader: &reader)
    }

    /// The largest encoding of the known fields, every field present at its longest, from the field list.
    static let maxKnownFieldsSize = Field.maxScalarFieldsEncodedSize!

    public func encodeFields(to writer: inout WireWriter) {
        withUnsafePointer(to: self) { Self.encodeFields(at: $0, to: &writer) }
    }

    public static func encodeFields(at fix: UnsafePointer<LocationFix>, to writer: inout WireWriter) {
        encodeFields(at: fix, to: &writer, maxKnownFieldsSize: maxKnownFieldsSize)
    }

    /// Encodes the fix at `fix` reading each field in place: a batch encodes its fixes through this, because
    /// calling ``encodeFields(to:)`` on an array element copies the whole fix first (a retain and a release
    /// included), which cost a fifth of the encoding time. `maxKnownFieldsSize` is ``maxKnownFieldsSize``, which a
    /// batch reads once for all its fixes.
    @inline(__always)
    static func encodeFields(
        at fix: UnsafePointer<LocationFix>, to writer: inout WireWriter, maxKnownFieldsSize: Int
    ) {
        var out = writer.beginBounded(maxByteCount: maxKnownFieldsSize)
        if fix.pointee.sequence != 0 { out.writeVarintField(Field.sequence.key, fix.pointee.sequence) }
        if fix.pointee.timeMs != 0 {
            out.writeVarintField(Field.timeMs.key, UInt64(bitPattern: fix.pointee.timeMs))
        }
        if let latitudeE7 = fix.pointee.latitudeE7 {
            out.writeFixed32Field(Field.latitudeE7.key, UInt32(bitPattern: latitudeE7))
        }
        if let longitudeE7 = fix.pointee.longitudeE7 {
            out.writeFixed32Field(Field.longitudeE7.key, UInt32(bitPattern: longitudeE7))
        }
        if let horizontalAccuracyCm = fix.pointee.horizontalAccuracyCm {
            out.writeVarintField(Field.horizontalAccuracyCm.key, UInt64(horizontalAccuracyCm))
        }
        if let altitudeCm = fix.pointee.altitudeCm {
            out.writeSInt32Field(Field.altitudeCm.key, altitudeCm)
        }
        if let verticalAccuracyCm = fix.pointee.verticalAccuracyCm {
            out.writeVarintField(Field.verticalAccuracyCm.key, UInt64(verticalAccuracyCm))
        }
        if let speedCmS = fix.pointee.speedCmS {
            out.writeVarintField(Field.speedCmS.key, UInt64(speedCmS))
        }
        if let speedAccuracyCmS = fix.pointee.speedAccuracyCmS {
            out.writeVarintField(Field.speedAccuracyCmS.key, UInt64(speedAccuracyCmS))
        }
        if let courseCdeg = fix.pointee.courseCdeg {
            out.writeVarintField(Field.courseCdeg.key, UInt64(courseCdeg))
        }
        if let courseAccuracyCdeg = fix.pointee.courseAccuracyCdeg {
            out.writeVarintField(Field.courseAccuracyCdeg.key, UInt64(courseAccuracyCdeg))
        }
        if let elapsedRealtimeMs = fix.pointee.elapsedRealtimeMs {
            out.writeVarintField(Field.elapsedRealtimeMs.key, elapsedRealtimeMs)
        }
        if fix.pointee.reason.rawValue != 0 {
            out.writeInt32Field(Field.reason.key, fix.pointee.reason.rawValue)
        }
        if fix.pointee.source.rawValue != 0 {
            out.writeInt32Field(Field.source.key, fix.pointee.source.rawValue)
        }
        if let batteryPercent = fix.pointee.batteryPercent {
            out.writeVarintField(Field.batteryPercent.key, UInt64(batteryPercent))
        }
        if fix.pointee.batteryState.rawValue != 0 {
            out.writeInt32Field(Field.batteryState.key, fix.pointee.batteryState.rawValue)
        }
        if fix.pointee.motionActivity.rawValue != 0 {
            out.writeInt32Field(Field.motionActivity.key, fix.pointee.motionActivity.rawValue)
        }
        if let motionConfidencePct = fix.pointee.motionConfidencePct {
            out.writeVarintField(Field.motionConfidencePct.key, UInt64(motionConfidencePct))
        }
        if let floor = fix.pointee.floor { out.writeSInt32Field(Field.floor.key, floor) }
        if let ageMs = fix.pointee.ageMs { out.writeVarintField(Field.ageMs.key, UInt64(ageMs)) }
        if fix.pointee.isMock { out.writeBoolField(Field.isMock.key, true) }
        if let ellipsoidalHeightCm = fix.pointee.ellipsoidalHeightCm {
            out.writeSInt32Field(Field.ellipsoidalHeightCm.key, ellipsoidalHeightCm)
        }
        if let pressureHpaBits = fix.pointee.pressureHpaBits {
            out.writeFixed32Field(Field.pressureHpa.key, pressureHpaBits)
        }
        if fix.pointee.bootId != 0 { out.writeFixed64Field(Field.bootId.key, fix.pointee.bootId) }
        writer.commit(out)
        writer.writeUnknownFields(fix.pointee.unknownFields)
    }
}
