import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireJSON
import LocationWireTestSupport
import Testing

/// `locwire compact`, `expand` and `stats`, run as a user runs them. The compact and expand expectations are the
/// compact family's vectors (conformance/vectors/compact.json), which the peers' testees (C++, upb, protobuf-c,
/// swift-protobuf) pass in conformance/RESULTS.md, so these commands are judged by the same bytes.
@Suite struct CompactAndStatsCommandTests {
    let cli = CLITests()

    struct CompactVector {
        let id: String
        let messageType: String
        let input: [UInt8]
        let compact: [UInt8]?
        let rows: [UInt8]?
        let compactError: String?
    }

    static let compactVectors: [CompactVector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("conformance/vectors/compact.json")
        guard let data = try? Data(contentsOf: url),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let vectors = file["vectors"] as? [[String: Any]]
        else { return [] }
        return vectors.map {
            CompactVector(
                id: $0["id"] as! String, messageType: $0["messageType"] as! String,
                input: bytes($0["inputHex"] as! String), compact: ($0["compactHex"] as? String).map(bytes),
                rows: ($0["rowsHex"] as? String).map(bytes), compactError: $0["compactError"] as? String)
        }
    }()

    /// A LocationBatch holding only `compact_fixes` (field 9) with these bytes.
    static func batchWithCompact(_ compact: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var remaining = compact.count
        while remaining >= 0x80 {
            length.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        length.append(UInt8(remaining))
        return [0x4A] + length + compact
    }

    @Test func theVectorFileIsThere() {
        #expect(Self.compactVectors.count >= 40)
        #expect(Self.compactVectors.filter { $0.compact != nil }.count >= 10)
        #expect(Self.compactVectors.filter { $0.rows != nil }.count >= 10)
    }

    @Test(arguments: compactVectors.filter { $0.compact != nil })
    func compactGivesTheVectorsColumns(_ vector: CompactVector) throws {
        let outcome = try cli.run(["compact", "--from", "binpb"], input: vector.input)
        #expect(outcome.status == 0, "\(vector.id): \(outcome.stderr)")
        #expect(outcome.stdout == Self.batchWithCompact(vector.compact!), "\(vector.id)")
        // And back: expand gives the rows the vector started from.
        let back = try cli.run(["expand", "--from", "binpb"], input: outcome.stdout)
        #expect(back.status == 0)
        #expect(back.stdout == vector.input, "\(vector.id)")
    }

    @Test(arguments: compactVectors.filter { $0.rows != nil })
    func expandGivesTheVectorsRows(_ vector: CompactVector) throws {
        let outcome = try cli.run(["expand", "--from", "binpb"], input: Self.batchWithCompact(vector.input))
        #expect(outcome.status == 0, "\(vector.id): \(outcome.stderr)")
        #expect(outcome.stdout == vector.rows!, "\(vector.id)")
    }

    @Test(arguments: compactVectors.filter { $0.compactError != nil })
    func refusalsNameTheVectorsCode(_ vector: CompactVector) throws {
        let command = vector.messageType.hasSuffix("CompactFixes") ? "expand" : "compact"
        let input = command == "expand" ? Self.batchWithCompact(vector.input) : vector.input
        let outcome = try cli.run([command, "--from", "binpb"], input: input)
        #expect(outcome.status == 1, "\(vector.id)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains(vector.compactError!), "\(vector.id): \(outcome.stderr)")
    }

    @Test func expandRefusesAnUnknownColumnWithTheHoldReason() throws {
        // CompactFixes: count 1, then column 30 (unknown) with one delta.
        let compact = bytes("a00601 f201 03 0a0102")
        let outcome = try cli.run(["expand"], input: Self.batchWithCompact(compact))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("column 30"))
        #expect(outcome.stderr.contains("HOLD_REASON_UNKNOWN_COMPACT_COLUMN"))
        // Field 101 is no column: still refused, since rows cannot carry it.
        let other = try cli.run(["expand"], input: Self.batchWithCompact(bytes("a00601 a80601")))
        #expect(other.status == 1)
        #expect(other.stderr.contains("unknown field 101"))
    }

