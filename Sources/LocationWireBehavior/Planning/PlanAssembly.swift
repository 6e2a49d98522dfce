import LocationWire

/// Byte order of ids, the last tie-break of `§plan-rank` and `§arm-order`. Swift's `String <` compares Unicode
/// canonical equivalents, not bytes, so every ranking here goes through this.
@inlinable func idPrecedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// A region is live at `nowMs` unless its `expires_at_ms` is above 0 and at or below now (`§plan-candidates`,
/// `§arm-order`).
@inlinable func isLive(expiresAtMs: Int64, nowMs: Int64) -> Bool {
    expiresAtMs <= 0 || expiresAtMs > nowMs
}

/// One region the planner assigned, in rank order, with what `§plan-refine` needs to know about it.
struct PlannedRegion {
    let region: Region
    let open: Bool
    let hasLiveChild: Bool
}

/// The part of planning after the ranking, shared by the indexed planner and the scan so that they can differ
/// only in how they find the candidates: `§plan-refine`, `§plan-refresh`, `§plan-expiry` and `§plan-delta`.
enum PlanAssembly {
    /// A day, ms: the longest an assignment lives (`§plan-expiry`).
    static let dayMs: Int64 = 86_400_000
    /// The clamp of `refresh_distance_m`, metres (`§plan-refresh`).
    static let refreshDistanceRangeM: ClosedRange<Double> = 100...10_000_000

    /// Catalogue entries the planners work on: the first region of each id (later duplicates dropped, since an
    /// assignment's ids are unique), and only regions with a circle centre (the OS cannot monitor anything else,
    /// and neither inside nor gap is defined without one). The spec assumes a catalogue that is already so.
    static func usable(_ catalogue: [Region]) -> [Region] {
        var seen = Set<String>()
        seen.reserveCapacity(catalogue.count)
        // The usual case: nothing to drop, and the catalogue's storage is shared rather than copied (a million
        // regions are about 200 MB).
        if catalogue.allSatisfy({ hasCircleCentre($0) && seen.insert($0.id).inserted }) { return catalogue }
        seen = []
        seen.reserveCapacity(catalogue.count)
        var usable: [Region] = []
        usable.reserveCapacity(catalogue.count)
        for region in catalogue where hasCircleCentre(region) && seen.insert(region.id).inserted {
            usable.append(region)
        }
        return usable
    }

    /// Whether ``RegionShape`` can be built: the circle and both centre coordinates are present.
    static func hasCircleCentre(_ region: Region) -> Bool {
        region.circle?.centerLatitudeE7 != nil && region.circle?.centerLongitudeE7 != nil
    }

    /// Builds the assignment from the assigned regions in rank order and the least gap, metres, among the
    /// candidates left out (nil when none was left out).
    static func assemble(
        assigned: [PlannedRegion], leftOutLeastGapM: Double?, position: (latitudeE7: Int32, longitudeE7: Int32),
        slotBudget: Int, nowMs: Int64, previous: RegionAssignment?
    ) -> RegionAssignment {
        var regions: [Region] = []
        regions.reserveCapacity(assigned.count)
        var refresh = RefreshPolicy()
        var leastRegionExpiry = Int64.max
        for planned in assigned {
            var region = planned.region
            // §plan-refine: the device asks for the finer regions when it enters one it is not yet in.
            region.refineOnEntry = planned.hasLiveChild && !planned.open
            if region.refineOnEntry { refresh.onRefineEntry = true }
            if region.expiresAtMs > 0 { leastRegionExpiry = min(leastRegionExpiry, region.expiresAtMs) }
            regions.append(region)
        }
        // §plan-refresh
        if let gap = leftOutLeastGapM {
            let half = min(
                max((gap / 2).rounded(.down), refreshDistanceRangeM.lowerBound), refreshDistanceRangeM.upperBound)
            refresh.refreshDistanceM = UInt32(half)
            refresh.anchorLatitudeE7 = position.latitudeE7
            refresh.anchorLongitudeE7 = position.longitudeE7
        }
        refresh.minIntervalMs = 0

        var assignment = RegionAssignment()
        // §plan-expiry
        assignment.issuedAtMs = nowMs
        assignment.slotBudget = UInt32(clamping: slotBudget)
        assignment.datum = .wgs84
        assignment.monitoringEnabled = nil
        let (dayLater, overflow) = nowMs.addingReportingOverflow(dayMs)
        assignment.expiresAtMs = min(overflow ? Int64.max : dayLater, leastRegionExpiry)
        assignment.refresh = refresh

        // §plan-delta
        // `§datum-default`: an unstated datum is WGS84.
        guard let previous, previous.mode == .fullReplacement,
            previous.datum == .wgs84 || previous.datum == .unspecified
        else {
            assignment.assignmentVersion = previous.map { nextVersion($0.assignmentVersion) } ?? 1
            assignment.mode = .fullReplacement
            assignment.regions = regions
            return assignment
        }
        assignment.assignmentVersion = nextVersion(previous.assignmentVersion)
        var held: [String: Region] = [:]
        held.reserveCapacity(previous.regions.count)
        for region in previous.regions where held[region.id] == nil { held[region.id] = region }
        let upserts = regions.filter { held[$0.id] != $0 }
        let assignedIds = Set(regions.map(\.id))
        let removals = Set(previous.regions.map(\.id)).subtracting(assignedIds).sorted(by: idPrecedes)
        if upserts.count + removals.count < regions.count {
            assignment.mode = .delta
            assignment.baseVersion = previous.assignmentVersion
            assignment.regions = upserts
            assignment.removedRegionIds = removals
        } else {
            assignment.mode = .fullReplacement
            assignment.regions = regions
        }
        return assignment
    }

    /// V + 1; at the very top of UInt64 it stays there (the version cannot increase further).
    static func nextVersion(_ version: UInt64) -> UInt64 {
        version == .max ? .max : version + 1
    }
}
