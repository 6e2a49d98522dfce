/// One position fix, in fixed integer units with explicit presence (`locationwire.v1.LocationFix`,
/// `proto/locationwire/v1/location_fix.proto`, which is normative for every unit and range below).
///
/// A `LocationFix` holds no strings, arrays or nested messages, so decoding one allocates nothing: a batch of
/// any size decodes with one allocation for its array of fixes (plus one per fix that carries unknown fields).
public struct LocationFix: LocationWireMessage {
    /// Per-device sequence number, the idempotency key; starts at 1, strictly increasing. 0 = not assigned.
    public var sequence: UInt64 = 0
    /// When the position was measured, UTC ms since the epoch. 0 = not set.
    public var timeMs: Int64 = 0
    /// Latitude, 1e-7 degree, -900000000 ... 900000000.
    public var latitudeE7: Int32?
    /// Longitude, 1e-7 degree, -1800000000 ... 1800000000.
    public var longitudeE7: Int32?
    /// 68 % horizontal confidence radius, cm, > 0.
    public var horizontalAccuracyCm: UInt32?
    /// Altitude above mean sea level, cm.
    public var altitudeCm: Int32?
    /// Altitude standard deviation, cm, > 0.
    public var verticalAccuracyCm: UInt32?
    /// Ground speed, cm/s, 0 ... 50000.
    public var speedCmS: UInt32?
    /// Speed standard deviation, cm/s, > 0.
    public var speedAccuracyCmS: UInt32?
    /// Course over ground, 0.01 degree clockwise from true north, 0 ... 35999.
    public var courseCdeg: UInt32?
    /// Course standard deviation, 0.01 degree, 1 ... 18000.
    public var courseAccuracyCdeg: UInt32?
    /// Monotonic clock at measurement, ms since boot.
    public var elapsedRealtimeMs: UInt64?
    /// Why the fix was recorded.
    public var reason: FixReason = .unspecified
    /// Where the position came from.
    public var source: FixSource = .unspecified
    /// Battery charge, percent, 0 ... 100.
    public var batteryPercent: UInt32?
    /// Charging state.
    public var batteryState: BatteryState = .unspecified
    /// Motion activity from the OS classifier.
    public var motionActivity: MotionActivity = .unspecified
    /// Classifier confidence, percent, 0 ... 100.
    public var motionConfidencePct: UInt32?
    /// Building floor, 0 = the building's ground floor, -200 ... 300.
    public var floor: Int32?
    /// Age of the fix when recorded, ms.
    public var ageMs: UInt32?
    /// Flagged by the OS as coming from a mock provider.
    public var isMock: Bool = false
    /// Height above the WGS84 ellipsoid, cm.
    public var ellipsoidalHeightCm: Int32?
    /// Barometric pressure, hPa, as the IEEE 754 binary32 bit pattern, so that equality is bit-exact (NaN
    /// payloads and -0.0 survive a round trip and compare equal to themselves).
    public var pressureHpaBits: UInt32?
    public var unknownFields = UnknownFields()

    public init() {}

    /// Barometric pressure, hPa, 100 ... 1200.
    public var pressureHpa: Float? {
        get { pressureHpaBits.map(Float.init(bitPattern:)) }
        set { pressureHpaBits = newValue?.bitPattern }
    }

    public mutating func decodeFields(from reader: inout WireReader) throws(DecodingError) {
        if var scanner = reader.fastFieldScanner() {
            if decodeFieldsFast(&scanner) {
                reader.skipToMessageEnd()
                return
            }
            reader.resume(at: scanner.fieldStart)
        }
        try decodeFieldsCarefully(from: &reader)
    }

    /// The decoder that checks everything and explains what is wrong; ``decodeFields(from:)`` falls back to it
    /// (and tests compare the two).
    package mutating func decodeFieldsCarefully(from reader: inout WireReader) throws(DecodingError) {
        var key: FieldKey = 0
        do {
            while !reader.isAtEnd {
                key = 0
                key = try reader.readTag()
                switch key {
                case 0x08: sequence = try reader.readVarint()
                case 0x10: timeMs = Int64(bitPattern: try reader.readVarint())
                case 0x1D: latitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case 0x25: longitudeE7 = Int32(bitPattern: try reader.readFixed32())
                case 0x28: horizontalAccuracyCm = try reader.readUInt32()
                case 0x30: altitudeCm = try reader.readSInt32()
                case 0x38: verticalAccuracyCm = try reader.readUInt32()
                case 0x40: speedCmS = try reader.readUInt32()
                case 0x48: speedAccuracyCmS = try reader.readUInt32()
                case 0x50: courseCdeg = try reader.readUInt32()
                case 0x58: courseAccuracyCdeg = try reader.readUInt32()
                case 0x60: elapsedRealtimeMs = try reader.readVarint()
                case 0x68: reason = FixReason(rawValue: try reader.readInt32())
                case 0x70: source = FixSource(rawValue: try reader.readInt32())
                case 0x78: batteryPercent = try reader.readUInt32()
                case 0x80: batteryState = BatteryState(rawValue: try reader.readInt32())
                case 0x88: motionActivity = MotionActivity(rawValue: try reader.readInt32())
                case 0x90: motionConfidencePct = try reader.readUInt32()
                case 0x98: floor = try reader.readSInt32()
                case 0xA0: ageMs = try reader.readUInt32()
                case 0xA8: isMock = try reader.readBool()
                case 0xB0: ellipsoidalHeightCm = try reader.readSInt32()
                case 0xBD: pressureHpaBits = try reader.readFixed32()
                default: try reader.readUnknownField(key, into: &unknownFields)
                }
            }
        } catch {
            throw error.inField(key, of: Self.schema)
        }
    }

