import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireValidation

/// The properties every input must satisfy, whatever its bytes. The libFuzzer targets (FuzzTesting/) trap on a
/// violation; `swift test` replays the regression corpus (FuzzTesting/Regressions/) through the same checks.
///
/// For binary input: decoding either throws a DecodingError or yields a message m, and then
///   1. encode(m) decodes again to a message equal to m (equality is bit-exact, unknown fields included);
///   2. encoding is a fixed point: encode(decode(encode(m))) == encode(m);
///   3. m prints as JSON, that JSON parses, and printing the result gives the same JSON again;
///   4. validation runs (and, for compact fixes, row reconstruction) without trapping;
///   5. decoding into a message that already holds something (`decode(serializedBytes:)`, the reuse API) gives
///      the same message, or the same error, as a fresh decode.
/// For JSON input: parsing either throws a JSONError or yields m, and then the same checks hold.
public enum FuzzOracle {
    /// Inputs larger than this are skipped, to keep the work per input bounded (and fuzzers fast).
    public static let maxInputBytes = 64 * 1024

    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    /// The targets: one per top-level message, plus validation and JSON.
    public enum Target: String, CaseIterable, Sendable {
        case locationBatch = "FuzzLocationBatch"
        case batchAck = "FuzzBatchAck"
        case regionAssignment = "FuzzRegionAssignment"
        case regionRequest = "FuzzRegionRequest"
        case fenceEvent = "FuzzFenceEvent"
        case trackingPolicy = "FuzzTrackingPolicy"
        /// Decodes any message type (chosen by the first byte) and validates it.
        case validation = "FuzzValidation"
        /// Parses JSON for any message type (chosen by the first byte).
        case json = "FuzzJSON"

        /// The message type a single-message target decodes.
        public var messageType: (any LocationWireMessage.Type)? {
            switch self {
            case .locationBatch: LocationBatch.self
            case .batchAck: BatchAck.self
            case .regionAssignment: RegionAssignment.self
            case .regionRequest: RegionRequest.self
            case .fenceEvent: FenceEvent.self
            case .trackingPolicy: TrackingPolicy.self
            case .validation, .json: nil
            }
        }
    }

    /// What `check` did with an input that violated nothing, so a test can tell a skipped input from a checked one.
    public enum Outcome: Sendable, Equatable {
        /// Nothing was checked: the input is larger than `maxInputBytes`, or a selector target's input is empty.
        case skipped
        /// The input was decoded (or rejected by the decoder) and every property held.
        case checked
    }

    /// Runs `target`'s checks on `input`; throws a Violation when a property does not hold.
    @discardableResult
    public static func check(_ target: Target, _ input: [UInt8]) throws(Violation) -> Outcome {
        guard input.count <= maxInputBytes else { return .skipped }
        switch target {
        case .validation, .json:
            // The first byte picks the message type, so one target covers all 17; the rest is the input.
            guard let selector = input.first else { return .skipped }
            let type = MessageRegistry.allTypes[Int(selector) % MessageRegistry.allTypes.count]
            let body = Array(input.dropFirst())
            if target == .json {
                try checkJSON(type, body)
            } else {
                try checkBinary(type, body, validate: true)
            }
        default:
            try checkBinary(target.messageType!, input, validate: false)
        }
        return .checked
    }

    /// The body of every libFuzzer entry point (`LLVMFuzzerTestOneInput` in FuzzTesting/Sources/<Target>/):
    /// runs `check` and traps on a violation, because a trap is what makes libFuzzer keep the input.
    public static func libFuzzerEntry(_ target: Target, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try check(target, input)
        } catch {
            fatalError("\(target.rawValue): \(error)")
        }
        return 0
    }

    public static func checkBinary(
        _ type: any LocationWireMessage.Type, _ input: [UInt8], validate: Bool
    ) throws(Violation) {
        try checkReuse(type, input)
        guard let message = try? AnyMessageCodec(type).decodeBinary(input) else { return }
        try checkDecoded(message, validate: validate)
    }

    /// Property 5: a message that held the input's fields twice over (merged twice: every repeated field doubled),
    /// decoded into again, is what a fresh decode gives, or fails with the same error.
    private static func checkReuse<Message: LocationWireMessage>(
        _ type: Message.Type, _ input: [UInt8]
    ) throws(Violation) {
        let fresh = Result { () throws(DecodingError) in try Message(serializedBytes: input) }
        var reused = Message()
        try? reused.merge(serializedBytes: input)
        try? reused.merge(serializedBytes: input)
        let again = Result { () throws(DecodingError) in
            try reused.decode(serializedBytes: input)
            return reused
        }
        guard again == fresh else {
            throw Violation(
                description:
                    "\(Message.messageName): decoding into a used message gave \(again), a fresh decode \(fresh)")
        }
    }

    public static func checkJSON(_ type: any LocationWireMessage.Type, _ input: [UInt8]) throws(Violation) {
        guard let message = try? AnyMessageCodec(type).decodeJSON(input) else { return }
        try checkDecoded(message, validate: true)
    }

    /// The properties of a decoded message, checked with its concrete type (the existential is opened here).
    private static func checkDecoded<Message: LocationWireMessage>(
        _ message: Message, validate: Bool
    ) throws(Violation) {
        let name = Message.messageName
        let encoded = message.serializedBytes()
        let again: Message
        do {
            again = try Message(serializedBytes: encoded)
        } catch {
            throw Violation(description: "\(name): the encoding of a decoded message does not decode: \(error)")
        }
        guard again == message else {
            throw Violation(description: "\(name): decode(encode(m)) != m")
        }
        guard again.serializedBytes() == encoded else {
            throw Violation(description: "\(name): encoding is not a fixed point")
        }
        let json = message.jsonString()
        let fromJSON: Message
        do {
            fromJSON = try Message(jsonString: json)
        } catch {
            throw Violation(description: "\(name): printed JSON does not parse: \(error)\n\(json)")
        }
        let jsonAgain = fromJSON.jsonString()
        guard jsonAgain == json else {
            throw Violation(description: "\(name): JSON is not a fixed point\n\(json)\n\(jsonAgain)")
        }
        if validate {
            _ = LocationWireValidation.validate(message)
            if let compact = message as? CompactFixes, let rows = try? compact.fixes(limit: 10_000) {
                // Rows from columns convert back to columns that give the same rows.
                guard let again = try? CompactFixes(fixes: rows), (try? again.fixes()) == rows else {
                    throw Violation(description: "CompactFixes: rows -> columns -> rows changed the rows")
                }
            }
        }
    }
}
