import LocationWire
import LocationWireGeometry

/// A bounding-volume tree of region circles on the sphere, answering "which circles contain p" and "the circles
/// in order of gap from p" (`§region-gap`) without looking at most of them.
///
/// A binary tree over the members' unit-vector centres, split at medians in 3-D (no seam at the antimeridian or
/// the poles), `leafSize` members to a leaf. Each node is a spherical cap:
/// a centre and a reach, metres, such that every member circle of the subtree lies within `reach` of the
/// centre. By the triangle inequality on great-circle distance, d(p, centre) − reach is then a lower bound of
/// the gap of every member below it; searches order and prune by that bound and compute each member's gap with
/// `RegionShape.gapM` (through ``Disc``), so the results are exactly the scan's.
struct CapTree: Sendable {
    /// Members per leaf: enough to make a leaf worth opening, few enough that it stays tight.
    static let leafSize = 8
    /// Metres taken off every bound, so that rounding (far below a micrometre at these magnitudes) can never
    /// prune a member whose gap is at the bound.
    static let slackM = 0.001

    struct Node: Sendable {
        var x: Double
        var y: Double
        var z: Double
        /// Every member circle below lies within this many metres of the centre.
        var reachM: Double
        /// Leaves: the first position in `members`; nodes: the first of their two children in `nodes`.
        var first: Int32
        var count: Int32
        var isLeaf: Bool
    }

    /// Region indices, each leaf's members together.
    private(set) var members: [Int32]
    private(set) var nodes: [Node]
    /// Index of the root in `nodes`.
    let root: Int32 = 0

