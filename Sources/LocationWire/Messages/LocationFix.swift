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
    /// The boot `elapsedRealtimeMs` was read in (a random per-boot id); 0 = the enclosing batch's `bootId`.
    public var bootId: UInt64 = 0
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

    /// The largest encoding of the known fields, every field present at its longest, from the field list.
    static let maxKnownFieldsSize = Field.maxScalarFieldsEncodedSize!

    public func encodeFields(to writer: inout WireWriter) {
        withUnsafePointer(to: self) {
            Self.encodeFields(at: $0, to: &writer, maxKnownFieldsSize: Self.maxKnownFieldsSize)
        }
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

    /// The fields of `locationwire.v1.LocationFix`, as `proto/` declares them (see ``MessageFields``).
    public enum Field: MessageFields {
        case sequence, timeMs, latitudeE7, longitudeE7, horizontalAccuracyCm, altitudeCm,
            verticalAccuracyCm, speedCmS, speedAccuracyCmS, courseCdeg, courseAccuracyCdeg,
            elapsedRealtimeMs, reason, source, batteryPercent, batteryState, motionActivity,
            motionConfidencePct, floor, ageMs, isMock, ellipsoidalHeightCm, pressureHpa, bootId

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .sequence: FieldDeclaration(1, "sequence", .uint64)
            case .timeMs: FieldDeclaration(2, "time_ms", .int64)
            case .latitudeE7: FieldDeclaration(3, "latitude_e7", .sfixed32, .optional)
            case .longitudeE7: FieldDeclaration(4, "longitude_e7", .sfixed32, .optional)
            case .horizontalAccuracyCm: FieldDeclaration(5, "horizontal_accuracy_cm", .uint32, .optional)
            case .altitudeCm: FieldDeclaration(6, "altitude_cm", .sint32, .optional)
            case .verticalAccuracyCm: FieldDeclaration(7, "vertical_accuracy_cm", .uint32, .optional)
            case .speedCmS: FieldDeclaration(8, "speed_cm_s", .uint32, .optional)
            case .speedAccuracyCmS: FieldDeclaration(9, "speed_accuracy_cm_s", .uint32, .optional)
            case .courseCdeg: FieldDeclaration(10, "course_cdeg", .uint32, .optional)
            case .courseAccuracyCdeg: FieldDeclaration(11, "course_accuracy_cdeg", .uint32, .optional)
            case .elapsedRealtimeMs: FieldDeclaration(12, "elapsed_realtime_ms", .uint64, .optional)
            case .reason: FieldDeclaration(13, "reason", .enumeration(FixReason.self))
            case .source: FieldDeclaration(14, "source", .enumeration(FixSource.self))
            case .batteryPercent: FieldDeclaration(15, "battery_percent", .uint32, .optional)
            case .batteryState: FieldDeclaration(16, "battery_state", .enumeration(BatteryState.self))
            case .motionActivity:
                FieldDeclaration(17, "motion_activity", .enumeration(MotionActivity.self))
            case .motionConfidencePct: FieldDeclaration(18, "motion_confidence_pct", .uint32, .optional)
            case .floor: FieldDeclaration(19, "floor", .sint32, .optional)
            case .ageMs: FieldDeclaration(20, "age_ms", .uint32, .optional)
            case .isMock: FieldDeclaration(21, "is_mock", .bool)
            case .ellipsoidalHeightCm: FieldDeclaration(22, "ellipsoidal_height_cm", .sint32, .optional)
            case .pressureHpa: FieldDeclaration(23, "pressure_hpa", .float, .optional)
            case .bootId: FieldDeclaration(24, "boot_id", .fixed64)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.v1.LocationFix", fields: Field.self)
}

// MARK: - Compact columns

extension LocationFix {
    /// The value of `field` as a ``CompactFixes`` column integer: 64-bit unsigned fields and the float by their
    /// bit patterns; nil when the field is absent (explicit presence only; implicit fields always have a value).
    func columnValue(_ field: Field) -> Int64? {
        switch field {
        case .sequence: Int64(bitPattern: sequence)
        case .timeMs: timeMs
        case .latitudeE7: latitudeE7.map(Int64.init)
        case .longitudeE7: longitudeE7.map(Int64.init)
        case .horizontalAccuracyCm: horizontalAccuracyCm.map(Int64.init)
        case .altitudeCm: altitudeCm.map(Int64.init)
        case .verticalAccuracyCm: verticalAccuracyCm.map(Int64.init)
        case .speedCmS: speedCmS.map(Int64.init)
        case .speedAccuracyCmS: speedAccuracyCmS.map(Int64.init)
        case .courseCdeg: courseCdeg.map(Int64.init)
        case .courseAccuracyCdeg: courseAccuracyCdeg.map(Int64.init)
        case .elapsedRealtimeMs: elapsedRealtimeMs.map { Int64(bitPattern: $0) }
        case .reason: Int64(reason.rawValue)
        case .source: Int64(source.rawValue)
        case .batteryPercent: batteryPercent.map(Int64.init)
        case .batteryState: Int64(batteryState.rawValue)
        case .motionActivity: Int64(motionActivity.rawValue)
        case .motionConfidencePct: motionConfidencePct.map(Int64.init)
        case .floor: floor.map(Int64.init)
        case .ageMs: ageMs.map(Int64.init)
        case .isMock: isMock ? 1 : 0
        case .ellipsoidalHeightCm: ellipsoidalHeightCm.map(Int64.init)
        case .pressureHpa: pressureHpaBits.map(Int64.init)
        case .bootId: Int64(bitPattern: bootId)
        }
    }

    /// Stores `count` column values of `field`, `value(0)` to `value(count - 1)`, into the rows at `rows`, one a
    /// row, and returns whether every value fits the field's type. The check has no branch per value (misfits
    /// are or-ed together and tested once), so a value that does not fit is stored truncated: a caller that gets
    /// false must drop the rows. One loop per field, chosen once per column.
    @inline(__always)
    static func storeColumn(
        _ field: Field, of rows: UnsafeMutablePointer<LocationFix>, count: Int, _ value: (Int) -> Int64
    ) -> Bool {
        var misfit: UInt64 = 0
        @inline(__always) func each(_ store: (UnsafeMutablePointer<LocationFix>, Int64) -> Void) {
            for index in 0..<count { store(rows + index, value(index)) }
        }
        @inline(__always) func int32(_ value: Int64) -> Int32 {
            misfit |= UInt64(bitPattern: value &- Int64(Int32(truncatingIfNeeded: value)))
            return Int32(truncatingIfNeeded: value)
        }
        @inline(__always) func uint32(_ value: Int64) -> UInt32 {
            misfit |= UInt64(bitPattern: value) >> 32
            return UInt32(truncatingIfNeeded: value)
        }
        @inline(__always) func bool(_ value: Int64) -> Bool {
            misfit |= UInt64(bitPattern: value) >> 1
            return value != 0
        }
        switch field {
        case .sequence: each { $0.pointee.sequence = UInt64(bitPattern: $1) }
        case .timeMs: each { $0.pointee.timeMs = $1 }
        case .latitudeE7: each { $0.pointee.latitudeE7 = int32($1) }
        case .longitudeE7: each { $0.pointee.longitudeE7 = int32($1) }
        case .horizontalAccuracyCm: each { $0.pointee.horizontalAccuracyCm = uint32($1) }
        case .altitudeCm: each { $0.pointee.altitudeCm = int32($1) }
        case .verticalAccuracyCm: each { $0.pointee.verticalAccuracyCm = uint32($1) }
        case .speedCmS: each { $0.pointee.speedCmS = uint32($1) }
        case .speedAccuracyCmS: each { $0.pointee.speedAccuracyCmS = uint32($1) }
        case .courseCdeg: each { $0.pointee.courseCdeg = uint32($1) }
        case .courseAccuracyCdeg: each { $0.pointee.courseAccuracyCdeg = uint32($1) }
        case .elapsedRealtimeMs: each { $0.pointee.elapsedRealtimeMs = UInt64(bitPattern: $1) }
        case .reason: each { $0.pointee.reason = FixReason(rawValue: int32($1)) }
        case .source: each { $0.pointee.source = FixSource(rawValue: int32($1)) }
        case .batteryPercent: each { $0.pointee.batteryPercent = uint32($1) }
        case .batteryState: each { $0.pointee.batteryState = BatteryState(rawValue: int32($1)) }
        case .motionActivity: each { $0.pointee.motionActivity = MotionActivity(rawValue: int32($1)) }
        case .motionConfidencePct: each { $0.pointee.motionConfidencePct = uint32($1) }
        case .floor: each { $0.pointee.floor = int32($1) }
        case .ageMs: each { $0.pointee.ageMs = uint32($1) }
        case .isMock: each { $0.pointee.isMock = bool($1) }
        case .ellipsoidalHeightCm: each { $0.pointee.ellipsoidalHeightCm = int32($1) }
        case .pressureHpa: each { $0.pointee.pressureHpaBits = uint32($1) }
        case .bootId: each { $0.pointee.bootId = UInt64(bitPattern: $1) }
        }
        return misfit == 0
    }

    /// Stores the values of column `field` into `rows`, each checked to fit the field's type. One loop per field,
    /// so the field is chosen once per column, not once per value.
    static func fillColumn(
        _ field: Field, of rows: UnsafeMutableBufferPointer<LocationFix>, from column: FixColumn
    ) throws(CompactFixesError) {
        switch field {
        case .sequence:
            try column.forEachValue(of: field, as: Int64.self) {
                rows[$0].sequence = UInt64(bitPattern: $1)
            }
        case .timeMs: try column.forEachValue(of: field, as: Int64.self) { rows[$0].timeMs = $1 }
        case .latitudeE7:
            try column.forEachValue(of: field, as: Int32.self) { rows[$0].latitudeE7 = $1 }
        case .longitudeE7:
            try column.forEachValue(of: field, as: Int32.self) { rows[$0].longitudeE7 = $1 }
        case .horizontalAccuracyCm:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].horizontalAccuracyCm = $1 }
        case .altitudeCm:
            try column.forEachValue(of: field, as: Int32.self) { rows[$0].altitudeCm = $1 }
        case .verticalAccuracyCm:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].verticalAccuracyCm = $1 }
        case .speedCmS: try column.forEachValue(of: field, as: UInt32.self) { rows[$0].speedCmS = $1 }
        case .speedAccuracyCmS:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].speedAccuracyCmS = $1 }
        case .courseCdeg:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].courseCdeg = $1 }
        case .courseAccuracyCdeg:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].courseAccuracyCdeg = $1 }
        case .elapsedRealtimeMs:
            try column.forEachValue(of: field, as: Int64.self) {
                rows[$0].elapsedRealtimeMs = UInt64(bitPattern: $1)
            }
        case .reason:
            try column.forEachValue(of: field, as: Int32.self) {
                rows[$0].reason = FixReason(rawValue: $1)
            }
        case .source:
            try column.forEachValue(of: field, as: Int32.self) {
                rows[$0].source = FixSource(rawValue: $1)
            }
        case .batteryPercent:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].batteryPercent = $1 }
        case .batteryState:
            try column.forEachValue(of: field, as: Int32.self) {
                rows[$0].batteryState = BatteryState(rawValue: $1)
            }
        case .motionActivity:
            try column.forEachValue(of: field, as: Int32.self) {
                rows[$0].motionActivity = MotionActivity(rawValue: $1)
            }
        case .motionConfidencePct:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].motionConfidencePct = $1 }
        case .floor: try column.forEachValue(of: field, as: Int32.self) { rows[$0].floor = $1 }
        case .ageMs: try column.forEachValue(of: field, as: UInt32.self) { rows[$0].ageMs = $1 }
        case .isMock: try column.forEachValue(of: field, as: Bool.self) { rows[$0].isMock = $1 }
        case .ellipsoidalHeightCm:
            try column.forEachValue(of: field, as: Int32.self) { rows[$0].ellipsoidalHeightCm = $1 }
        case .pressureHpa:
            try column.forEachValue(of: field, as: UInt32.self) { rows[$0].pressureHpaBits = $1 }
        case .bootId:
            try column.forEachValue(of: field, as: Int64.self) { rows[$0].bootId = UInt64(bitPattern: $1) }
        }
    }
}
