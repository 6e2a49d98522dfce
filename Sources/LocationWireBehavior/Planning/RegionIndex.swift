import LocationWire
import LocationWireGeometry

/// The planner's index of a catalogue: the regions as flat arrays, the tree (`§plan-candidates`) as groups of
/// siblings, and a spatial search per large group. Built once; a plan then looks at the root group, the
/// children of the few regions the position is in, and in each only the members that can rank.
///
/// A class, so that a plan and its closures share it instead of copying (and reference counting) its arrays.
///
/// Invariants: region indices are positions in `regions` (Int32); every region has a circle and a unique id
/// (``PlanAssembly/usable(_:)``); a region belongs to its parent's group, and also to the root group when its
/// parent may expire (it is a root exactly when that parent is not live).
final class RegionIndex: Sendable {
    /// Groups larger than this get spatial trees; smaller ones are scanned, which is faster at that size.
    static let scanLimit = 32

    let regions: [Region]
    /// `regions[i].id`, kept apart so that comparing ids does not copy whole regions.
    let ids: [String]
    /// Each region's circle. Polygons are not kept: a plan tests one only for the few regions whose circle
    /// holds the position, and builds its ``RegionShape`` then (a million shapes would be 160 MB more).
    let discs: [Disc]
    let priorities: [UInt32]
    let expiresAtMs: [Int64]
    /// The parent's region index, −1 when `parent_id` is empty or names no region of the catalogue.
    let parentIndex: [Int32]
    /// The group of a region's children, −1 when it has none.
    let childGroup: [Int32]
    /// Whether some child never expires, so that `§plan-refine` need not look at the children's expiries.
    let hasPermanentChild: [Bool]
    let groups: [MemberGroup]
    /// The group of the regions that may be roots: empty or unknown `parent_id`, or a parent that may expire.
    let rootGroup: Int32

    init(catalogue: [Region]) {
        let regions = PlanAssembly.usable(catalogue)
        self.regions = regions
        ids = regions.map(\.id)
        let discs = regions.map { Disc(RegionShape($0)!) }
        self.discs = discs
        priorities = regions.map(\.priority)
        let expiresAtMs = regions.map(\.expiresAtMs)
        self.expiresAtMs = expiresAtMs
        var position: [String: Int32] = [:]
        position.reserveCapacity(regions.count)
        for (index, region) in regions.enumerated() { position[region.id] = Int32(index) }
        let parentIndex = regions.map { $0.parentId.isEmpty ? -1 : position[$0.parentId] ?? -1 }
        self.parentIndex = parentIndex
        position = [:]

        var children = [[Int32]](repeating: [], count: regions.count)
        var hasPermanentChild = [Bool](repeating: false, count: regions.count)
        var rootMembers: [Int32] = []
        for index in regions.indices {
            let parent = parentIndex[index]
            if parent >= 0 {
                children[Int(parent)].append(Int32(index))
                if expiresAtMs[index] <= 0 { hasPermanentChild[Int(parent)] = true }
            }
            if parent < 0 || expiresAtMs[Int(parent)] > 0 { rootMembers.append(Int32(index)) }
        }
        var groups: [MemberGroup] = []
        var childGroup = [Int32](repeating: -1, count: regions.count)
        for index in regions.indices where !children[index].isEmpty {
            childGroup[index] = Int32(groups.count)
            groups.append(MemberGroup(members: children[index], discs: discs, priorities: priorities))
            children[index] = []
        }
        rootGroup = Int32(groups.count)
        groups.append(MemberGroup(members: rootMembers, discs: discs, priorities: priorities))
        self.groups = groups
        self.childGroup = childGroup
        self.hasPermanentChild = hasPermanentChild
    }

    /// Bytes held by the index beyond the regions themselves (per-region arrays, groups and trees).
    var memoryBytes: Int {
        let perRegion =
            MemoryLayout<Disc>.stride + MemoryLayout<String>.stride
            + MemoryLayout<UInt32>.stride + MemoryLayout<Int64>.stride + 2
            * MemoryLayout<Int32>.stride + MemoryLayout<Bool>.stride
        return regions.count * perRegion + groups.reduce(0) { $0 + $1.memoryBytes }
    }

    @inline(__always) func isLive(_ index: Int32, nowMs: Int64) -> Bool {
        LocationWireBehavior.isLive(expiresAtMs: expiresAtMs[Int(index)], nowMs: nowMs)
    }

    /// Whether `index` is a candidate of group `group` at `nowMs`: live, and in the root group only while it is
    /// a root (no parent, or its parent is not live).
    @inline(__always) func counts(_ index: Int32, inRootGroup: Bool, nowMs: Int64) -> Bool {
        guard isLive(index, nowMs: nowMs) else { return false }
        guard inRootGroup else { return true }
        let parent = parentIndex[Int(index)]
        return parent < 0 || !isLive(parent, nowMs: nowMs)
    }