    /// `members` must be non-empty; `discs` indexed by region index.
    ///
    /// Top down, like a k-d tree: each node splits its members at the median of the axis (of the unit-vector
    /// centres) along which they spread most, until a leaf holds `leafSize`. Children come after their parent in
    /// `nodes`, so the caps are then computed in one backward pass, each from its children.
    init(members: [Int32], discs: [Disc]) {
        var members = members
        var points = members.map { member -> (Double, Double, Double) in
            let center = discs[Int(member)].center
            return (center.x, center.y, center.z)
        }
        var nodes = [Node(x: 0, y: 0, z: 0, reachM: 0, first: 0, count: Int32(members.count), isLeaf: true)]
        nodes.reserveCapacity(2 * members.count / Self.leafSize + 2)
        var work = [0]
        while let index = work.popLast() {
            let start = Int(nodes[index].first)
            let end = start + Int(nodes[index].count)
            guard end - start > Self.leafSize else { continue }
            var low = points[start]
            var high = points[start]
            for position in start..<end {
                let p = points[position]
                low = (min(low.0, p.0), min(low.1, p.1), min(low.2, p.2))
                high = (max(high.0, p.0), max(high.1, p.1), max(high.2, p.2))
            }
            let extent = (high.0 - low.0, high.1 - low.1, high.2 - low.2)
            let axis = extent.0 >= extent.1 && extent.0 >= extent.2 ? 0 : extent.1 >= extent.2 ? 1 : 2
            let middle = (start + end) / 2
            Self.select(middle, in: start..<end, axis: axis, members: &members, points: &points)
            let firstChild = nodes.count
            nodes.append(
                Node(x: 0, y: 0, z: 0, reachM: 0, first: Int32(start), count: Int32(middle - start), isLeaf: true))
            nodes.append(
                Node(x: 0, y: 0, z: 0, reachM: 0, first: Int32(middle), count: Int32(end - middle), isLeaf: true))
            nodes[index].first = Int32(firstChild)
            nodes[index].count = 2
            nodes[index].isLeaf = false
            work += [firstChild, firstChild + 1]
        }
        // Caps, children before parents. A node's centre is the normalized mean of its members' centres.
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: nodes.count)
        for index in nodes.indices.reversed() {
            let node = nodes[index]
            let range = Int(node.first)..<Int(node.first + node.count)
            var sum = (0.0, 0.0, 0.0)
            if node.isLeaf {
                for position in range {
                    sum = (sum.0 + points[position].0, sum.1 + points[position].1, sum.2 + points[position].2)
                }
            } else {
                for child in range { sum = (sum.0 + sums[child].0, sum.1 + sums[child].1, sum.2 + sums[child].2) }
            }
            sums[index] = sum
            let first =
                node.isLeaf
                ? points[range.lowerBound]
                : (nodes[range.lowerBound].x, nodes[range.lowerBound].y, nodes[range.lowerBound].z)
            let length = (sum.0 * sum.0 + sum.1 * sum.1 + sum.2 * sum.2).squareRoot()
            let (x, y, z) = length > 1e-9 ? (sum.0 / length, sum.1 / length, sum.2 / length) : first
            var reach = 0.0
            if node.isLeaf {
                for position in range {
                    let p = points[position]
                    reach = max(reach, Self.distanceM(x, y, z, p.0, p.1, p.2) + discs[Int(members[position])].radiusM)
                }
            } else {
                for child in range {
                    let c = nodes[child]
                    reach = max(reach, Self.distanceM(x, y, z, c.x, c.y, c.z) + c.reachM)
                }
            }
            nodes[index].x = x
            nodes[index].y = y
            nodes[index].z = z
            nodes[index].reachM = reach
        }
        self.members = members
        self.nodes = nodes
    }

    /// Quickselect: afterwards the element at `nth` is the one a sort by `axis` would put there, those before it
    /// are not greater and those after not less.
    private static func select(
        _ nth: Int, in range: Range<Int>, axis: Int, members: inout [Int32], points: inout [(Double, Double, Double)]
    ) {
        @inline(__always) func key(_ position: Int) -> Double {
            let p = points[position]
            return axis == 0 ? p.0 : axis == 1 ? p.1 : p.2
        }
        @inline(__always) func swap(_ a: Int, _ b: Int) {
            members.swapAt(a, b)
            points.swapAt(a, b)
        }
        var low = range.lowerBound
        var high = range.upperBound - 1
        while low < high {
            // Median of three as the pivot, moved to `high`.
            let middle = low + (high - low) / 2
            if key(middle) < key(low) { swap(middle, low) }
            if key(high) < key(low) { swap(high, low) }
            if key(middle) < key(high) { swap(middle, high) }
            let pivot = key(high)
            // Three-way partition, so that many equal keys (regions sharing a centre) cannot make it quadratic:
            // [low, less) below the pivot, [less, position) equal, (greater, high] above.
            var less = low
            var position = low
            var greater = high
            while position <= greater {
                let value = key(position)
                if value < pivot {
                    swap(position, less)
                    less += 1
                    position += 1
                } else if value > pivot {
                    swap(position, greater)
                    greater -= 1
                } else {
                    position += 1
                }
            }
            if nth < less { high = less - 1 } else if nth > greater { low = greater + 1 } else { return }
        }
    }

    /// Bytes held by the tree's arrays.
    var memoryBytes: Int {
        members.capacity * MemoryLayout<Int32>.stride + nodes.capacity * MemoryLayout<Node>.stride
    }

    /// Calls `body` with every member whose circle contains `point` (`§region-inside` needs the polygon too;
    /// the caller tests it).
    func forEachCircleContaining(
        _ point: SpherePoint, discs: UnsafeBufferPointer<Disc>, _ body: (Int32) -> Void
    ) {
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
                    if discs[Int(member)].gapM(point) == 0 { body(member) }
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

        mutating func next(discs: UnsafeBufferPointer<Disc>, accept: (Int32) -> Bool) -> (member: Int32, gapM: Double)?
        {
            while let (key, reference) = pop() {
                if reference < 0 { return (-reference - 1, key) }
                let node = tree.nodes[Int(reference)]
                let range = Int(node.first)..<Int(node.first + node.count)
                if node.isLeaf {
                    for position in range {
                        let member = tree.members[position]
                        if accept(member) { push(key: discs[Int(member)].gapM(point), reference: -member - 1) }
                    }
                } else {
                    for child in range {
                        let c = tree.nodes[child]
                        let bound =
                            CapTree.distanceM(c.x, c.y, c.z, point.x, point.y, point.z) - c.reachM - CapTree.slackM
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

    @inline(__always)
    static func distanceM(
        _ ax: Double, _ ay: Double, _ az: Double, _ bx: Double, _ by: Double, _ bz: Double
    )
        -> Double
    {
        let dx = ax - bx
        let dy = ay - by
        let dz = az - bz
        return Sphere.distanceM(squaredChord: dx * dx + dy * dy + dz * dz)
    }
}

/// A region's circle alone, 48 bytes: what the searches read for every member they look at. (``RegionShape``
/// also carries the polygon, about 160 bytes, and copying it costs reference counting.)
struct Disc: Sendable {
    let center: SpherePoint
    let radiusM: Double
    let radiusSquaredChord: Double

    init(_ shape: RegionShape) {
        center = shape.center
        radiusM = shape.radiusM
        radiusSquaredChord = shape.radiusSquaredChord
    }

    /// `§region-gap`, exactly as ``RegionShape/gapM(_:)``.
    @inline(__always) func gapM(_ point: SpherePoint) -> Double {
        RegionShape.gapM(point, center: center, radiusM: radiusM, radiusSquaredChord: radiusSquaredChord)
    }
}
