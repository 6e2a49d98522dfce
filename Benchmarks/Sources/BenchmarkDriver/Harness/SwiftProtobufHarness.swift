import LocationWireSwiftProtobuf
import SwiftProtobuf

/// swift-protobuf's generated code for the same schema (conformance/testees/swift-protobuf) behind the harness
/// protocol.
struct SwiftProtobufHarness: SwiftHarness {
    static let name = "swift-protobuf"
    let implementation = Self.name
    let version = "1.39.0"
    let operations = ["decode", "encode", "json-print", "json-parse"]

    func prepare(_ operation: String, on workload: WorkloadFiles) throws -> PreparedOperation? {
        guard let type = locationWireV1MessageTypes.first(where: { $0.protoMessageName == workload.typeName }) else {
            throw BenchmarkError("\(workload.name): swift-protobuf has no type \(workload.typeName)")
        }
        return try Self.prepare(type, operation, workload)
    }

    private static func prepare<Message: SwiftProtobuf.Message>(
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
                        consume((try! Message(serializedBytes: inputs[index])).unknownFields.data.count)
                    }
                }, checks: [:])
        case "encode":
            let encodedBytes = try messages.reduce(0) { $0 + (try $1.serializedBytes() as [UInt8]).count }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        consume((try! messages[index].serializedBytes() as [UInt8]).count)
                    }
                }, checks: ["encoded_bytes": encodedBytes])
        case "json-print":
            guard !workload.json.isEmpty else { return nil }
            let jsonBytes = try messages.reduce(0) { $0 + (try $1.jsonString()).utf8.count }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        consume((try! messages[index].jsonString()).utf8.count)
                    }
                }, checks: ["json_bytes": jsonBytes])
        case "json-parse":
            guard !workload.json.isEmpty else { return nil }
            let texts = workload.json
            // JSON has no unknown fields, so the check compares printed forms rather than messages.
            for (text, message) in zip(texts, messages)
            where try Message(jsonUTF8Bytes: text).jsonString() != message.jsonString() {
                throw BenchmarkError("\(workload.name): swift-protobuf does not read a JSON text back as its input")
            }
            return PreparedOperation(
                loop: { iterations, cursor in
                    timedLoop(iterations, &cursor, count) { index in
                        consume((try! Message(jsonUTF8Bytes: texts[index])).unknownFields.data.count)
                    }
                }, checks: [:])
        default:
            return nil
        }
    }
}

extension SwiftProtobufHarness {
    func notApplicableReason(_ operation: String) -> String {
        operation.hasPrefix("json")
            ? "the workload has no JSON texts (the scaling curve measures binary only)"
            : "not an operation of this harness"
    }
}