    /// The fast path of ``decodeFields(from:)`` (see ``FastFieldScanner``): true when it decoded the whole fix;
    /// false hands over to the careful decoder, which goes on from the start of the field the fast path stopped at.
    @inline(__always)
    private mutating func decodeFieldsFast(_ scanner: inout FastFieldScanner) -> Bool {
        while let key = scanner.nextKey() {
            switch key {
            case 0x08:
                guard let value = scanner.varint() else { return false }
                sequence = value
            case 0x10:
                guard let value = scanner.varint() else { return false }
                timeMs = Int64(bitPattern: value)
            case 0x1D: latitudeE7 = Int32(bitPattern: scanner.fixed32())
            case 0x25: longitudeE7 = Int32(bitPattern: scanner.fixed32())
            case 0x28:
                guard let value = scanner.varint() else { return false }
                horizontalAccuracyCm = UInt32(truncatingIfNeeded: value)
            case 0x30:
                guard let value = scanner.varint() else { return false }
                altitudeCm = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case 0x38:
                guard let value = scanner.varint() else { return false }
                verticalAccuracyCm = UInt32(truncatingIfNeeded: value)
            case 0x40:
                guard let value = scanner.varint() else { return false }
                speedCmS = UInt32(truncatingIfNeeded: value)
            case 0x48:
                guard let value = scanner.varint() else { return false }
                speedAccuracyCmS = UInt32(truncatingIfNeeded: value)
            case 0x50:
                guard let value = scanner.varint() else { return false }
                courseCdeg = UInt32(truncatingIfNeeded: value)
            case 0x58:
                guard let value = scanner.varint() else { return false }
                courseAccuracyCdeg = UInt32(truncatingIfNeeded: value)
            case 0x60:
                guard let value = scanner.varint() else { return false }
                elapsedRealtimeMs = value
            case 0x68:
                guard let value = scanner.varint() else { return false }
                reason = FixReason(rawValue: Int32(truncatingIfNeeded: value))
            case 0x70:
                guard let value = scanner.varint() else { return false }
                source = FixSource(rawValue: Int32(truncatingIfNeeded: value))
            case 0x78:
                guard let value = scanner.varint() else { return false }
                batteryPercent = UInt32(truncatingIfNeeded: value)
            case 0x80:
                guard let value = scanner.varint() else { return false }
                batteryState = BatteryState(rawValue: Int32(truncatingIfNeeded: value))
            case 0x88:
                guard let value = scanner.varint() else { return false }
                motionActivity = MotionActivity(rawValue: Int32(truncatingIfNeeded: value))
            case 0x90:
                guard let value = scanner.varint() else { return false }
                motionConfidencePct = UInt32(truncatingIfNeeded: value)
            case 0x98:
                guard let value = scanner.varint() else { return false }
                floor = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case 0xA0:
                guard let value = scanner.varint() else { return false }
                ageMs = UInt32(truncatingIfNeeded: value)
            case 0xA8:
                guard let value = scanner.varint() else { return false }
                isMock = value != 0
            case 0xB0:
                guard let value = scanner.varint() else { return false }
                ellipsoidalHeightCm = ZigZag.decode(UInt32(truncatingIfNeeded: value))
            case 0xBD: pressureHpaBits = scanner.fixed32()
            default: return false
            }
        }
        return scanner.isAtMessageEnd
    }

    /// The largest encoding of the known fields: 23 fields, each at most a 2-byte key and a 10-byte varint.
    static let maxKnownFieldsSize = 23 * 12

    public func encodeFields(to writer: inout WireWriter) {
        withUnsafePointer(to: self) { Self.encodeFields(at: $0, to: &writer) }
    }

