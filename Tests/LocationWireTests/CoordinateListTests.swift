import LocationWire
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// `CoordinateList`, the polygons' coordinates: decoded lists share one buffer, and every list still behaves as
/// the `[Int32]` it replaced (the oracle here is `Array`, an implementation it shares no code with).
@Suite struct CoordinateListTests {
    /// An assignment of `regions` regions, each with a polygon of `vertices` vertices whose values say where they
    /// come from (region × 1000 + vertex, negated for longitudes).
    static func assignment(regions: Int, vertices: Int) -> RegionAssignment {
        var assignment = RegionAssignment()
        for region in 0..<regions {
            var polygon = Polygon()
            for vertex in 0..<vertices {
                polygon.latitudesE7.append(Int32(region * 1000 + vertex))
                polygon.longitudesE7.append(-Int32(region * 1000 + vertex))
            }
            var entry = Region()
            entry.id = "region-\(region)"
            entry.polygon = polygon
            assignment.regions.append(entry)
        }
        return assignment
    }

    @Test func theListsOfOneDecodeShareOneBuffer() throws {
        let original = Self.assignment(regions: 20, vertices: 20)
        let decoded = try RegionAssignment(serializedBytes: original.serializedBytes())
        #expect(decoded == original)
        let buffers = Set(
            decoded.regions.flatMap { [$0.polygon!.latitudesE7, $0.polygon!.longitudesE7] }.map(\.bufferIdentity))
        #expect(buffers.count == 1)
        #expect(buffers.first! != nil)
        // Built by hand, each list has its own.
        let built = Set(
            original.regions.flatMap { [$0.polygon!.latitudesE7, $0.polygon!.longitudesE7] }.map(\.bufferIdentity))
        #expect(built.count == 40)
    }

    @Test func changingADecodedListLeavesTheOthersAlone() throws {
        let original = Self.assignment(regions: 3, vertices: 5)
        let encoded = original.serializedBytes()
        var decoded = try RegionAssignment(serializedBytes: encoded)
        let untouched = decoded
        decoded.regions[1].polygon!.latitudesE7[0] = 77
        decoded.regions[1].polygon!.latitudesE7.append(78)
        decoded.regions[0].polygon!.longitudesE7.removeLast()
        decoded.regions[2].polygon!.latitudesE7.insert(79, at: 0)
        #expect(Array(decoded.regions[1].polygon!.latitudesE7) == [77, 1001, 1002, 1003, 1004, 78])
        #expect(Array(decoded.regions[0].polygon!.longitudesE7) == [0, -1, -2, -3])
        #expect(Array(decoded.regions[2].polygon!.latitudesE7) == [79, 2000, 2001, 2002, 2003, 2004])
        #expect(decoded.regions[1].polygon!.longitudesE7 == original.regions[1].polygon!.longitudesE7)
        #expect(untouched == original)
        #expect(untouched.serializedBytes() == encoded)
    }

    /// The same values, however the wire splits them: packed, unpacked, latitudes and longitudes interleaved, runs
    /// of one list between runs of the other, and a later merge into a decoded polygon.
    @Test func everyWireSplitDecodesToTheSameLists() throws {
        let latitudes: [Int32] = (0..<50).map { Int32($0) * 3 - 70 }
        let longitudes: [Int32] = (0..<50).map { Int32.max - Int32($0) }
        func fixed32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func packed(_ field: UInt8, _ values: ArraySlice<Int32>) -> [UInt8] {
            let length = values.count * 4  // below 2^14: a varint of one or two bytes
            let prefix: [UInt8] = length < 128 ? [UInt8(length)] : [UInt8(length & 0x7F | 0x80), UInt8(length >> 7)]
            return [field << 3 | 2] + prefix + values.flatMap(fixed32)
        }
        var interleaved: [UInt8] = []
        for (latitude, longitude) in zip(latitudes, longitudes) {
            interleaved += [1 << 3 | 5] + fixed32(latitude) + [2 << 3 | 5] + fixed32(longitude)
        }
        var runs: [UInt8] = []
        for start in stride(from: 0, to: 50, by: 10) {
            runs += packed(1, latitudes[start..<start + 10]) + packed(2, longitudes[start..<start + 10])
        }
        let packedWhole = packed(1, latitudes[...]) + packed(2, longitudes[...])
        for wire in [packedWhole, interleaved, runs] {
            let polygon = try Polygon(serializedBytes: wire)
            #expect(Array(polygon.latitudesE7) == latitudes)
            #expect(Array(polygon.longitudesE7) == longitudes)
            #expect(polygon.serializedBytes() == packedWhole)
        }
        // A polygon of a decoded assignment, merged with more vertices: its list leaves the shared buffer.
        var assignment = try RegionAssignment(
            serializedBytes: Self.assignment(regions: 2, vertices: 3).serializedBytes())
        try assignment.regions[0].polygon!.merge(serializedBytes: packed(1, [5, 6]) + interleaved.prefix(10))
        #expect(Array(assignment.regions[0].polygon!.latitudesE7) == [0, 1, 2, 5, 6, latitudes[0]])
        #expect(Array(assignment.regions[0].polygon!.longitudesE7) == [0, -1, -2, longitudes[0]])
        #expect(Array(assignment.regions[1].polygon!.latitudesE7) == [1000, 1001, 1002])
    }

