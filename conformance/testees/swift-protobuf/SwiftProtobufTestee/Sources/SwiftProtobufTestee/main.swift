// LocationWire conformance testee for swift-protobuf.
//
// Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
// is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out).
// Message types are looked up by full name in `locationWireV1MessageTypes` (Generated/MessageTypes.swift,
// written by generate.sh next to the generated *.pb.swift files).

import Foundation
import LocationWireSwiftProtobuf
import SwiftProtobuf

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

typealias TesteeRequest = Locationwire_Conformance_V1_TesteeRequest
typealias TesteeResponse = Locationwire_Conformance_V1_TesteeResponse
typealias VectorRequest = Locationwire_Conformance_V1_VectorRequest
typealias VectorResponse = Locationwire_Conformance_V1_VectorResponse

let implementation = "swift-protobuf"
let protocolVersion: UInt32 = 1

/// Every locationwire.v1 message type, by full name ("locationwire.v1.LocationBatch").
let messageTypes: [String: any SwiftProtobuf.Message.Type] = Dictionary(
    uniqueKeysWithValues: locationWireV1MessageTypes.map { ($0.protoMessageName, $0) }
)

func log(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Reads exactly `count` bytes from stdin; fewer only at end of input.
func readFully(_ count: Int) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
        let got = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress! + done, count - done) }
        if got < 0 && errno == EINTR { continue }
        if got <= 0 { break }
        done += got
    }
    return Array(buffer[0..<done])
}

/// Writes the whole buffer to stdout (unbuffered, so nothing is left to flush).
func writeFully(_ bytes: [UInt8]) {
    var done = 0
    while done < bytes.count {
        let wrote = bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, bytes.count - done) }
        if wrote < 0 && errno == EINTR { continue }
        if wrote <= 0 {
            log("\(implementation): cannot write to stdout")
            exit(2)
        }
        done += wrote
    }
}

func handle(_ request: VectorRequest) -> VectorResponse {
    var response = VectorResponse()
    response.vectorID = request.vectorID

    // Look at the checks first: an unknown one means the runner speaks a newer protocol.
    var wantBinary = false
    var wantJSON = false
    for check in request.checks {
        switch check {
        case .binaryOutput: wantBinary = true
        case .jsonOutput: wantJSON = true
        case .validate, .compactToRows, .rowsToCompact:
            response.skipped = "check \(check) is not supported"
            return response
        case .unspecified, .UNRECOGNIZED:
            response.runtimeError = "unknown check \(check.rawValue)"
            return response
        }
    }

    guard let type = messageTypes[request.messageType] else {
        response.skipped = "unknown message type \"\(request.messageType)\""
        return response
    }

    let message: any SwiftProtobuf.Message
    do {
        switch request.input {
        case .binaryInput(let bytes)?:
            message = try type.init(serializedBytes: [UInt8](bytes))
        case .jsonInput(let json)?:
            message = try type.init(jsonString: json)  // default options: unknown JSON fields are errors
        case nil:
            response.runtimeError = "vector has no input"
            return response
        }
    } catch {
        var parseError = Locationwire_Conformance_V1_ParseError()
        parseError.message = "\(error)"
        response.parseError = parseError
        return response
    }

    do {
        var decoded = Locationwire_Conformance_V1_Decoded()
        if wantBinary {
            var options = BinaryEncodingOptions()
            options.useDeterministicOrdering = true
            let bytes: [UInt8] = try message.serializedBytes(options: options)
            decoded.binaryOutput = Data(bytes)
        }
        if wantJSON {
            decoded.jsonOutput = try message.jsonString()
        }
        response.decoded = decoded
    } catch {
        response.runtimeError = "encoding failed: \(error)"
    }
    return response
}

func answer(_ bytes: [UInt8]) -> TesteeResponse {
    var response = TesteeResponse()
    let request: TesteeRequest
    do {
        request = try TesteeRequest(serializedBytes: bytes)
    } catch {
        var vector = VectorResponse()
        vector.runtimeError = "cannot parse TesteeRequest: \(error)"
        response.vector = vector
        return response
    }
    // Fields unknown to this testee's copy of testee.proto mean a newer runner: fail loudly, never guess.
    let understood = request.unknownFields.data.isEmpty && request.hello.unknownFields.data.isEmpty
        && request.vector.unknownFields.data.isEmpty

    switch request.kind {
    case .hello(let hello)?:
        guard understood else {
            log("\(implementation): hello has unknown fields: this testee is older than the runner's protocol")
            exit(2)
        }
        log("\(implementation) \(SwiftProtobuf.Version.versionString): hello from runner \"\(hello.runner)\", protocol \(hello.protocolVersion)")
        var reply = Locationwire_Conformance_V1_HelloResponse()
        reply.protocolVersion = protocolVersion
        reply.implementation = implementation
        reply.version = SwiftProtobuf.Version.versionString
        reply.features = [.binaryInput, .binaryOutput, .jsonInput, .jsonOutput]
        response.hello = reply
    case .vector(let vector)? where understood:
        response.vector = handle(vector)
    case .session(let session)?:  // a codec only: no device engine (FEATURE_SESSION not declared)
        var reply = Locationwire_Conformance_V1_SessionResponse()
        reply.vectorID = session.vectorID
        reply.skipped = "sessions are not supported: a codec-only testee"
        response.session = reply
    case .ledger(let ledger)?:  // no server engine either (FEATURE_LEDGER not declared)
        var reply = Locationwire_Conformance_V1_LedgerResponse()
        reply.vectorID = ledger.vectorID
        reply.skipped = "ledgers are not supported: a codec-only testee"
        response.ledger = reply
    default:
        var vector = VectorResponse()
        vector.vectorID = request.vector.vectorID
        vector.runtimeError = "request not understood: this testee is older than the runner's protocol"
        response.vector = vector
    }
    return response
}

while true {
    let header = readFully(4)
    if header.isEmpty { exit(0) }  // end of the session
    guard header.count == 4 else {
        log("\(implementation): input ends inside a length prefix")
        exit(2)
    }
    let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
    let body = readFully(length)
    guard body.count == length else {
        log("\(implementation): input ends inside a request of \(length) bytes")
        exit(2)
    }
    let response = answer(body)
    do {
        let out: [UInt8] = try response.serializedBytes()
        let n = UInt32(out.count)
        writeFully([UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)] + out)
    } catch {
        log("\(implementation): cannot serialize TesteeResponse: \(error)")
        exit(2)
    }
}
