import LocationWire
import LocationWireGeometry

/// The device's arming order, `§arm-order` (proto/BEHAVIOR.md "Arming (device)"): which regions of the set it
/// holds it arms with its OS slots, and the `ArmedRegions` that reports it.
public enum Arming {
    /// Arms from `held`, the full set the device holds (deltas applied), with `slots` OS slots
    /// (`platform_slot_limit` − `reserved_app_slots`; below 0 is taken as 0), at `position` if known, at
    /// `nowMs` (UTC ms).
    ///
    /// Where the spec says nothing: a region held twice under one id is armed and reported once (the first),
    /// as `ArmedRegions` lists each id at most once; a region without a circle centre ranks after every region
    /// of its priority when the position is known (its gap is taken as infinite).
    public static func arm(
        _ held: RegionAssignment, slots: Int, position: SpherePoint?, nowMs: Int64
    ) -> ArmedRegions {
        var armed = ArmedRegions()
        armed.assignmentVersion = held.assignmentVersion
        if held.monitoringEnabled == false { return armed }
        if !isLive(expiresAtMs: held.expiresAtMs, nowMs: nowMs) { return armed }

        var seen = Set<String>()
        var ranked: [(region: Region, gapM: Double)] = []
        for region in held.regions
        where isLive(expiresAtMs: region.expiresAtMs, nowMs: nowMs) && seen.insert(region.id).inserted {
            var gap = 0.0
            if let position { gap = RegionShape(region)?.gapM(position) ?? .infinity }
            ranked.append((region, gap))
        }
        ranked.sort { a, b in
            if a.region.priority != b.region.priority { return a.region.priority > b.region.priority }
            // Without a position every gap is 0, so this falls through to the id.
            if a.gapM != b.gapM { return a.gapM < b.gapM }
            return idPrecedes(a.region.id, b.region.id)
        }
        let armedCount = min(max(slots, 0), ranked.count)
        armed.regionIds = ranked.prefix(armedCount).map(\.region.id)
        armed.failedRegionIds = ranked.dropFirst(armedCount).map(\.region.id)
        armed.failureReasons = Array(repeating: .slotLimit, count: armed.failedRegionIds.count)
        return armed
    }
}
