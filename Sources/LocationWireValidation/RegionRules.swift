import LocationWire
import LocationWireGeometry

extension Region: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        var wellFormedParentId = ""
        validate(into: &report, at: path(), wellFormedParentId: &wellFormedParentId)
    }

    /// The rules, with `wellFormedParentId` a parent id already found well formed (empty for none): siblings name
    /// the same parent, usually in one shared string, and an equal string needs no second look at its bytes. Set to
    /// this region's parent id when it is found well formed.
    func validate(
        into report: inout ValidationReport, at path: @autoclosure () -> FieldPath, wellFormedParentId: inout String
    ) {
        report.checkRegionId(id, path().appending(field: "id"), required: true)
        report.require(version != 0, path().appending(field: "version"), "a version")
        if let circle {
            circle.validate(into: &report, at: path().appending(field: "circle"))
        } else {
            report.add(.requiredFieldMissing, path().appending(field: "circle"), "a circle is required")
        }
        if polygon != nil {  // read in place: `if let` copied the polygon
            polygon!.validate(into: &report, at: path().appending(field: "polygon"))
            if let circle {
                checkPolygon(polygon!, inside: circle, into: &report, at: path().appending(field: "polygon"))
            }
        }
        report.require(level != .unspecified, path().appending(field: "level"), "a level")
        if !parentId.isEmpty {
            // `==` alone is not enough: a string can equal a well-formed id and still be malformed ("b:\u{212A}",
            // KELVIN SIGN, equals "b:K"). A well-formed id is ASCII, and a string equal to an ASCII one with as many
            // UTF-8 bytes is the same bytes: a character that decomposes into ASCII is itself two bytes or more.
            if parentId != wellFormedParentId || parentId.utf8.count != wellFormedParentId.utf8.count {
                if ValidationReport.isWellFormedRegionId(parentId) {
                    wellFormedParentId = parentId
                } else {
                    report.checkRegionId(parentId, path().appending(field: "parent_id"), required: false)
                }
            }
            if parentId == id {
                report.add(.parentIsSelf, path().appending(field: "parent_id"), "a region cannot enclose itself")
            }
        }
        if !notifyOnEntry, !notifyOnExit, !notifyOnDwell {
            report.add(.noTransition, path().appending(field: "notify_on_entry"), "the region notifies on nothing")
        }
        if notifyOnDwell {
            if loiteringDelayMs == 0 {
                report.add(
                    .requiredFieldMissing, path().appending(field: "loitering_delay_ms"),
                    "a dwell region needs a loitering delay")
            } else {
                report.checkRange(
                    loiteringDelayMs, 1_000...86_400_000, path().appending(field: "loitering_delay_ms"), unit: " ms")
            }
        } else if loiteringDelayMs != 0 {
            report.add(
                .loiteringDelayWithoutDwell, path().appending(field: "loitering_delay_ms"),
                "only a dwell region has a loitering delay")
        }
        report.checkTime(expiresAtMs, path().appending(field: "expires_at_ms"))
        report.checkLength(name, max: 128, path().appending(field: "name"))
    }

    /// Every vertex within the circle (great-circle distance on the spec's sphere, 1 m of slack).
    private func checkPolygon(
        _ polygon: Polygon, inside circle: Circle, into report: inout ValidationReport,
        at path: @autoclosure () -> FieldPath
    ) {
        guard let centerLatitude = circle.centerLatitudeE7, let centerLongitude = circle.centerLongitudeE7,
            circle.radiusM > 0
        else { return }
        var cap = Geodesy.Cap(
            centreLatitudeE7: centerLatitude, centreLongitudeE7: centerLongitude, spanM: Double(circle.radiusM) + 1)
        // Over the buffers: the list's subscript checks its bounds on every read.
        polygon.latitudesE7.withUnsafeBufferPointer { latitudes in
            polygon.longitudesE7.withUnsafeBufferPointer { longitudes in
                for index in 0..<min(latitudes.count, longitudes.count) {
                    guard let chord = cap.chordBeyondLimit(latitudeE7: latitudes[index], longitudeE7: longitudes[index])
                    else { continue }
                    let distance = Geodesy.approximateDistanceM(chord: chord)
                    report.add(
                        .polygonOutsideCircle, path().appending(field: "latitudes_e7").appending(index: index),
                        "vertex \(index) lies about \(Int(distance)) m from the centre, beyond the \(circle.radiusM) m "
                            + "radius")
                }
            }
        }
    }
}

