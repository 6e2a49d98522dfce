import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireValidation

/// LocationWire's own implementation as a testee: it answers the testee protocol with the Swift codec,
/// validation, JSON mapping and compact conversion. `locwire conformance testee` runs it over stdin and stdout,
/// so the runner drives it exactly as it drives anyone else's implementation.
public struct BuiltinTestee: Sendable {
    public static let implementationName = "swift-locationwire"
    public static let version = "1.0.0"
    public static let protocolVersion: UInt32 = 1
    public static let features: [TesteeFeature] = [
        .binaryInput, .binaryOutput, .jsonInput, .jsonOutput, .validation, .errorCategories, .compactFixes,
        .session, .ledger, .recording, .fences, .planning, .arming, .httpAnswers,
    ]

    public init() {}

    /// Answers one request.
    public func handle(_ request: TesteeRequest) -> TesteeResponse {
        let hasUnknown = !request.unknownFields.isEmpty
        switch request.kind {
        case .hello:
            var response = HelloResponse()
            response.protocolVersion = Self.protocolVersion  // the runner refuses a version it does not speak
            response.implementation = Self.implementationName
            response.version = Self.version
            response.features = Self.features
            return TesteeResponse(.hello(response))
        case .vector(let vector):
            return TesteeResponse(.vector(run(vector, requestHasUnknownFields: !request.unknownFields.isEmpty)))
        case .session(let session):
            return TesteeResponse(.session(run(session, requestHasUnknownFields: !request.unknownFields.isEmpty)))
        case .ledger(let ledger):
            return TesteeResponse(.ledger(run(ledger, requestHasUnknownFields: !request.unknownFields.isEmpty)))
        case .recording(let recording):
            return TesteeResponse(.recording(answer(recording, requestHasUnknownFields: hasUnknown, run)))
        case .fences(let fences):
            return TesteeResponse(.fences(answer(fences, requestHasUnknownFields: hasUnknown, run)))
        case .planning(let planning):
            return TesteeResponse(.planning(answer(planning, requestHasUnknownFields: hasUnknown, run)))
        case .arming(let arming):
            return TesteeResponse(.arming(answer(arming, requestHasUnknownFields: hasUnknown, run)))
        case .httpAnswer(let httpAnswer):
            return TesteeResponse(.httpAnswer(answer(httpAnswer, requestHasUnknownFields: hasUnknown, run)))
        case nil:
            return .runtimeError("empty request")
        }
    }

    /// Runs one vector.
    public func run(_ request: VectorRequest, requestHasUnknownFields: Bool = false) -> VectorResponse {
        func answer(_ result: VectorResponse.Result) -> VectorResponse {
            VectorResponse(vectorId: request.vectorId, result: result)
        }
        // An outdated testee must fail loudly rather than guess what a newer runner means.
        if requestHasUnknownFields || !request.unknownFields.isEmpty {
            return answer(.runtimeError("the request has fields this testee does not know; update the testee"))
        }
        if let unknown = request.checks.first(where: { !$0.isKnown || $0 == .unspecified }) {
            return answer(.runtimeError("unknown check \(unknown.rawValue); update the testee"))
        }
        guard let codec = AnyMessageCodec(typeName: request.messageType) else {
            return answer(.skipped("unknown message type \(request.messageType)"))
        }
        let message: any LocationWireMessage
        switch request.input {
        case .binaryInput(let bytes):
            do {
                message = try codec.decodeBinary(bytes)
            } catch {
                return answer(.parseError(Self.report(error)))
            }
        case .jsonInput(let text):
            do {
                message = try codec.decodeJSON(Array(text.utf8))
            } catch {
                return answer(.parseError(Self.report(error)))
            }
        case nil:
            return answer(.runtimeError("the request has no input"))
        }
        var output = DecodedOutput()
        for check in request.checks {
            switch check {
            case .binaryOutput:
                output.binaryOutput = AnyMessageCodec.encodeBinary(message)
            case .jsonOutput:
                output.jsonOutput = AnyMessageCodec.encodeJSON(message)
            case .validate:
                output.violations = AnyMessageCodec.validate(message).map {
                    ReportedViolation(
                        code: $0.code.rawValue, path: $0.path.description, message: $0.message,
                        severity: $0.severity.rawValue)
                }
            case .compactToRows:
                guard let compact = message as? CompactFixes else {
                    return answer(
                        .runtimeError("CHECK_COMPACT_TO_ROWS needs a CompactFixes, not \(request.messageType)"))
                }
                do {
                    var batch = LocationBatch()
                    batch.fixes = try compact.fixes()
                    output.rowsOutput = batch.serializedBytes()
                } catch {
                    output.compactError = error.code.rawValue
                }
            case .rowsToCompact:
                guard let batch = message as? LocationBatch else {
                    return answer(
                        .runtimeError("CHECK_ROWS_TO_COMPACT needs a LocationBatch, not \(request.messageType)"))
                }
                do {
                    output.compactOutput = try CompactFixes(fixes: batch.fixes).serializedBytes()
                } catch {
                    output.compactError = error.code.rawValue
                }
            default:
                return answer(.runtimeError("unknown check \(check.rawValue)"))
            }
        }
        return answer(.decoded(output))
    }

    static func report(_ error: DecodingError) -> ParseErrorReport {
        ParseErrorReport(
            category: category(of: error.code), code: error.code.rawValue, message: error.description,
            fieldPath: error.fieldPath.description)
    }

    static func report(_ error: JSONError) -> ParseErrorReport {
        ParseErrorReport(
            category: error.code.isSyntaxError ? .jsonSyntax : .jsonSchema, code: error.code.rawValue,
            message: error.description, fieldPath: error.fieldPath.description)
    }

    /// The protocol's coarse category of a decoding error.
    public static func category(of code: DecodingError.Code) -> ErrorCategory {
        switch code {
        case .truncated: .truncated
        case .varintTooLong: .badVarint
        case .invalidTag: .badTag
        case .invalidWireType: .badWireType
        case .unmatchedEndGroup, .unterminatedGroup: .badGroup
        case .lengthExceedsMessage, .invalidPackedLength: .badLength
        case .invalidUTF8: .invalidUTF8
        default: .limitExceeded
        }
    }
}
