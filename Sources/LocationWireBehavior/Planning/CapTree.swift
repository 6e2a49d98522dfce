import LocationWire

/// A bounding-volume tree of region circles on the sphere, answering "which circles contain p" and "the circles
/// in order of gap from p" (`§region-gap`) without looking at most of them.
///
/// Members are sorted along a 3-D Morton curve of their unit-vector centres (no seam at the antimeridian or the
/// poles), packed `fanout` to a leaf, and leaves `fanout` to a node, bottom up. Each node is a spherical cap:
/// a centre and a reach, metres, such that every member circle of the subtree lies within `reach` of the
/// centre. By the triangle inequality on great-circle distance, d(p, centre) − reach is then a lower bound of
/// the gap of every member below it; searches order and prune by that bound and compute each member's gap with
/// `RegionShape.gapM`, so the results are exactly the scan's.
struct CapTree: Sendable {
    /// Members and nodes per leaf and per node: small enough that a leaf is cheap to open, large enough that the
    /// tree is shallow (a million members: 7 levels).
    static let fanout = 8
    /// Metres taken off every bound, so that rounding (far below a micrometre at these magnitudes) can never
    /// prune a member whose gap is at the bound.
    static let slackM = 0.001

    struct Node: Sendable {
        var x: Double
        var y: Double
        var z: Double
        /// Every member circle below lies within this many metres of the centre.
        var reachM: Double
        /// Leaves: the first position in `members`; nodes: the first child in `nodes`.
        var first: Int32
        var count: Int32
        var isLeaf: Bool
    }

    /// Region indices in curve order.
    private(set) var members: [Int32]
    private(set) var nodes: [Node]
    /// Index of the root in `nodes`.
    private(set) var root: Int32

    /// `members` must be non-empty; `shapes` indexed by region index.
    init(members unsorted: [Int32], shapes: [RegionShape]) {
        var keyed = unsorted.map { (key: Self.mortonKey(shapes[Int($0)].center), index: $0) }
        keyed.sort { $0.key < $1.key || ($0.key == $1.key && $0.index < $1.index) }
        members = keyed.map(\.index)
        var nodes: [Node] = []
        nodes.reserveCapacity(members.count / (Self.fanout - 1) + 2)
        // Leaves.
        var start = 0
        while start < members.count {
            let end = min(start + Self.fanout, members.count)
            var sx = 0.0, sy = 0.0, sz = 0.0
            for position in start..<end {
                let c = shapes[Int(members[position])].center
                sx += c.x
                sy += c.y
                sz += c.z
            }
            let first = shapes[Int(members[start])].center
            var node = Self.node(sum: (sx, sy, sz), fallback: (first.x, first.y, first.z))
            for position in start..<end {
                let shape = shapes[Int(members[position])]
                let d = Self.distanceM(node.x, node.y, node.z, shape.center.x, shape.center.y, shape.center.z)
                node.reachM = max(node.reachM, d + shape.radiusM)
            }
            node.first = Int32(start)
            node.count = Int32(end - start)
            node.isLeaf = true
            nodes.append(node)
            start = end
        }
        // Nodes, level by level, until one is left.
        var levelStart = 0
        var levelEnd = nodes.count
        while levelEnd - levelStart > 1 {
            var child = levelStart
            while child < levelEnd {
                let end = min(child + Self.fanout, levelEnd)
                var sx = 0.0, sy = 0.0, sz = 0.0
                for c in child..<end {
                    sx += nodes[c].x
                    sy += nodes[c].y
                    sz += nodes[c].z
                }
                var node = Self.node(sum: (sx, sy, sz), fallback: (nodes[child].x, nodes[child].y, nodes[child].z))
                for c in child..<end {
                    let d = Self.distanceM(node.x, node.y, node.z, nodes[c].x, nodes[c].y, nodes[c].z)
                    node.reachM = max(node.reachM, d + nodes[c].reachM)
                }
                node.first = Int32(child)
                node.count = Int32(end - child)
                node.isLeaf = false
                nodes.append(node)
                child = end
            }
            levelStart = levelEnd
            levelEnd = nodes.count
        }
        self.nodes = nodes
        root = Int32(nodes.count - 1)
    }

    /// Bytes held by the tree's arrays.
    var memoryBytes: Int {
        members.capacity * MemoryLayout<Int32>.stride + nodes.capacity * MemoryLayout<Node>.stride
    }