extension Circle: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.checkLatitude(centerLatitudeE7, path().appending(field: "center_latitude_e7"), required: true)
        report.checkLongitude(centerLongitudeE7, path().appending(field: "center_longitude_e7"), required: true)
        if radiusM == 0 {
            report.add(.requiredFieldMissing, path().appending(field: "radius_m"), "a radius is required")
        } else {
            report.checkRange(radiusM, 1...1_000_000, path().appending(field: "radius_m"), unit: " m")
        }
    }
}

extension Polygon: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        if latitudesE7.count != longitudesE7.count {
            report.add(
                .polygonLengthMismatch, path().appending(field: "longitudes_e7"),
                "\(latitudesE7.count) latitudes but \(longitudesE7.count) longitudes")
        }
        if latitudesE7.count < 3 {
            report.add(
                .polygonTooFewVertices, path().appending(field: "latitudes_e7"),
                "\(latitudesE7.count) vertices, at least 3 needed")
        } else if latitudesE7.count > 1000 {
            report.add(
                .polygonTooManyVertices, path().appending(field: "latitudes_e7"),
                "\(latitudesE7.count) vertices, at most 1000 allowed")
        }
        for (index, latitude) in latitudesE7.enumerated() {
            report.checkLatitude(
                latitude, path().appending(field: "latitudes_e7").appending(index: index), required: true)
        }
        for (index, longitude) in longitudesE7.enumerated() {
            report.checkLongitude(
                longitude, path().appending(field: "longitudes_e7").appending(index: index), required: true)
        }
    }
}

extension RegionAssignment: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(assignmentVersion != 0, path().appending(field: "assignment_version"), "an assignment version")
        report.requireTime(issuedAtMs, path().appending(field: "issued_at_ms"))
        report.checkTime(expiresAtMs, path().appending(field: "expires_at_ms"))
        if expiresAtMs != 0, issuedAtMs != 0, expiresAtMs <= issuedAtMs {
            report.add(
                .expiresBeforeIssued, path().appending(field: "expires_at_ms"),
                "the assignment expires before it is issued")
        }
        report.require(mode != .unspecified, path().appending(field: "mode"), "a mode")
        report.require(slotBudget != 0, path().appending(field: "slot_budget"), "a slot budget")
        switch mode {
        case .fullReplacement:
            if baseVersion != 0 {
                report.add(
                    .baseVersionInFull, path().appending(field: "base_version"),
                    "a full replacement has no base version")
            }
            if !removedRegionIds.isEmpty {
                report.add(
                    .removalsInFull, path().appending(field: "removed_region_ids"),
                    "a full replacement lists no removals")
            }
        case .delta:
            if baseVersion == 0 {
                report.add(
                    .requiredFieldMissing, path().appending(field: "base_version"), "a delta needs a base version")
            } else if assignmentVersion != 0, baseVersion >= assignmentVersion {
                // Without an assignment version (required-field-missing) there is nothing to compare with.
                report.add(
                    .baseVersionNotOlder, path().appending(field: "base_version"),
                    "base version \(baseVersion) is not older than \(assignmentVersion)")
            }
        default:
            break
        }
        // A full replacement is the whole set; a delta's upserts alone are part of the set it produces.
        if mode == .fullReplacement || mode == .delta, slotBudget != 0, regions.count > Int(slotBudget) {
            report.add(
                .regionCountExceedsBudget, path().appending(field: "regions"),
                "\(regions.count) \(mode == .delta ? "upserted " : "")regions for a budget of \(slotBudget) slots")
        }
        let regionIds = RegionIdIndex(regions)
        // By index, not by element: a copy of each region would retain and release every string and array in it.
        var wellFormedParentId = ""
        for index in regions.indices {
            regions[index].validate(
                into: &report, at: path().appending(field: "regions").appending(index: index),
                wellFormedParentId: &wellFormedParentId)
            if regionIds.hasEarlierRegion(withIdOf: index) {
                report.add(
                    .duplicateRegionId,
                    path().appending(field: "regions").appending(index: index).appending(field: "id"),
                    "\"\(regions[index].id)\" appears more than once")
            }
        }
        // A region without parent_id has none (even when another region's id is empty); the parent is the last
        // region of the assignment with that id.
        // Siblings usually follow each other: the last lookup answers the next one with the same parent id.
        var lastLookup: (parentId: String, index: Int?)? = nil
        for index in regions.indices {
            let parentId = regions[index].parentId
            guard !parentId.isEmpty, parentId != regions[index].id else { continue }
            let found = lastLookup?.parentId == parentId ? lastLookup!.index : regionIds.lastRegion(withId: parentId)
            lastLookup = (parentId, found)
            guard let parentIndex = found else { continue }
            // In place: a copy of the region and of its parent would retain and release every string and list.
            let level = regions[index].level
            let parentLevel = regions[parentIndex].level
            let regionPath = path().appending(field: "regions").appending(index: index)
            // Levels are compared only when both are set and known to this revision: an unset level is
            // required-field-missing, an unknown one has no place in the order.
            if Self.isComparable(parentLevel), Self.isComparable(level), parentLevel.rawValue >= level.rawValue {
                report.add(
                    .parentLevelNotCoarser, regionPath.appending(field: "parent_id"),
                    "parent \"\(parentId)\" is at level \(parentLevel), not coarser than \(level)")
            }
            if let circle = regions[index].circle, let parentCircle = regions[parentIndex].circle {
                checkChild(circle, within: parentCircle, of: parentId, into: &report, at: regionPath)
            }
        }
        for (index, id) in removedRegionIds.enumerated() {
            report.checkRegionId(
                id, path().appending(field: "removed_region_ids").appending(index: index), required: true)
            if mode == .delta, regionIds.lastRegion(withId: id) != nil {
                report.add(
                    .regionRemovedAndUpserted, path().appending(field: "removed_region_ids").appending(index: index),
                    "\"\(id)\" is both removed and upserted")
            }
        }
        report.checkUnique(removedRegionIds, path().appending(field: "removed_region_ids"))
        refresh?.validate(into: &report, at: path().appending(field: "refresh"))
    }
}