    /// Encodes the fix at `fix` reading each field in place: a batch encodes its fixes through this, because
    /// calling ``encodeFields(to:)`` on an array element copies the whole fix first (a retain and a release
    /// included), which cost a fifth of the encoding time.
    @inline(__always)
    static func encodeFields(at fix: UnsafePointer<LocationFix>, to writer: inout WireWriter) {
        var out = writer.beginBounded(maxByteCount: maxKnownFieldsSize)
        if fix.pointee.sequence != 0 { out.writeVarintField(0x08, fix.pointee.sequence) }
        if fix.pointee.timeMs != 0 { out.writeVarintField(0x10, UInt64(bitPattern: fix.pointee.timeMs)) }
        if let latitudeE7 = fix.pointee.latitudeE7 { out.writeFixed32Field(0x1D, UInt32(bitPattern: latitudeE7)) }
        if let longitudeE7 = fix.pointee.longitudeE7 { out.writeFixed32Field(0x25, UInt32(bitPattern: longitudeE7)) }
        if let horizontalAccuracyCm = fix.pointee.horizontalAccuracyCm { out.writeVarintField(0x28, UInt64(horizontalAccuracyCm)) }
        if let altitudeCm = fix.pointee.altitudeCm { out.writeSInt32Field(0x30, altitudeCm) }
        if let verticalAccuracyCm = fix.pointee.verticalAccuracyCm { out.writeVarintField(0x38, UInt64(verticalAccuracyCm)) }
        if let speedCmS = fix.pointee.speedCmS { out.writeVarintField(0x40, UInt64(speedCmS)) }
        if let speedAccuracyCmS = fix.pointee.speedAccuracyCmS { out.writeVarintField(0x48, UInt64(speedAccuracyCmS)) }
        if let courseCdeg = fix.pointee.courseCdeg { out.writeVarintField(0x50, UInt64(courseCdeg)) }
        if let courseAccuracyCdeg = fix.pointee.courseAccuracyCdeg { out.writeVarintField(0x58, UInt64(courseAccuracyCdeg)) }
        if let elapsedRealtimeMs = fix.pointee.elapsedRealtimeMs { out.writeVarintField(0x60, elapsedRealtimeMs) }
        if fix.pointee.reason.rawValue != 0 { out.writeInt32Field(0x68, fix.pointee.reason.rawValue) }
        if fix.pointee.source.rawValue != 0 { out.writeInt32Field(0x70, fix.pointee.source.rawValue) }
        if let batteryPercent = fix.pointee.batteryPercent { out.writeVarintField(0x78, UInt64(batteryPercent)) }
        if fix.pointee.batteryState.rawValue != 0 { out.writeInt32Field(0x80, fix.pointee.batteryState.rawValue) }
        if fix.pointee.motionActivity.rawValue != 0 { out.writeInt32Field(0x88, fix.pointee.motionActivity.rawValue) }
        if let motionConfidencePct = fix.pointee.motionConfidencePct { out.writeVarintField(0x90, UInt64(motionConfidencePct)) }
        if let floor = fix.pointee.floor { out.writeSInt32Field(0x98, floor) }
        if let ageMs = fix.pointee.ageMs { out.writeVarintField(0xA0, UInt64(ageMs)) }
        if fix.pointee.isMock { out.writeBoolField(0xA8, true) }
        if let ellipsoidalHeightCm = fix.pointee.ellipsoidalHeightCm { out.writeSInt32Field(0xB0, ellipsoidalHeightCm) }
        if let pressureHpaBits = fix.pointee.pressureHpaBits { out.writeFixed32Field(0xBD, pressureHpaBits) }
        writer.commit(out)
        writer.writeUnknownFields(fix.pointee.unknownFields)
    }

    public static let schema = MessageSchema(
        "locationwire.v1.LocationFix",
        fields: [
            FieldSchema(1, "sequence", .uint64),
            FieldSchema(2, "time_ms", .int64),
            FieldSchema(3, "latitude_e7", .sfixed32, .optional),
            FieldSchema(4, "longitude_e7", .sfixed32, .optional),
            FieldSchema(5, "horizontal_accuracy_cm", .uint32, .optional),
            FieldSchema(6, "altitude_cm", .sint32, .optional),
            FieldSchema(7, "vertical_accuracy_cm", .uint32, .optional),
            FieldSchema(8, "speed_cm_s", .uint32, .optional),
            FieldSchema(9, "speed_accuracy_cm_s", .uint32, .optional),
            FieldSchema(10, "course_cdeg", .uint32, .optional),
            FieldSchema(11, "course_accuracy_cdeg", .uint32, .optional),
            FieldSchema(12, "elapsed_realtime_ms", .uint64, .optional),
            FieldSchema(13, "reason", .enumeration(FixReason.schema)),
            FieldSchema(14, "source", .enumeration(FixSource.schema)),
            FieldSchema(15, "battery_percent", .uint32, .optional),
            FieldSchema(16, "battery_state", .enumeration(BatteryState.schema)),
            FieldSchema(17, "motion_activity", .enumeration(MotionActivity.schema)),
            FieldSchema(18, "motion_confidence_pct", .uint32, .optional),
            FieldSchema(19, "floor", .sint32, .optional),
            FieldSchema(20, "age_ms", .uint32, .optional),
            FieldSchema(21, "is_mock", .bool),
            FieldSchema(22, "ellipsoidal_height_cm", .sint32, .optional),
            FieldSchema(23, "pressure_hpa", .float, .optional),
        ])
}
