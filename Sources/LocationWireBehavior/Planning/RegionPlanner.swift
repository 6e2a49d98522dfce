import LocationWire
import LocationWireGeometry

/// The server's region planner (proto/BEHAVIOR.md "Region planning (server)"): from a catalogue, a position, a
/// slot budget and the time, the `RegionAssignment` of `§plan-candidates`, `§plan-rank`, `§plan-refine`,
/// `§plan-refresh`, `§plan-expiry` and `§plan-delta`.
///
/// `init` indexes the catalogue once (``RegionIndex``); `plan` then costs about the regions that can rank, not
/// the catalogue. ``planByScan(catalogue:latitudeE7:longitudeE7:slotBudget:nowMs:previous:)`` follows the spec
/// text literally over the whole catalogue; the two give identical assignments.
///
/// The catalogue is taken as the spec assumes it: unique ids, every region with a circle. Where it is not, both
/// planners keep the first region of each id and leave out regions without a circle centre.
public struct RegionPlanner: Sendable {
    let index: RegionIndex

    public init(catalogue: [Region]) {
        index = RegionIndex(catalogue: catalogue)
    }

    /// Regions the planner works on (after dropping duplicates and regions without a circle).
    public var regionCount: Int { index.regions.count }

    /// Bytes the index holds beyond the catalogue's `Region` values: circles, ids, per-region arrays, sibling
    /// groups and spatial trees. An estimate from the arrays' capacities; allocator overhead is not counted.
    public var indexMemoryBytes: Int { index.memoryBytes }