/// Where each id lies among an assignment's regions, for `duplicate-region-id`, the parent lookup and
/// `region-removed-and-upserted`, with the equality of `String` (canonical equivalence) as a dictionary has it.
///
/// A dictionary hashes each id with a seeded SipHash, which cost more than the rest of validating a 20-region
/// assignment. Up to `scanLimit` regions whose ids are all ASCII (every well-formed id is), a scan over 64-bit
/// FNV-1a fingerprints of the bytes does it, comparing the strings only where the fingerprints match: at most
/// `scanLimit`² comparisons whatever the ids, so a crafted collision costs little. ASCII strings are equal exactly
/// when their bytes are; a non-ASCII id may still equal an ASCII one (U+212A KELVIN SIGN is canonically K), so
/// a lookup for one compares every string. Otherwise, the dictionary.
private struct RegionIdIndex {
    private static let scanLimit = 64
    private let regions: [Region]
    /// The fingerprint of each region's id; nil beyond `scanLimit` regions or with a non-ASCII id.
    private let fingerprints: [UInt64]?
    /// The first and the last region with each id, when `fingerprints` is nil.
    private let firstAndLast: [String: (first: Int, last: Int)]

    init(_ regions: [Region]) {
        self.regions = regions
        var fingerprints: [UInt64]? = nil
        if regions.count <= Self.scanLimit {
            fingerprints = []
            fingerprints!.reserveCapacity(regions.count)
            // By index: `for region in regions` copied each region (and retained all it holds) to read its id.
            for index in regions.indices {
                guard let fingerprint = Self.asciiFingerprint(regions[index].id) else {
                    fingerprints = nil
                    break
                }
                fingerprints!.append(fingerprint)
            }
        }
        self.fingerprints = fingerprints
        var firstAndLast: [String: (first: Int, last: Int)] = [:]
        if fingerprints == nil {
            for (index, region) in regions.enumerated() {
                firstAndLast[region.id, default: (index, index)].last = index
            }
        }
        self.firstAndLast = firstAndLast
    }

    /// True when a region before `index` has the same id.
    func hasEarlierRegion(withIdOf index: Int) -> Bool {
        guard let fingerprints else { return firstAndLast[regions[index].id]!.first < index }
        let fingerprint = fingerprints[index]
        for earlier in 0..<index where fingerprints[earlier] == fingerprint && regions[earlier].id == regions[index].id
        {
            return true
        }
        return false
    }

    /// The last region with this id.
    func lastRegion(withId id: String) -> Int? {
        guard let fingerprints else { return firstAndLast[id]?.last }
        guard let fingerprint = Self.asciiFingerprint(id) else {
            return regions.lastIndex { $0.id == id }
        }
        for index in fingerprints.indices.reversed() where fingerprints[index] == fingerprint && regions[index].id == id
        {
            return index
        }
        return nil
    }