    @Test func theElementLimitHoldsForPackedAndUnpackedRuns() {
        let limits = DecodingLimits(maxRepeatedCount: 3)
        #expect(throws: DecodingError.self) {
            _ = try Polygon(serializedBytes: bytes("0a10 01000000 02000000 03000000 04000000"), limits: limits)
        }
        #expect(throws: DecodingError.self) {
            _ = try Polygon(serializedBytes: bytes("0d01000000 0d02000000 0d03000000 0d04000000"), limits: limits)
        }
        #expect(
            (try? Polygon(serializedBytes: bytes("0d01000000 0d02000000 0d03000000"), limits: limits))?.latitudesE7
                == [1, 2, 3])
    }

    /// Random edits, each made to a list and to an array alike, on lists that start decoded (sharing a buffer
    /// with others) or built by hand; a copy taken before each edit must keep its values.
    @Test func randomEditsMatchAnArray() throws {
        var random = SeededRandom(seed: 26)
        let decoded = try RegionAssignment(serializedBytes: Self.assignment(regions: 4, vertices: 6).serializedBytes())
        for round in 0..<400 {
            var list = round % 2 == 0 ? decoded.regions[round % 4].polygon!.latitudesE7 : CoordinateList()
            var model = Array(list)
            for _ in 0..<30 {
                let before = list
                let snapshot = model
                let value = Int32(truncatingIfNeeded: random.next())
                switch random.next() % 10 {
                case 0:
                    list.append(value)
                    model.append(value)
                case 1:
                    list.append(contentsOf: [value, value &+ 1])
                    model.append(contentsOf: [value, value &+ 1])
                case 2:
                    let at = Int(random.next() % UInt64(model.count + 1))
                    list.insert(value, at: at)
                    model.insert(value, at: at)
                case 3 where !model.isEmpty:
                    let at = Int(random.next() % UInt64(model.count))
                    #expect(list.remove(at: at) == model.remove(at: at))
                case 4 where !model.isEmpty: #expect(list.removeLast() == model.removeLast())
                case 5 where !model.isEmpty:
                    let at = Int(random.next() % UInt64(model.count))
                    list[at] = value
                    model[at] = value
                case 6:
                    let lower = Int(random.next() % UInt64(model.count + 1))
                    let upper = lower + Int(random.next() % UInt64(model.count - lower + 1))
                    let replacement = (0..<Int(random.next() % 4)).map { value &+ Int32($0) }
                    list.replaceSubrange(lower..<upper, with: replacement)
                    model.replaceSubrange(lower..<upper, with: replacement)
                case 7 where random.next() % 4 == 0:
                    let keep = random.next() % 2 == 0
                    list.removeAll(keepingCapacity: keep)
                    model.removeAll(keepingCapacity: keep)
                case 8: list.reserveCapacity(model.count + Int(random.next() % 20))
                case 9:
                    list.append(contentsOf: list.prefix(3))
                    model.append(contentsOf: model.prefix(3))
                default: break
                }
                #expect(Array(list) == model)
                #expect(list.count == model.count)
                #expect(Array(before) == snapshot)
                #expect((list == CoordinateList(model)) && list.hashValue == CoordinateList(model).hashValue)
            }
        }
        #expect(
            decoded
                == (try RegionAssignment(serializedBytes: Self.assignment(regions: 4, vertices: 6).serializedBytes())))
    }

    @Test func itPrintsAndComparesAsAnArray() throws {
        let decoded = try Polygon(
            serializedBytes: bytes("0a0c 01000000 02000000 03000000 120c 02000000 03000000 04000000"))
        let suffix = CoordinateList(decoded.longitudesE7.prefix(2))
        #expect(decoded.latitudesE7.description == "[1, 2, 3]")
        #expect(CoordinateList(decoded.latitudesE7.dropFirst()) == suffix)
        #expect(CoordinateList(decoded.latitudesE7.dropFirst()).hashValue == suffix.hashValue)
        #expect(decoded.latitudesE7 != decoded.longitudesE7)
        #expect(decoded.latitudesE7.withContiguousStorageIfAvailable { Array($0) } == [1, 2, 3])
    }
}
