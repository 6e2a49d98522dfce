import LocationWire
import LocationWireJSON
import LocationWireTestSupport
import Testing

/// The proto3 JSON mapping. Expected text is what protobuf 3.21.12's C++ MessageToJsonString printed for the same
/// values; accept/reject decisions follow C++ and upb where they agree and are noted where they do not.
@Suite struct JSONTests {
    private func fixJSON(pressure: Float) -> String {
        var fix = LocationFix()
        fix.pressureHpa = pressure
        return fix.jsonString()
    }

    @Test(arguments: [
        (Float(1013.25), "1013.25"), (0.1, "0.1"), (1_000_000, "1e+06"), (1e-5, "1e-05"), (123456.7, "123456.703"),
        (Float.greatestFiniteMagnitude, "3.40282347e+38"), (Float.leastNormalMagnitude, "1.17549435e-38"),
        (Float.leastNonzeroMagnitude, "1.40129846e-45"), (-0.0, "-0"), (1013.2501, "1013.25012"),
        (16_777_216, "16777216"), (100, "100"), (7e-10, "7e-10"),
    ])
    func floatsPrintAsCppPrintsThem(value: Float, text: String) {
        #expect(fixJSON(pressure: value) == #"{"pressureHpa":\#(text)}"#)
    }

    @Test func nonFiniteFloatsPrintAsStrings() {
        #expect(fixJSON(pressure: .nan) == #"{"pressureHpa":"NaN"}"#)
        #expect(fixJSON(pressure: .infinity) == #"{"pressureHpa":"Infinity"}"#)
        #expect(fixJSON(pressure: -.infinity) == #"{"pressureHpa":"-Infinity"}"#)
    }

    @Test func stringsAreEscapedAsCppEscapesThem() {
        var batch = LocationBatch()
        batch.deviceId =
            "\u{1}\u{8}\t\n\u{B}\u{C}\r\"\\/<>&'\u{7F}\u{80}\u{AD}\u{600}\u{200B}\u{2028}\u{FEFF}\u{E007F}é😀"
        let expected =
            #"{"deviceId":"\u0001\b\t\n\u000b\f\r\"\\/\u003c\u003e&'\u007f\u0080\u00ad\u0600\u200b\u2028\ufeff\udb40\udc7fé😀"}"#
        #expect(batch.jsonString() == expected)
    }