    /// 64-bit FNV-1a over the UTF-8 bytes of an ASCII string; nil for any other.
    private static func asciiFingerprint(_ id: String) -> UInt64? {
        func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64? {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var union: UInt8 = 0
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
                union |= byte
            }
            return union < 0x80 ? hash : nil
        }
        return id.utf8.withContiguousStorageIfAvailable(hash) ?? hash(id.utf8)
    }
}

extension RegionAssignment {
    /// A level that takes part in `parent-level-not-coarser`: set and known to this revision (COUNTRY, the
    /// coarsest, to SITE, the finest).
    private static func isComparable(_ level: RegionLevel) -> Bool {
        level.isKnown && level != .unspecified
    }

    /// A child within its parent: centre distance plus the child's radius at most the parent's radius plus 1 m
    /// (great-circle distance on the spec's sphere). Circles without a centre or radius are reported by their
    /// own rules.
    private func checkChild(
        _ circle: Circle, within parent: Circle, of parentId: String, into report: inout ValidationReport,
        at path: @autoclosure () -> FieldPath
    ) {
        guard let latitude = circle.centerLatitudeE7, let longitude = circle.centerLongitudeE7,
            let parentLatitude = parent.centerLatitudeE7, let parentLongitude = parent.centerLongitudeE7,
            circle.radiusM > 0, parent.radiusM > 0
        else { return }
        let slack = Double(parent.radiusM) + 1 - Double(circle.radiusM)
        let chord: Double
        if slack < 0 {
            // A child wider than its parent is outside wherever it lies; the message still gives the distance.
            chord = Geodesy.chord(
                SpherePoint(latitudeE7: latitude, longitudeE7: longitude),
                SpherePoint(latitudeE7: parentLatitude, longitudeE7: parentLongitude))
        } else {
            var cap = Geodesy.Cap(centreLatitudeE7: parentLatitude, centreLongitudeE7: parentLongitude, spanM: slack)
            guard let beyond = cap.chordBeyondLimit(latitudeE7: latitude, longitudeE7: longitude) else { return }
            chord = beyond
        }
        report.add(
            .childOutsideParent, path().appending(field: "circle"),
            "the circle reaches about \(Int(Geodesy.approximateDistanceM(chord: chord)) + Int(circle.radiusM)) m from the centre of parent \"\(parentId)\", beyond its \(parent.radiusM) m radius"
        )
    }
}

extension RefreshPolicy: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        if let refreshDistanceM {
            report.checkRange(
                refreshDistanceM, 1...10_000_000, path().appending(field: "refresh_distance_m"), unit: " m")
            if anchorLatitudeE7 == nil || anchorLongitudeE7 == nil {
                report.add(
                    .refreshAnchorMissing,
                    path().appending(field: anchorLatitudeE7 == nil ? "anchor_latitude_e7" : "anchor_longitude_e7"),
                    "a refresh distance is measured from an anchor")
            }
        }
        report.checkLatitude(anchorLatitudeE7, path().appending(field: "anchor_latitude_e7"), required: false)
        report.checkLongitude(anchorLongitudeE7, path().appending(field: "anchor_longitude_e7"), required: false)
    }
}

extension RegionRequest: Validatable {
    public func validate(into report: inout ValidationReport, at path: @autoclosure () -> FieldPath) {
        report.require(!deviceId.isEmpty, path().appending(field: "device_id"), "a device id")
        report.checkLength(deviceId, max: 128, path().appending(field: "device_id"))
        report.require(reason != .unspecified, path().appending(field: "reason"), "a reason")
        currentFix?.validate(into: &report, at: path().appending(field: "current_fix"), requireSequence: false)
        report.require(
            platformSlotLimit != 0, path().appending(field: "platform_slot_limit"), "the platform's slot limit")
        if platformSlotLimit != 0, reservedAppSlots >= platformSlotLimit {
            report.add(
                .reservedSlotsExceedLimit, path().appending(field: "reserved_app_slots"),
                "\(reservedAppSlots) reserved of \(platformSlotLimit) slots leaves none for the server")
        }
        armed?.validate(into: &report, at: path().appending(field: "armed"))
        if reason == .refineOnEntry {
            report.checkRegionId(refineRegionId, path().appending(field: "refine_region_id"), required: true)
        } else if !refineRegionId.isEmpty {
            report.add(
                .refineRegionWithoutRefineReason, path().appending(field: "refine_region_id"),
                "only a REFINE_ON_ENTRY request names a region")
        }
        report.requireTime(sentAtMs, path().appending(field: "sent_at_ms"))
    }
}