    /// Plans for a device at (`latitudeE7`, `longitudeE7`), 1e-7 degree, with `slotBudget` slots (below 0 is
    /// taken as 0), at `nowMs` (UTC ms), against the assignment it was sent last (`previous`, or nil).
    public func plan(
        latitudeE7: Int32, longitudeE7: Int32, slotBudget: Int, nowMs: Int64, previous: RegionAssignment?
    ) -> RegionAssignment {
        let budget = max(slotBudget, 0)
        let point = SpherePoint(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
        let index = self.index
        // Circles are read in place, through a buffer pointer, so that the searches do no reference counting.
        let (chosen, openSet, leastLeftOut) = index.discs.withUnsafeBufferPointer { discs in
            // §plan-candidates: the open regions, group by group from the roots down.
            var open: [Int32] = []
            var openSet = Set<Int32>()
            var visible: [(group: Int32, isRoot: Bool)] = [(index.rootGroup, true)]
            var next = 0
            while next < visible.count {
                let (group, isRoot) = visible[next]
                next += 1
                index.groups[Int(group)].all.forEachCircleContaining(point, discs: discs) { member in
                    guard index.counts(member, inRootGroup: isRoot, nowMs: nowMs),
                        RegionShape(index.regions[Int(member)])!.contains(point)
                    else { return }
                    open.append(member)
                    openSet.insert(member)
                    let children = index.childGroup[Int(member)]
                    if children >= 0 { visible.append((children, false)) }
                }
            }

            // §plan-rank: open first (all at gap 0), by priority then id; then the best of the rest of every
            // visible group, merged.
            open.sort { index.precedes($0, 0, $1, 0) }
            var chosen = open.prefix(budget).map { (member: $0, gapM: 0.0) }
            let wanted = budget - chosen.count
            if wanted > 0 {
                var rest: [(member: Int32, gapM: Double)] = []
                for (group, isRoot) in visible {
                    rest += index.groups[Int(group)].ranked(wanted, to: point, index: index, discs: discs) { member in
                        index.counts(member, inRootGroup: isRoot, nowMs: nowMs) && !openSet.contains(member)
                    }
                }
                rest.sort { index.precedes($0.member, $0.gapM, $1.member, $1.gapM) }
                chosen += rest.prefix(wanted)
            }

            // §plan-refresh: the least gap among the candidates left out. An open one left out has gap 0.
            var leastLeftOut: Double?
            if open.count > budget {
                leastLeftOut = 0
            } else {
                let chosenSet = Set(chosen.map(\.member))
                for (group, isRoot) in visible {
                    let gap = index.groups[Int(group)].all.leastGapM(to: point, discs: discs) { member in
                        index.counts(member, inRootGroup: isRoot, nowMs: nowMs) && !chosenSet.contains(member)
                    }
                    if let gap, leastLeftOut.map({ gap < $0 }) ?? true { leastLeftOut = gap }
                }
            }
            return (chosen, openSet, leastLeftOut)
        }

        let assigned = chosen.map { entry in
            PlannedRegion(
                region: index.regions[Int(entry.member)], open: openSet.contains(entry.member),
                hasLiveChild: index.hasLiveChild(entry.member, nowMs: nowMs))
        }
        return PlanAssembly.assemble(
            assigned: assigned, leftOutLeastGapM: leastLeftOut, position: (latitudeE7, longitudeE7),
            slotBudget: budget, nowMs: nowMs, previous: previous)
    }

    /// The spec's planning read literally, over the whole catalogue: live regions, the tree, the visible and
    /// open regions, every candidate ranked. The reference the indexed planner is tested and measured against.
    public static func planByScan(
        catalogue: [Region], latitudeE7: Int32, longitudeE7: Int32, slotBudget: Int, nowMs: Int64,
        previous: RegionAssignment?
    ) -> RegionAssignment {
        let budget = max(slotBudget, 0)
        let point = SpherePoint(latitudeE7: latitudeE7, longitudeE7: longitudeE7)
        // Live regions.
        let live = PlanAssembly.usable(catalogue).filter { isLive(expiresAtMs: $0.expiresAtMs, nowMs: nowMs) }
        // Tree.
        let liveIds = Set(live.map(\.id))
        var children: [String: [Region]] = [:]
        for region in live where !region.parentId.isEmpty { children[region.parentId, default: []].append(region) }
        // A region on a cycle of parents (its own parent included) is no root and no root reaches it: never
        // visible (`§plan-parent-cycle`). The indexed planner's walk from the root group agrees.
        let roots = live.filter { $0.parentId.isEmpty || !liveIds.contains($0.parentId) }
        // Open and visible.
        var candidates: [(region: Region, open: Bool, gapM: Double)] = []
        var visible = roots
        var next = 0
        while next < visible.count {
            let region = visible[next]
            next += 1
            let shape = RegionShape(region)!
            let open = shape.contains(point)
            candidates.append((region, open, shape.gapM(point)))
            if open { visible += children[region.id] ?? [] }
        }
        // Rank.
        candidates.sort { a, b in
            if a.open != b.open { return a.open }
            if a.region.priority != b.region.priority { return a.region.priority > b.region.priority }
            if a.gapM != b.gapM { return a.gapM < b.gapM }
            return idPrecedes(a.region.id, b.region.id)
        }
        let assigned = candidates.prefix(budget).map {
            PlannedRegion(region: $0.region, open: $0.open, hasLiveChild: children[$0.region.id] != nil)
        }
        let leftOut = candidates.dropFirst(budget).map(\.gapM).min()
        return PlanAssembly.assemble(
            assigned: assigned, leftOutLeastGapM: leftOut, position: (latitudeE7, longitudeE7), slotBudget: budget,
            nowMs: nowMs, previous: previous)
    }
}

extension RegionIndex {
    /// `§plan-rank` between two candidates of the same openness: priority, highest first; gap, least first; id.
    @inline(__always) func precedes(_ a: Int32, _ gapA: Double, _ b: Int32, _ gapB: Double) -> Bool {
        let priorityA = priorities[Int(a)]
        let priorityB = priorities[Int(b)]
        if priorityA != priorityB { return priorityA > priorityB }
        if gapA != gapB { return gapA < gapB }
        return idPrecedes(ids[Int(a)], ids[Int(b)])
    }
}
