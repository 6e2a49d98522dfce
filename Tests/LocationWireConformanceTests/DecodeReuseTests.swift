import Foundation
import LocationWire
import LocationWireConformance
import LocationWireFuzzing
import LocationWireInspection
import LocationWireRandom
import LocationWireTestSupport
import Testing

/// Decoding into storage the caller keeps (`decode(serializedBytes:)`, issue 26) gives what a fresh decode gives:
/// the same message or the same error (code, offset, field path), for every binary input of the committed wire
/// vectors, each decoded into one message per type that still holds the previous vector's fields.
@Suite struct DecodeReuseTests {
    /// A message kept per type, decoded into vector after vector.
    final class Kept {
        var messages: [String: any LocationWireMessage] = [:]
    }

    func reuse<Message: LocationWireMessage>(
        _ type: Message.Type, _ input: [UInt8], _ kept: Kept
    ) -> (same: Bool, fresh: String, reused: String) {
        let fresh = Result { () throws(DecodingError) in try Message(serializedBytes: input) }
        var message = kept.messages[Message.messageName] as? Message ?? Message()
        let reused = Result { () throws(DecodingError) in
            try message.decode(serializedBytes: input)
            return message
        }
        kept.messages[Message.messageName] = message
        return (reused == fresh, "\(fresh)", "\(reused)")
    }

    @Test(arguments: ["wire", "canonical", "compact"])
    func everyBinaryVectorDecodesTheSameIntoAUsedMessage(family: String) throws {
        let url = RepositoryData.repository.appendingPathComponent("conformance/vectors/\(family).json")
        let file = try VectorFile.decode(Data(contentsOf: url))
        let kept = Kept()
        var checked = 0
        var failures = 0
        for vector in file.vectors {
            guard let hex = vector.inputHex, let input = Hex.decode(hex),
                let codec = AnyMessageCodec(typeName: vector.messageType)
            else { continue }
            // Twice: the second time the kept message holds this very input's fields.
            for _ in 0..<2 {
                let outcome = reuse(codec.messageType, input, kept)
                checked += 1
                if !outcome.same {
                    failures += 1
                    if failures <= 3 {
                        Issue.record(
                            "\(vector.id): reused \(outcome.reused.prefix(300)), fresh \(outcome.fresh.prefix(300))")
                    }
                }
            }
        }
        #expect(checked > 50)
        #expect(failures == 0)
    }

    /// The fuzz oracle's property 5 (a used message decodes as a fresh one) on 3,000 mutations of the wire
    /// vectors' valid inputs: truncated, spliced, duplicated and reordered fields, most of them errors.
    @Test func mutatedInputsDecodeTheSameIntoAUsedMessage() throws {
        let url = RepositoryData.repository.appendingPathComponent("conformance/vectors/wire.json")
        let inputs = try VectorFile.decode(Data(contentsOf: url)).vectors.compactMap { vector in
            vector.inputHex.flatMap(Hex.decode).flatMap { bytes in
                AnyMessageCodec(typeName: vector.messageType).map { (bytes, $0.messageType) }
            }
        }
        var mutator = WireMutator(random: SeededRandom(seed: 26))
        var random = SeededRandom(seed: 2026)
        for round in 0..<3000 {
            let (input, type) = inputs[round % inputs.count]
            let donor = inputs[Int.random(in: 0..<inputs.count, using: &random)].0
            let mutated = mutator.mutate(input, schema: type.schema, donor: donor)
            #expect(throws: Never.self) { try FuzzOracle.checkBinary(type, mutated, validate: false) }
        }
    }

    @Test func theArraysKeepTheirCapacity() throws {
        var batch = LocationBatch()
        batch.deviceId = "device-1"
        batch.installId = 7
        batch.fixes = (1...10).map { index in
            var fix = LocationFix()
            fix.sequence = UInt64(index)
            fix.timeMs = 1_700_000_000_000 + Int64(index)
            return fix
        }
        let bytes = batch.serializedBytes()
        var kept = LocationBatch()
        try kept.decode(serializedBytes: bytes)
        let capacity = kept.fixes.capacity
        let address = kept.fixes.withUnsafeBufferPointer { $0.baseAddress }
        try kept.decode(serializedBytes: bytes)
        #expect(kept == batch)
        #expect(kept.fixes.capacity == capacity)
        #expect(kept.fixes.withUnsafeBufferPointer { $0.baseAddress } == address)
        // A longer run gets an array of its own (filling in place is cheaper than appending), with the same result.
        batch.fixes += batch.fixes.map { fix in
            var later = fix
            later.sequence += 10
            return later
        }
        try kept.decode(serializedBytes: batch.serializedBytes())
        #expect(kept == batch)
        // A field the next input lacks is cleared, not kept from the last.
        var shorter = LocationBatch()
        shorter.deviceId = "device-2"
        try kept.decode(serializedBytes: shorter.serializedBytes())
        #expect(kept == shorter)
    }
}
