import LocationWire
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// Properties over random messages of every type, generated from the schema tables (not from the codec).
@Suite struct RoundTripTests {
    static let typeNames = MessageRegistry.allTypes.map { $0.messageName }

    /// Each type's own seed for each test, from its full name (see `stableSeed`).
    static func seed(_ typeName: String, _ test: UInt64) -> UInt64 {
        test ^ stableSeed(MessageRegistry.type(named: typeName)!.fullMessageName)
    }

    /// Types whose names have the same length (Region, Circle) used to share one random stream.
    @Test func everyTypeHasItsOwnSeed() {
        #expect(Set(Self.typeNames.map { Self.seed($0, 0) }).count == Self.typeNames.count)
    }

    @Test(arguments: typeNames)
    func canonicalBytesReencodeIdentically(typeName: String) throws {
        let schema = MessageRegistry.type(named: typeName)!.schema
        var random = RandomCanonicalMessages(seed: Self.seed(typeName, 0xC0FFEE))
        for _ in 0..<200 {
            let input = random.message(schema)
            #expect(try hex(roundTrip(schema, input)) == hex(input))
        }
    }

    /// Every prefix of a valid message either fails cleanly, with an offset inside the prefix, or, when it
    /// ends on a field boundary, decodes to the message made of the fields before the cut, whose canonical
    /// encoding is the prefix itself.
    @Test(arguments: typeNames)
    func everyTruncationFailsCleanlyOrDecodesToThePrefix(typeName: String) throws {
        let schema = MessageRegistry.type(named: typeName)!.schema
        var random = RandomCanonicalMessages(seed: Self.seed(typeName, 0x7A11))
        for _ in 0..<20 {
            let input = random.message(schema)
            for length in 0..<input.count {
                let prefix = Array(input.prefix(length))
                do {
                    #expect(try hex(roundTrip(schema, prefix)) == hex(prefix))
                } catch let error as DecodingError {
                    #expect(error.offset >= 0 && error.offset <= length)
                    #expect(error.fieldPath.components.first == .message(typeName))
                }
            }
        }
    }

    /// Random byte strings never crash the decoder: they decode (and then re-encode to bytes that decode to the
    /// same message) or throw a DecodingError.
    @Test(arguments: typeNames)
    func arbitraryBytesNeverCrash(typeName: String) throws {
        let schema = MessageRegistry.type(named: typeName)!.schema
        var generator = SeededRandom(seed: Self.seed(typeName, 0xBAD))
        var random = RandomCanonicalMessages(seed: Self.seed(typeName, 99))
        for _ in 0..<2000 {
            var input = random.message(schema)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let position = Int.random(in: 0...input.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where position < input.count: input[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: input.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                default: if position < input.count { input.remove(at: position) }
                }
            }
            if let once = try? roundTrip(schema, input) {
                #expect(try roundTrip(schema, once) == once, "canonical output is a fixed point")
            }
        }
    }
}
