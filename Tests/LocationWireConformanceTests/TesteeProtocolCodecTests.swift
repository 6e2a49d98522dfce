import LocationWire
import LocationWireConformance
import LocationWireInspection
import LocationWireTestSupport
import Testing

/// The testee protocol's codec follows protobuf's binary rules as the rest of the codec does: the rules that
/// EveryFieldTests (canonical bytes, every field once) cannot see, on hand-made non-canonical input.
@Suite struct TesteeProtocolCodecTests {
    typealias W = WireBytes

    static func decode<Message: LocationWireMessage>(_ type: Message.Type, _ parts: [UInt8]...) throws -> Message {
        try Message(serializedBytes: parts.flatMap { $0 })
    }

    @Test func theLastValueOfAScalarWins() throws {
        let hello = try Self.decode(
            HelloRequest.self, W.varintField(1, 1), W.lengthDelimited(2, Array("a".utf8)), W.varintField(1, 2),
            W.lengthDelimited(2, Array("b".utf8)))
        #expect(hello.protocolVersion == 2)
        #expect(hello.runner == "b")
    }

    @Test func aSubMessageThatOccursTwiceMerges() throws {
        var first = TrackingPolicy()
        first.policyVersion = 4
        var second = TrackingPolicy()
        second.maxBatchSize = 50
        let request = try Self.decode(
            SessionRequest.self, W.lengthDelimited(4, first.serializedBytes()),
            W.lengthDelimited(4, second.serializedBytes()))
        #expect(request.policy?.policyVersion == 4)
        #expect(request.policy?.maxBatchSize == 50)
    }

    @Test func repeatedScalarsArePackedButReadInEitherForm() throws {
        let response = try Self.decode(
            HelloResponse.self, W.lengthDelimited(4, [1, 2]), W.varintField(4, 3), W.lengthDelimited(4, [8]))
        #expect(response.features == [.binaryInput, .binaryOutput, .jsonInput, .session])
        #expect(hex(response.serializedBytes()) == hex(W.lengthDelimited(4, [1, 2, 3, 8])))

        let result = try Self.decode(SessionStepResult.self, W.varintField(6, 7), W.varintField(6, 300))
        #expect(result.heldFixSequences == [7, 300])
        #expect(hex(result.serializedBytes()) == hex(W.lengthDelimited(6, [7, 0xAC, 0x02])))

        let attempt = try Self.decode(UploadAttempt.self, W.varintField(3, 2), W.lengthDelimited(3, [0, 1]))
        #expect(attempt.recorded == [2, 0, 1])
    }

    @Test func unknownFieldsAreKeptInArrivalOrderAndWrittenLast() throws {
        let unknownA = W.varintField(99, 5)
        let unknownB = W.lengthDelimited(98, [1, 2])
        let hello = try Self.decode(HelloRequest.self, unknownA, W.varintField(1, 1), unknownB)
        #expect(hello.protocolVersion == 1)
        #expect(hello.unknownFields.bytes == unknownA + unknownB)
        #expect(hex(hello.serializedBytes()) == hex(W.varintField(1, 1) + unknownA + unknownB))
    }

    @Test func aKnownNumberWithAnotherWireTypeIsAnUnknownField() throws {
        let wrong = W.lengthDelimited(1, [1])
        let hello = try Self.decode(HelloRequest.self, wrong)
        #expect(hello.protocolVersion == 0)
        #expect(hello.unknownFields.bytes == wrong)
        let step = try Self.decode(SessionStep.self, W.varintField(7, 5))  // send_batch_id is fixed64
        #expect(step.action == nil)
        #expect(step.unknownFields.bytes == W.varintField(7, 5))
    }

