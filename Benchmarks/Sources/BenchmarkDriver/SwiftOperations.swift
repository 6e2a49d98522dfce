import LocationWire
import LocationWireJSON
import LocationWireSwiftProtobuf
import LocationWireTools
import LocationWireValidation
import SwiftProtobuf

/// The operations measured in this process: LocationWire's codec and swift-protobuf's generated code for the
/// same schema (conformance/testees/swift-protobuf), on the same bytes.
enum SwiftOperations {
    static let locationWire = "swift-locationwire"
    static let swiftProtobuf = "swift-protobuf"
    static let swiftProtobufVersion = "1.39.0"

    /// Measures the operations of both Swift implementations on one workload; `operations` limits them.
    static func measure(
        _ workload: Workload, method: Method, round: Int, operations filter: Set<String>? = nil
    ) -> [Measurement] {
        var results: [Measurement] = []
        func record(_ implementation: String, _ version: String, _ operation: String, _ body: () -> Void) {
            if let filter, !filter.contains(operation) { return }
            let stats = method.measure(body)
            let allocations = method.allocations(medianNanoseconds: stats.median, body)
            results.append(
                Measurement(
                    implementation: implementation, version: version, workload: workload.name, operation: operation,
                    bytes: workload.bytes.count, fixes: workload.fixes, ns_per_op: stats, samples: method.samples,
                    allocations_per_op: allocations, round: round))
        }
        let codec = AnyMessageCodec(typeName: workload.typeName)!
        measureLocationWire(codec.messageType, workload.bytes) { record(locationWire, Environment.checkout, $0, $1) }
        let peerType = locationWireV1MessageTypes.first { $0.protoMessageName == workload.typeName }!
        measureSwiftProtobuf(peerType, workload.bytes) { record(swiftProtobuf, swiftProtobufVersion, $0, $1) }
        return results
    }

    /// decode, encode, validate, json-print, json-parse, and for a compact batch decode-expand (decode, then
    /// rebuild the rows). Each first checks that it reproduces the workload, as the peer harnesses do.
    private static func measureLocationWire<Message: LocationWireMessage>(
        _ type: Message.Type, _ bytes: [UInt8], record: (String, () -> Void) -> Void
    ) {
        let message = try! Message(serializedBytes: bytes)
        precondition(message.serializedBytes() == bytes, "the workload is not in canonical form")
        let json = message.jsonString()
        precondition(try! Message(jsonString: json) == message, "printed JSON does not read back")
        record("decode") { consume((try! Message(serializedBytes: bytes)).unknownFields.bytes.count + 1) }
        record("encode") { consume(message.serializedBytes().count) }
        var reused: [UInt8] = []
        record("encode-reuse") {
            message.serialize(into: &reused)
            consume(reused.count)
        }
        if let validatable = message as? any Validatable {
            precondition(validatable.validate().isEmpty, "the workload does not validate")
            record("validate") { consume(validatable.validate().count) }
        }
        record("json-print") { consume(message.jsonString().utf8.count) }
        record("json-parse") { consume((try! Message(jsonString: json)).unknownFields.bytes.count + 1) }
        if let batch = message as? LocationBatch, batch.compactFixes != nil {
            record("decode-expand") {
                let decoded = try! LocationBatch(serializedBytes: bytes)
                consume(try! decoded.compactFixes!.fixes().count)
            }
        }
    }

    /// decode, encode, json-print, json-parse with swift-protobuf's generated code.
    private static func measureSwiftProtobuf(
        _ type: any SwiftProtobuf.Message.Type, _ bytes: [UInt8], record: (String, () -> Void) -> Void
    ) {
        func run<Peer: SwiftProtobuf.Message>(_ peer: Peer.Type) {
            let message = try! Peer(serializedBytes: bytes)
            precondition(
                (try! message.serializedBytes() as [UInt8]) == bytes, "swift-protobuf does not reproduce the workload")
            let json = try! message.jsonString()
            record("decode") { consume((try! Peer(serializedBytes: bytes)).unknownFields.data.count + 1) }
            record("encode") { consume((try! message.serializedBytes() as [UInt8]).count) }
            record("json-print") { consume((try! message.jsonString()).utf8.count) }
            record("json-parse") { consume((try! Peer(jsonString: json)).unknownFields.data.count + 1) }
        }
        run(type)
    }
}