    /// Calls `body` with every member whose circle contains `point` (`§region-inside` needs the polygon too;
    /// the caller tests it).
    func forEachCircleContaining(_ point: SpherePoint, shapes: [RegionShape], _ body: (Int32) -> Void) {
        var stack: [Int32] = [root]
        while let index = stack.popLast() {
            let node = nodes[Int(index)]
            if Self.distanceM(node.x, node.y, node.z, point.x, point.y, point.z) - node.reachM > Self.slackM {
                continue
            }
            let range = Int(node.first)..<Int(node.first + node.count)
            if node.isLeaf {
                for position in range {
                    let member = members[position]
                    if shapes[Int(member)].gapM(point) == 0 { body(member) }
                }
            } else {
                for child in range { stack.append(Int32(child)) }
            }
        }
    }

    /// Members that `accept` admits, in order of gap from the origin, least first (ties in any order).
    struct GapOrder {
        let tree: CapTree
        let point: SpherePoint
        /// A min-heap of (key, reference): a reference ≥ 0 is a node, below 0 the member −reference − 1 with its
        /// exact gap as key.
        var heap: [(key: Double, reference: Int32)] = []

        init(tree: CapTree, point: SpherePoint) {
            self.tree = tree
            self.point = point
            heap.reserveCapacity(64)
            push(key: 0, reference: tree.root)
        }

        mutating func next(shapes: [RegionShape], accept: (Int32) -> Bool) -> (member: Int32, gapM: Double)? {
            while let (key, reference) = pop() {
                if reference < 0 { return (-reference - 1, key) }
                let node = tree.nodes[Int(reference)]
                let range = Int(node.first)..<Int(node.first + node.count)
                if node.isLeaf {
                    for position in range {
                        let member = tree.members[position]
                        if accept(member) { push(key: shapes[Int(member)].gapM(point), reference: -member - 1) }
                    }
                } else {
                    for child in range {
                        let c = tree.nodes[child]
                        let bound = CapTree.distanceM(c.x, c.y, c.z, point.x, point.y, point.z) - c.reachM - CapTree.slackM
                        push(key: max(bound, 0), reference: Int32(child))
                    }
                }
            }
            return nil
        }

        private mutating func push(key: Double, reference: Int32) {
            heap.append((key, reference))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                // Members before nodes at equal keys, so a member is returned as soon as nothing can beat it.
                guard Self.less(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        private mutating func pop() -> (key: Double, reference: Int32)? {
            guard !heap.isEmpty else { return nil }
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    guard left < heap.count else { break }
                    var least = left
                    if left + 1 < heap.count, Self.less(heap[left + 1], heap[left]) { least = left + 1 }
                    guard Self.less(heap[least], heap[parent]) else { break }
                    heap.swapAt(least, parent)
                    parent = least
                }
            }
            return top
        }

        @inline(__always)
        private static func less(_ a: (key: Double, reference: Int32), _ b: (key: Double, reference: Int32)) -> Bool {
            a.key < b.key || (a.key == b.key && a.reference < 0 && b.reference >= 0)
        }
    }

    // MARK: Geometry of the caps

    private static func node(sum: (Double, Double, Double), fallback: (Double, Double, Double)) -> Node {
        let length = (sum.0 * sum.0 + sum.1 * sum.1 + sum.2 * sum.2).squareRoot()
        let (x, y, z) = length > 1e-9 ? (sum.0 / length, sum.1 / length, sum.2 / length) : fallback
        return Node(x: x, y: y, z: z, reachM: 0, first: 0, count: 0, isLeaf: false)
    }

    @inline(__always)
    static func distanceM(_ ax: Double, _ ay: Double, _ az: Double, _ bx: Double, _ by: Double, _ bz: Double)
        -> Double
    {
        let dx = ax - bx
        let dy = ay - by
        let dz = az - bz
        return Sphere.distanceM(squaredChord: dx * dx + dy * dy + dz * dz)
    }

    /// 21 bits per axis of the unit vector, interleaved.
    private static func mortonKey(_ point: SpherePoint) -> UInt64 {
        func quantize(_ value: Double) -> UInt64 { UInt64(max(0, min(1, (value + 1) / 2)) * 2_097_151) }
        func spread(_ value: UInt64) -> UInt64 {
            var v = value & 0x1f_ffff
            v = (v | v << 32) & 0x1f_0000_0000_ffff
            v = (v | v << 16) & 0x1f_0000_ff00_00ff
            v = (v | v << 8) & 0x100f_00f0_0f00_f00f
            v = (v | v << 4) & 0x10c3_0c30_c30c_30c3
            v = (v | v << 2) & 0x1249_2492_4924_9249
            return v
        }
        return spread(quantize(point.x)) | spread(quantize(point.y)) << 1 | spread(quantize(point.z)) << 2
    }
}