    /// `§plan-refine`'s "has a live child".
    func hasLiveChild(_ index: Int32, nowMs: Int64) -> Bool {
        if hasPermanentChild[Int(index)] { return true }
        let group = childGroup[Int(index)]
        guard group >= 0 else { return false }
        return groups[Int(group)].all.members.contains { isLive($0, nowMs: nowMs) }
    }
}

/// A set of region indices, scanned when small and searched through a ``CapTree`` when large.
struct MemberSet: Sendable {
    let members: [Int32]
    let tree: CapTree?

    init(members: [Int32], discs: [Disc]) {
        self.members = members
        tree = members.count > RegionIndex.scanLimit ? CapTree(members: members, discs: discs) : nil
    }

    var memoryBytes: Int { members.capacity * MemoryLayout<Int32>.stride + (tree?.memoryBytes ?? 0) }

    /// Calls `body` with each member whose circle contains `point`.
    func forEachCircleContaining(
        _ point: SpherePoint, discs: UnsafeBufferPointer<Disc>, _ body: (Int32) -> Void
    ) {
        if let tree { return tree.forEachCircleContaining(point, discs: discs, body) }
        for member in members where discs[Int(member)].gapM(point) == 0 { body(member) }
    }

    /// The first `count` accepted members by gap, least first, then by id (byte order), with their gaps.
    func nearest(
        _ count: Int, to point: SpherePoint, index: RegionIndex, discs: UnsafeBufferPointer<Disc>,
        accept: (Int32) -> Bool
    ) -> [(member: Int32, gapM: Double)] {
        guard count > 0 else { return [] }
        var found: [(member: Int32, gapM: Double)] = []
        if let tree {
            var order = CapTree.GapOrder(tree: tree, point: point)
            // Gaps come in order; past the count, keep taking those that tie with the last one so that the id
            // decides among them.
            while let next = order.next(discs: discs, accept: accept) {
                if found.count >= count, next.gapM > found[found.count - 1].gapM { break }
                found.append(next)
            }
        } else {
            for member in members where accept(member) { found.append((member, discs[Int(member)].gapM(point))) }
        }
        found.sort {
            $0.gapM < $1.gapM
                || ($0.gapM == $1.gapM && idPrecedes(index.ids[Int($0.member)], index.ids[Int($1.member)]))
        }
        if found.count > count { found.removeLast(found.count - count) }
        return found
    }

    /// The least gap among accepted members, nil when none is.
    func leastGapM(
        to point: SpherePoint, discs: UnsafeBufferPointer<Disc>, accept: (Int32) -> Bool
    ) -> Double? {
        if let tree {
            var order = CapTree.GapOrder(tree: tree, point: point)
            return order.next(discs: discs, accept: accept)?.gapM
        }
        var least: Double?
        for member in members where accept(member) {
            let gap = discs[Int(member)].gapM(point)
            if least == nil || gap < least! { least = gap }
        }
        return least
    }
}

/// Siblings (or the roots): all of them for containment and the least gap, and one set per priority, highest
/// first, for the ranking (`§plan-rank` puts priority before gap, so a far high-priority region beats a near
/// low-priority one).
struct MemberGroup: Sendable {
    let all: MemberSet
    /// Distinct priorities, descending, with their members; empty when there is only one priority (then `all`
    /// is that level).
    let levels: [(priority: UInt32, set: MemberSet)]

    init(members: [Int32], discs: [Disc], priorities: [UInt32]) {
        all = MemberSet(members: members, discs: discs)
        let sorted = members.sorted { priorities[Int($0)] > priorities[Int($1)] }
        var levels: [(priority: UInt32, set: MemberSet)] = []
        var start = 0
        while start < sorted.count {
            let priority = priorities[Int(sorted[start])]
            var end = start + 1
            while end < sorted.count, priorities[Int(sorted[end])] == priority { end += 1 }
            levels.append((priority, MemberSet(members: Array(sorted[start..<end]), discs: discs)))
            start = end
        }
        self.levels = levels.count > 1 ? levels : []
    }

    var memoryBytes: Int { all.memoryBytes + levels.reduce(0) { $0 + $1.set.memoryBytes } }

    /// The first `count` accepted members by `§plan-rank` among non-open candidates: priority, highest first;
    /// gap, least first; id.
    func ranked(
        _ count: Int, to point: SpherePoint, index: RegionIndex, discs: UnsafeBufferPointer<Disc>,
        accept: (Int32) -> Bool
    ) -> [(member: Int32, gapM: Double)] {
        guard !levels.isEmpty else {
            return all.nearest(count, to: point, index: index, discs: discs, accept: accept)
        }
        var found: [(member: Int32, gapM: Double)] = []
        for level in levels where found.count < count {
            found += level.set.nearest(count - found.count, to: point, index: index, discs: discs, accept: accept)
        }
        return found
    }
}
