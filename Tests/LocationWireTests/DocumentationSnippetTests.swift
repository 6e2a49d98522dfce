import LocationWire
import LocationWireJSON
import LocationWireValidation
import Testing

/// The code of the DocC articles (Sources/LocationWire/LocationWire.docc), run as tests so the documentation
/// cannot drift from the API: each test holds one article's listings in the order the article shows them, and
/// the comment names the article. A change here is a change to the article, and the other way round; where an
/// article writes `assert(x)`, the test has `#expect(x)`.
@Suite struct DocumentationSnippetTests {
    /// GettingStarted.md, "Build a batch" and "Encode and decode".
    @Test func gettingStartedBinary() throws {
        let batch = Self.batch()  // GettingStarted.md, "Build a batch": the listing is batch()'s body

        // Encode and decode
        let bytes: [UInt8] = batch.serializedBytes()
        let decoded = try LocationBatch(serializedBytes: bytes)

        #expect(decoded == batch)
        #expect(bytes.count == batch.serializedSize)

        // Decoding errors
        do {
            _ = try LocationBatch(serializedBytes: [0x0A, 0x05, 0x69])
        } catch {
            print(error.code, error.offset)  // truncated, and the byte where it went wrong
            #expect(error.code == .truncated && error.offset == 1)
        }
    }

    /// GettingStarted.md, "Validate".
    @Test func gettingStartedValidate() throws {
        var batch = Self.batch()
        let violations = batch.validate()
        #expect(violations.isEmpty)

        batch.fixes[0].latitudeE7 = 0
        batch.fixes[0].longitudeE7 = 0
        for violation in batch.validate() {
            print(violation)  // error: null-island at LocationBatch.fixes[0].latitude_e7: (0, 0) is a placeholder, ...
        }
        #expect(batch.validate().map(\.code) == [.nullIsland])
        #expect(batch.validate().map(\.path.description) == ["LocationBatch.fixes[0].latitude_e7"])
    }

    /// GettingStarted.md, "Proto3 JSON" and "The compact form".
    @Test func gettingStartedJSONAndCompact() throws {
        let batch = Self.batch()
        let json = batch.jsonString(options: JSONPrintOptions(pretty: true))
        let parsed = try LocationBatch(jsonString: json)
        #expect(parsed == batch)
        #expect(json.contains("\"deviceId\": \"ios-1\""))

        do {
            _ = try LocationBatch(jsonString: #"{"batchId": "not a number"}"#)
        } catch {
            print(error.code, error.fieldPath, error.message)  // json-invalid-value LocationBatch.batch_id ...
            #expect(error.code == .invalidValue)
            #expect(error.fieldPath.description == "LocationBatch.batch_id")
        }

        // The compact form
        var compact = batch
        compact.compactFixes = try CompactFixes(fixes: batch.fixes)
        compact.fixes = []
        let rows = try compact.compactFixes!.fixes()
        #expect(rows == batch.fixes)
        #expect(compact.validate().isEmpty)
    }

    /// ReadingAValidationReport.md.
    @Test func readingAReport() throws {
        var batch = Self.batch()
        batch.fixes.append(batch.fixes[0])  // the same sequence twice
        batch.fixes[1].horizontalAccuracyCm = 0

        let report = batch.validationReport()
        for violation in report.violations {
            print(violation.severity, violation.code, violation.path, violation.message)
        }
        let conforms = report.isValid  // no error; warnings allowed
        #expect(!conforms)
        #expect(
            Set(report.violations.map(\.code)) == [.sequenceNotIncreasing, .accuracyNotPositive],
            "\(report.violations)")
        #expect(report.errors.count == 2 && report.warnings.isEmpty)
        #expect(Violation.Code.clockJump.severity == .warning)

        let capped = batch.validationReport(maxViolations: 1)
        let listed = capped.listedViolations(root: FieldPath(message: "LocationBatch"))
        #expect(listed.count == 2)
        #expect(listed.last?.code == .violationsOmitted)
    }

    /// GettingStarted.md, "Build a batch", line for line.
    static func batch() -> LocationBatch {
        var fix = LocationFix()
        fix.sequence = 1
        fix.timeMs = 1_700_000_000_000  // milliseconds since 1970
        fix.latitudeE7 = 473_769_000  // 47.3769 degrees
        fix.longitudeE7 = 85_417_000  // 8.5417 degrees
        fix.horizontalAccuracyCm = 500  // 5 m
        fix.reason = .periodic

        var batch = LocationBatch()
        batch.deviceId = "ios-1"
        batch.installId = 0x1157  // one app installation
        batch.batchId = 1
        batch.bootId = 42
        batch.sentAtMs = 1_700_000_060_000
        batch.fixes = [fix]
        return batch
    }
}