    @Test func sixtyFourBitIntegersAreStringsAndEnumsAreNames() {
        var batch = LocationBatch()
        batch.batchId = .max
        batch.sentAtMs = -5
        batch.datum = .gcj02
        var fix = LocationFix()
        fix.latitudeE7 = 0
        fix.reason = FixReason(rawValue: 99)
        fix.isMock = true
        batch.fixes = [fix]
        batch.liveFix = LocationFix()
        #expect(
            batch.jsonString()
                == #"{"batchId":"18446744073709551615","sentAtMs":"-5","datum":"COORDINATE_DATUM_GCJ02","fixes":[{"latitudeE7":0,"reason":99,"isMock":true}],"liveFix":{}}"#
        )
    }

    @Test func bytesAreStandardBase64() throws {
        var column = FixColumn()
        column.presence = [0x00, 0xFF, 0x10]
        #expect(column.jsonString() == #"{"presence":"AP8Q"}"#)
        column.presence = [0xFB, 0xFF]
        #expect(column.jsonString() == #"{"presence":"+/8="}"#)
        // URL-safe and unpadded input is accepted, as by C++ and upb.
        #expect(try FixColumn(jsonString: #"{"presence":"-_8"}"#).presence == [0xFB, 0xFF])
        #expect(try FixColumn(jsonString: #"{"presence":"AP8"}"#).presence == [0x00, 0xFF])
        #expect(throws: JSONError.self) { try FixColumn(jsonString: #"{"presence":"A P8"}"#) }
    }

    @Test func unknownFieldsAreNotPrinted() throws {
        let fix = try LocationFix(serializedBytes: bytes("0801 9a0601ff"))
        #expect(fix.jsonString() == #"{"sequence":"1"}"#)
    }

    @Test func prettyOutputIndents() {
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        policy.maxBatchSize = 0
        #expect(
            policy.jsonString(options: JSONPrintOptions(pretty: true))
                == "{\n \"policyVersion\": \"1\",\n \"maxBatchSize\": 0\n}")
        #expect(TrackingPolicy().jsonString(options: JSONPrintOptions(pretty: true)) == "{}")
    }

    // MARK: Parsing: accepted by both C++ and upb

    @Test(arguments: [
        (#"{"sentAtMs":1e3}"#, #"{"sentAtMs":"1000"}"#),
        (#"{"sentAtMs":1.0}"#, #"{"sentAtMs":"1"}"#),
        (#"{"sent_at_ms":"7"}"#, #"{"sentAtMs":"7"}"#),
        (#"{"batchId":18446744073709551615}"#, #"{"batchId":"18446744073709551615"}"#),
        (#"{"datum":"COORDINATE_DATUM_BD09"}"#, #"{"datum":"COORDINATE_DATUM_BD09"}"#),
        (#"{"datum":7}"#, #"{"datum":7}"#),
        (#"{"deviceId":null}"#, "{}"),
        (#"{"fixes":null}"#, "{}"),
        (#"{"liveFix":{"latitudeE7":null}}"#, #"{"liveFix":{}}"#),
        (#"{"liveFix":{"altitudeCm":-0}}"#, #"{"liveFix":{"altitudeCm":0}}"#),
        (#"{"liveFix":{"altitudeCm":1e2}}"#, #"{"liveFix":{"altitudeCm":100}}"#),
        (#"{"liveFix":{"pressureHpa":"NaN"}}"#, #"{"liveFix":{"pressureHpa":"NaN"}}"#),
        (#"{"liveFix":{"pressureHpa":"-0"}}"#, #"{"liveFix":{"pressureHpa":-0}}"#),
        (#"{"liveFix":{"pressureHpa":1e-46}}"#, #"{"liveFix":{"pressureHpa":0}}"#),
        (#" {"deviceId" : "a\u00e9\ud83d\ude00\/" } "#, #"{"deviceId":"aé😀/"}"#),
        (#"{"sentAtMs":"9223372036854775807"}"#, #"{"sentAtMs":"9223372036854775807"}"#),
        (#"{"sentAtMs":-9223372036854775808}"#, #"{"sentAtMs":"-9223372036854775808"}"#),
    ])
    func acceptedJSON(input: String, output: String) throws {
        #expect(try LocationBatch(jsonString: input).jsonString() == output)
    }

    // MARK: Parsing: rejected by both C++ and upb

    @Test(arguments: [
        (#"{"sentAtMs":1.5}"#, JSONError.Code.outOfRange),
        (#"{"datum":"NOPE"}"#, .invalidValue),
        (#"{"liveFix":{"pressureHpa":3.5e38}}"#, .outOfRange),
        (#"{"batchId":"-1"}"#, .outOfRange),
        (#"{"liveFix":{"altitudeCm":2147483648}}"#, .outOfRange),
        (#"{"liveFix":{"altitudeCm":"0x10"}}"#, .invalidValue),
        (#"{"liveFix":{"altitudeCm":" 1"}}"#, .invalidValue),
        (#"{"liveFix":{"horizontalAccuracyCm":-1}}"#, .outOfRange),
        (#"{"unknownField":1}"#, .unknownField),
        (#"{"deviceId":"\ud83d"}"#, .syntax),
        (#"{"deviceId":"\ude00\ud83d"}"#, .syntax),
        (#"{"deviceId":"a",}"#, .syntax),
        (#"{"deviceId":"a"} x"#, .syntax),
        (#"{/*c*/"deviceId":"a"}"#, .syntax),
        (#"{'deviceId':"a"}"#, .syntax),
        (#"{deviceId:"a"}"#, .syntax),
        (#"{"sentAtMs":01}"#, .syntax),
        (#"{"sentAtMs":+1}"#, .syntax),
        (#"{"liveFix":{"pressureHpa":NaN}}"#, .syntax),
        ("{\"deviceId\":\"tab\tinside\"}", .syntax),  // an unescaped tab
        ("null", .notAnObject),
        ("[]", .notAnObject),
        (#"{"liveFix":[]}"#, .typeMismatch),
        (#"{"fixes":{}}"#, .typeMismatch),
        (#"{"liveFix":{"isMock":1}}"#, .typeMismatch),
        (#"{"deviceId":1}"#, .typeMismatch),
    ])
    func rejectedJSON(input: String, code: JSONError.Code) {
        #expect {
            try LocationBatch(jsonString: input)
        } throws: { error in
            (error as? JSONError)?.code == code
        }
    }

    // MARK: Parsing: where C++ 3.21 and upb disagree, LocationWire takes the stricter side

    @Test(arguments: [
        (#"{"sent_at_ms":5,"sentAtMs":6}"#, JSONError.Code.duplicateField),  // both accept, last wins
        (#"{"sentAtMs":5,"sentAtMs":6}"#, .duplicateField),
        (#"{"fixes":[null]}"#, .typeMismatch),  // C++ accepts, upb rejects
        (#"{"liveFix":{"isMock":"true"}}"#, .typeMismatch),  // C++ accepts, upb rejects
        (#"{"liveFix":{"pressureHpa":"1e39"}}"#, .outOfRange),  // upb reads Infinity, C++ rejects
    ])
    func stricterThanOnePeer(input: String, code: JSONError.Code) {
        #expect {
            try LocationBatch(jsonString: input)
        } throws: { error in
            (error as? JSONError)?.code == code
        }
    }

    @Test func theLargestFloatAsPrintedReadsBack() throws {
        var fix = LocationFix()
        fix.pressureHpa = .greatestFiniteMagnitude
        #expect(try LocationFix(jsonString: fix.jsonString()) == fix)
        #expect(
            try LocationFix(jsonString: #"{"pressureHpa":"3.4028235e+38"}"#).pressureHpa == .greatestFiniteMagnitude)
    }

    @Test func exponentsInsideStringsAreAcceptedAsUpbDoes() throws {
        // upb accepts "1e3" for an int64; C++ 3.21 rejects it. The number grammar is the same inside strings.
        #expect(try LocationBatch(jsonString: #"{"sentAtMs":"1e3"}"#).sentAtMs == 1000)
    }

    @Test func errorsCarryOffsetAndPath() {
        do {
            _ = try LocationBatch(jsonString: #"{"fixes":[{},{"latitudeE7":"x"}]}"#)
            Issue.record("accepted invalid input")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.offset == 27)
            #expect(error.fieldPath.description == "LocationBatch.fixes[1].latitude_e7")
        }
    }

    @Test func ignoringUnknownFieldsIsAnOption() throws {
        let options = JSONParseOptions(ignoreUnknownFields: true)
        #expect(try LocationBatch(jsonString: #"{"x":{"y":[1]},"deviceId":"a"}"#, options: options).deviceId == "a")
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect {
            try LocationBatch(jsonString: #"{"fixes":"# + deep + "}")
        } throws: { error in
            (error as? JSONError)?.code == .depthLimitExceeded
        }
    }

    @Test func namesAreComparedByteForByte() throws {
        // Swift's String equality is canonical equivalence, under which U+212A KELVIN SIGN equals "K"; C++, upb and
        // Go compare names byte for byte, and so does the reader.
        #expect(try AckRange(jsonString: #"{"result":"ACK_RESULT_ACCEPTED"}"#).result == .accepted)
        #expect {
            try AckRange(jsonString: "{\"result\":\"AC\u{212A}_RESULT_ACCEPTED\"}")
        } throws: { error in
            (error as? JSONError)?.code == .invalidValue
        }
    }

    @Test func invalidUTF8InJSONIsASyntaxError() {
        #expect {
            try LocationBatch(jsonUTF8: Array(#"{"deviceId":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))
        } throws: { error in
            (error as? JSONError)?.code == .syntax
        }
    }
}