    @Test func errorsNameTheFieldTheyOccurredIn() throws {
        let badUTF8: [UInt8] = [0xC3, 0x28]
        let vector = W.lengthDelimited(1, Array("v".utf8)) + W.lengthDelimited(4, badUTF8)
        let error = try #require(decodingError(TesteeRequest.self, W.lengthDelimited(2, vector)))
        #expect(error.code == .invalidUTF8)
        #expect(error.fieldPath.description == "TesteeRequest.vector.json_input")

        var step = SessionStep(.recordFix(LocationFix()))
        step.nowMs = 1
        let steps = W.lengthDelimited(5, step.serializedBytes()) + W.lengthDelimited(5, [0x0A, 0x05])
        let truncated = try #require(decodingError(SessionRequest.self, steps))
        #expect(truncated.code == .truncated)
        #expect(truncated.fieldPath.description == "SessionRequest.steps[1].record_fix")
    }

    @Test func encodingIsCanonicalInFieldNumberOrder() throws {
        let step = try Self.decode(
            SessionStep.self, W.lengthDelimited(12, [0xFF]), W.tag(11, 1) + W.fixed64(9), W.varintField(10, 0),
            W.varintField(10, 3))
        #expect(step.action == .ackBytes([0xFF]))
        #expect(step.nowMs == 3)
        #expect(step.bootId == 9)
        #expect(
            hex(step.serializedBytes())
                == hex(W.varintField(10, 3) + W.tag(11, 1) + W.fixed64(9) + W.lengthDelimited(12, [0xFF])))
    }

    @Test func theOneofMemberWrittenLastWins() throws {
        let input = try Self.decode(
            VectorRequest.self, W.lengthDelimited(3, [1]), W.lengthDelimited(4, Array("{}".utf8)))
        #expect(input.input == .jsonInput("{}"))

        let step = try Self.decode(
            SessionStep.self, W.lengthDelimited(1, LocationFix().serializedBytes()), W.tag(7, 1) + W.fixed64(5))
        #expect(step.action == .sendBatchId(5))

        let failure = try Self.decode(
            SessionResponse.self, W.lengthDelimited(3, Array("no".utf8)), W.lengthDelimited(4, Array("bug".utf8)))
        #expect(failure.failure == .runtimeError("bug"))
        #expect(hex(failure.serializedBytes()) == hex(W.lengthDelimited(4, Array("bug".utf8))))

        let attempt = try Self.decode(UploadAttemptResult.self, W.varintField(3, 5), W.varintField(1, 1))
        #expect(attempt.result == .succeeded)
        let held = try Self.decode(UploadAttemptResult.self, W.varintField(1, 1), W.varintField(3, 0))
        #expect(held.result == .held(retryAfterMs: 0))
        #expect(hex(held.serializedBytes()) == hex(W.varintField(3, 0)))
    }

    @Test func aOneofMessageMemberMergesOnlyWithItself() throws {
        let version = W.varintField(1, 1)
        let runner = W.lengthDelimited(2, Array("r".utf8))
        let merged = try Self.decode(TesteeRequest.self, W.lengthDelimited(1, version), W.lengthDelimited(1, runner))
        var both = HelloRequest()
        both.protocolVersion = 1
        both.runner = "r"
        #expect(merged.kind == .hello(both))

        let replaced = try Self.decode(
            TesteeRequest.self, W.lengthDelimited(1, version), W.lengthDelimited(2, []), W.lengthDelimited(1, runner))
        var runnerOnly = HelloRequest()
        runnerOnly.runner = "r"
        #expect(replaced.kind == .hello(runnerOnly))
    }

    @Test func presenceDecidesWhichZerosAreWritten() throws {
        var ledger = LedgerRequest()
        ledger.retryAfterMs = 0
        ledger.nowMs = 0
        #expect(hex(ledger.serializedBytes()) == hex(W.varintField(6, 0)))
        var report = ParseErrorReport()
        report.category = ErrorCategory(rawValue: -1)
        #expect(hex(report.serializedBytes()) == hex(W.varintField(1, UInt64.max)))
        #expect(try ParseErrorReport(serializedBytes: report.serializedBytes()) == report)
        #expect(VectorResponse(vectorId: "", result: .skipped("")).serializedBytes() == W.lengthDelimited(4, []))
    }
}
