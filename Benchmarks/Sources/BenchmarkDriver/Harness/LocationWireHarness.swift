import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireValidation

/// LocationWire's codec behind the harness protocol.
struct LocationWireHarness: SwiftHarness {
    static let name = "swift-locationwire"
    let implementation = Self.name
    let version: String
    let operations = [
        "decode", "decode-reuse", "decode-read-all", "decode-expand", "encode", "encode-reuse", "json-print",
        "json-parse", "validate",
    ]

    func prepare(_ operation: String, on workload: WorkloadFiles) throws -> PreparedOperation? {
        guard let codec = AnyMessageCodec(typeName: workload.typeName) else {
            throw BenchmarkError("\(workload.name): LocationWire has no type \(workload.typeName)")
        }
        return try Self.prepare(codec.messageType, operation, workload)
    }

    private static func prepare<Message: LocationWireMessage>(
        _ type: Message.Type, _ operation: String, _ workload: WorkloadFiles
    ) throws -> PreparedOperation? {
        let inputs = workload.inputs
        let count = inputs.count
        let messages = try inputs.map { try Message(serializedBytes: $0) }
        switch operation {
        case "decode":
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        consume((try! Message(serializedBytes: inputs[index])).unknownFields.bytes.count)
                    }
                }, checks: [:])
        case "decode-reuse":
            // Into one message kept across operations (`decode(serializedBytes:)`), as C++'s decode-reuse parses
            // into a message it keeps: no copy out, and the repeated fields' arrays keep their capacity.
            var message = Message()
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        try! message.decode(serializedBytes: inputs[index])
                        consume(message.unknownFields.bytes.count)
                    }
                }, checks: [:])
        case "decode-read-all":
            guard let readable = Message.self as? any (LocationWireMessage & ReadAllChecksum).Type else { return nil }
            return try prepareReadAll(readable, workload)
        case "decode-expand":
            guard Message.self == LocationBatch.self, (messages[0] as! LocationBatch).compactFixes != nil else {
                return nil
            }
            var checksum: UInt64 = 0
            for message in messages {
                for fix in try (message as! LocationBatch).compactFixes!.fixes() { checksum &+= fix.readAllChecksum }
            }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        let batch = try! LocationBatch(serializedBytes: inputs[index])
                        consume(try! batch.compactFixes!.fixes().count)
                    }
                }, checks: ["checksum": String(checksum)])
        case "encode", "encode-reuse":
            return prepareEncode(messages, reusingArray: operation == "encode-reuse")
        case "json-print":
            guard !workload.json.isEmpty else { return nil }
            let jsonBytes = messages.reduce(0) { $0 + $1.jsonString().utf8.count }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in consume(messages[index].jsonString().utf8.count) }
                }, checks: ["json_bytes": jsonBytes])
        case "json-parse":
            guard !workload.json.isEmpty else { return nil }
            let texts = workload.json
            // JSON has no unknown fields, so the check compares printed forms rather than messages.
            for (text, message) in zip(texts, messages)
            where try Message(jsonUTF8: text).jsonString() != message.jsonString() {
                throw BenchmarkError("\(workload.name): a JSON text does not read back as its binary input")
            }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        consume((try! Message(jsonUTF8: texts[index])).unknownFields.bytes.count)
                    }
                }, checks: [:])
        case "validate":
            guard let validatable = Message.self as? any Validatable.Type else { return nil }
            return try prepareValidation(validatable, workload)
        default:
            return nil
        }
    }

    /// `encode` (`serializedBytes()`, a new array each time) or `encode-reuse` (`serialize(into:)` into one array
    /// kept across operations, as C++'s encode-reuse keeps its buffer).
    ///
    /// Each message is reached through a pointer to the array's elements, not the array's subscript, which in this
    /// generic (unspecialized) code copies the message, a retain and a release of all it holds, before each call on
    /// it; C++'s loop encodes `(*inputs)[i]` in place. The kept array is a local variable during the loop: an
    /// `inout` argument that might alias the message (a captured variable, a pointer's memory) also makes the
    /// caller copy the message first, and a variable captured by the escaping loop closure is checked for
    /// exclusive access at run time on every use.
    private static func prepareEncode<Message: LocationWireMessage>(
        _ messages: [Message], reusingArray: Bool
    )
        -> PreparedOperation
    {
        let count = messages.count
        let checks: [String: Any] = ["encoded_bytes": messages.reduce(0) { $0 + $1.serializedBytes().count }]
        guard reusingArray else {
            return PreparedOperation(
                loop: { iterations, cursor in
                    messages.withUnsafeBufferPointer { messages in
                        let messages = messages.baseAddress!
                        return timedLoop(iterations, &cursor, count) { index in
                            consume(messages[index].serializedBytes().count)
                        }
                    }
                }, checks: checks)
        }
        let kept = KeptValue<[UInt8]>([])
        return PreparedOperation(
            loop: { iterations, cursor in
                messages.withUnsafeBufferPointer { messages in
                    let messages = messages.baseAddress!
                    var buffer = kept.pointer.move()
                    defer { kept.pointer.initialize(to: buffer) }
                    return timedLoop(iterations, &cursor, count) { index in
                        messages[index].serialize(into: &buffer)
                        consume(buffer.count)
                    }
                }
            }, checks: checks)
    }

    /// Decode, then read every field (ReadAllChecksum.swift); generic, so the loop is specialized for the type.
    private static func prepareReadAll<Message: LocationWireMessage & ReadAllChecksum>(
        _ type: Message.Type, _ workload: WorkloadFiles
    ) throws -> PreparedOperation {
        let inputs = workload.inputs
        let checksum = try inputs.reduce(UInt64(0)) { $0 &+ (try Message(serializedBytes: $1)).readAllChecksum }
        return PreparedOperation(
            loop: { iterations, cursor in
                timedLoop(iterations, &cursor, inputs.count) { index in
                    consume(Int(truncatingIfNeeded: (try! Message(serializedBytes: inputs[index])).readAllChecksum))
                }
            }, checks: ["checksum": String(checksum)])
    }

    private static func prepareValidation<Message: Validatable>(
        _ type: Message.Type, _ workload: WorkloadFiles
    ) throws -> PreparedOperation {
        let messages = try workload.inputs.map { try Message(serializedBytes: $0) }
        let violations = messages.reduce(0) { $0 + $1.validate().count }
        guard violations == 0 else {
            throw BenchmarkError("\(workload.name): the inputs have \(violations) violations; a workload must be valid")
        }
        return PreparedOperation(
            loop: { iterations, cursor in
                timedLoop(iterations, &cursor, messages.count) { index in consume(messages[index].validate().count) }
            }, checks: [:])
    }
}

extension LocationWireHarness {
    func notApplicableReason(_ operation: String) -> String {
        switch operation {
        case "decode-expand": "expansion applies to compact batches only"
        case "decode-read-all": "no read-all checksum for this message type"
        case "json-print", "json-parse": "the workload has no JSON texts (the scaling curve measures binary only)"
        case "validate": "LocationWireValidation has no rules for this message type"
        default: "not an operation of this harness"
        }
    }
}

/// A value a prepared operation's loop keeps from one run of the loop to the next, held through a pointer: a `var`
/// captured by the loop's escaping closure lives in a box, and every access to it is checked for exclusive access
/// at run time (a call into the runtime), a cost with no counterpart in the peers' loops.
final class KeptValue<Value> {
    let pointer: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