    @Test func aBatchWithRowsAndCompactIsRefused() throws {
        var batch = LocationBatch()
        batch.fixes = [LocationFix()]
        batch.compactFixes = CompactFixes()
        for command in ["compact", "expand"] {
            let outcome = try cli.run([command], input: batch.serializedBytes())
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("rows-and-compact"))
        }
    }

    @Test func jsonInStaysJSONOut() throws {
        var batch = LocationBatch()
        batch.deviceId = "d1"
        var fix = LocationFix()
        fix.sequence = 1
        fix.timeMs = 1_700_000_000_000
        batch.fixes = [fix]
        let outcome = try cli.run(["compact"], input: Array(batch.jsonString().utf8))
        #expect(outcome.status == 0)
        let compacted = try LocationBatch(jsonString: outcome.text)
        #expect(compacted.fixes.isEmpty)
        #expect(compacted.compactFixes?.count == 1)
        #expect(compacted.deviceId == "d1")
    }

    // MARK: stats

    /// Three fixes on one meridian, 0.01 degree apart, then a 5-minute gap. One degree of latitude on the
    /// spec's sphere is 6371008.8 m × π / 180 = 111195.08 m, worked out here by hand, not by the code under test.
    static var meridianBatch: LocationBatch {
        var batch = LocationBatch()
        batch.deviceId = "d1"
        let times: [Int64] = [0, 10_000, 20_000, 320_000]
        let accuracies: [UInt32] = [500, 1000, 2000, 300]
        for index in 0..<4 {
            var fix = LocationFix()
            fix.sequence = UInt64(index + 1)
            fix.timeMs = 1_700_000_000_000 + times[index]
            fix.latitudeE7 = 450_000_000 + Int32(index) * 100_000
            fix.longitudeE7 = 140_000_000
            fix.horizontalAccuracyCm = accuracies[index]
            if index < 2 { fix.speedCmS = UInt32(100 * (index + 1)) }
            batch.fixes.append(fix)
        }
        return batch
    }

    @Test func statisticsOfAKnownTrack() throws {
        let statistics = try TrackStatistics(batch: Self.meridianBatch, gapThresholdMs: 60_000)
        #expect(statistics.fixes == 4)
        #expect(statistics.spanMs == 320_000)
        #expect(abs(statistics.distanceM - 3 * 1111.9508) < 0.01)
        #expect(statistics.gaps.map(\.durationMs) == [300_000])
        #expect(statistics.gaps.first?.afterFixIndex == 3)
        // Nearest rank over 5, 10, 20, 3 m: sorted 3, 5, 10, 20; p50 is the 2nd value, p90 the 4th.
        #expect(statistics.horizontalAccuracyM?.p50 == 5)
        #expect(statistics.horizontalAccuracyM?.p90 == 20)
        #expect(statistics.horizontalAccuracyM?.minimum == 3)
        #expect(statistics.speedMS?.count == 2)
        #expect(statistics.speedMS?.maximum == 2)
        #expect(statistics.intervalMs?.p50 == 10_000)
    }

    @Test func rowAndCompactBatchesGiveTheSameFigures() throws {
        let rows = Self.meridianBatch
        var compact = rows
        compact.compactFixes = try CompactFixes(fixes: rows.fixes)
        compact.fixes = []
        #expect(try TrackStatistics(batch: rows) == TrackStatistics(batch: compact))
        let sizes = try TrackStatistics(batch: rows).encoding
        #expect(sizes.rowBytes == rows.serializedBytes().count)
        #expect(sizes.compactBytes == compact.serializedBytes().count)
    }

    @Test func backwardTimeIsCountedNotTakenAsAGap() throws {
        var batch = Self.meridianBatch
        batch.fixes[2].timeMs = batch.fixes[0].timeMs - 1
        let statistics = try TrackStatistics(batch: batch)
        #expect(statistics.backwardSteps == 1)
        #expect(statistics.intervalMs?.count == 2)
    }

    @Test func aBacklogWithUnknownFieldsHasNoCompactSizeAndSaysWhy() throws {
        var batch = Self.meridianBatch
        batch.fixes[1].unknownFields = UnknownFields(rawBytes: [0xC0, 0x0C, 0x01])  // field 200, varint 1
        let sizes = try TrackStatistics(batch: batch).encoding
        #expect(sizes.compactBytes == nil)
        #expect(sizes.compactRefusal?.contains("compact-unknown-fields") == true)
    }

    /// The gzip member is checked by the system's gzip, another implementation, when the machine has one.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/gzip"), "needs /bin/gzip"))
    func gzipOutputIsAGzipFileThatGunzipReads() throws {
        let original = Array(Self.meridianBatch.serializedBytes()) + Array(repeating: 7, count: 10_000)
        let compressed = Gzip.compress(original)
        #expect(compressed.count < original.count)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(compressed))
        try input.fileHandleForWriting.close()
        let decompressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect([UInt8](decompressed) == original)
    }

    @Test func statsCommandReportsJSONWithUnits() throws {
        let outcome = try cli.run(["stats", "--format", "json"], input: Self.meridianBatch.serializedBytes())
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout)) as? [String: Any])
        #expect(report["fixes"] as? Int == 4)
        #expect(report["gapCount"] as? Int == 1)
        #expect(report["distanceM"] as? Double == 3335.9)
        let encoding = try #require(report["encoding"] as? [String: Any])
        #expect(encoding["rowBytes"] as? Int == Self.meridianBatch.serializedBytes().count)
        #expect(encoding["compactGzipBytes"] is Int)
    }

    @Test func statsRefusesWhatIsNotABatch() throws {
        let outcome = try cli.run(["stats"], input: Array("<gpx></gpx>".utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("LocationBatch"))
    }
}

extension CompactAndStatsCommandTests.CompactVector: CustomTestStringConvertible {
    var testDescription: String { id }
}
