import Foundation
import LocationWire
import LocationWireConformance
import LocationWireJSON
import LocationWireSuiteSource
import LocationWireTestSupport
import Testing

/// The `locwire` command line contract: formats, type names, and exit status 0 (success), 1 (input rejected),
/// 2 (usage or I/O error), with errors on standard error.
@Suite struct CLITests {
    struct Outcome {
        let status: Int32
        let stdout: [UInt8]
        let stderr: String
        var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The locwire binary SwiftPM built next to the test bundle.
    static var locwire: URL { TestExecutables.locwire }

    /// The most one run may take; then the child is killed and the test fails instead of hanging.
    static let deadline: TimeInterval = 120

    /// Runs locwire with `input` on its standard input. Standard input is written and standard error read on
    /// their own threads while this one reads standard output: done one after the other, a child that fills one
    /// pipe (64 KiB on Linux) while the test is still writing or reading another would block both forever.
    func run(_ arguments: [String], input: [UInt8] = []) throws -> Outcome {
        // A child that exits without reading its input must cost a write error, not the test process (SIGPIPE).
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = Self.locwire
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let pending = DispatchGroup()
        let errors = Received()
        let writer = stdin.fileHandleForWriting
        DispatchQueue.global().async(group: pending) {
            try? writer.write(contentsOf: input)  // fails only if the child exits early; its status tells why
            try? writer.close()
        }
        let errorReader = stderr.fileHandleForReading
        DispatchQueue.global().async(group: pending) { errors.data = errorReader.readDataToEndOfFile() }
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { process.terminate() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline, execute: watchdog)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        pending.wait()
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM {
            Issue.record("locwire \(arguments.joined(separator: " ")) did not finish within \(Self.deadline) s")
        }
        return Outcome(
            status: process.terminationStatus, stdout: [UInt8](output),
            stderr: String(decoding: errors.data, as: UTF8.self))
    }

    /// What a reader thread received, handed back to the test's thread (DispatchGroup.wait orders the accesses).
    final class Received: @unchecked Sendable {
        var data = Data()
    }

    static let batch: [UInt8] = Valid.batch.serializedBytes()

    @Test func binaryToBinaryIsCanonicalAndKeepsUnknownFields() throws {
        let outcome = try run(
            ["convert", "--type", "LocationFix", "--from", "binpb", "--to", "binpb"], input: bytes("9a0601ff 0805 0801")
        )
        #expect(outcome.status == 0)
        #expect(outcome.stdout == bytes("0801 9a0601ff"))
    }

    @Test func bothTypeNameFormsWork() throws {
        for name in ["LocationBatch", "locationwire.v1.LocationBatch"] {
            let outcome = try run(["convert", "--type", name, "--from", "binpb", "--to", "json"], input: Self.batch)
            #expect(outcome.status == 0)
            #expect(outcome.text.hasPrefix(#"{"deviceId":"ios-1","batchId":"1""#))
        }
    }

    @Test func jsonRoundTripsThroughTheCommandLine() throws {
        let json = try run(
            ["convert", "--type", "LocationBatch", "--from", "binpb", "--to", "json", "--pretty"], input: Self.batch)
        let back = try run(
            ["convert", "--type", "LocationBatch", "--from", "json", "--to", "binpb"], input: json.stdout)
        #expect(back.status == 0)
        #expect(back.stdout == Self.batch)
    }

    @Test func dumpAnnotatesEveryByte() throws {
        let outcome = try run(
            ["convert", "--type", "LocationFix", "--from", "binpb", "--to", "dump"], input: bytes("088100 9a0601ff"))
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("0       08 81 00"))
        #expect(outcome.text.contains("1:varint LocationFix.sequence  1"))
        #expect(outcome.text.contains("99:len LocationFix.#99  1 bytes"))
        #expect(outcome.text.hasSuffix("7 bytes\n"))
    }

    @Test func aFileArgumentIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locwire-cli-\(UUID().uuidString).binpb")
        try Data(Self.batch).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try run(["validate", "--type", "LocationBatch", file.path])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("LocationBatch is valid"))
    }

    @Test func undecodableInputExitsOne() throws {
        let outcome = try run(
            ["convert", "--type", "LocationBatch", "--from", "binpb", "--to", "json"], input: bytes("0a02c328"))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("invalid-utf8 at byte 2 in LocationBatch.device_id"))
        #expect(outcome.stdout.isEmpty)
        let json = try run(
            ["convert", "--type", "LocationBatch", "--from", "json", "--to", "binpb"], input: Array(#"{"nope":1}"#.utf8)
        )
        #expect(json.status == 1)
        #expect(json.stderr.contains("json-unknown-field"))
        let dump = try run(
            ["convert", "--type", "LocationFix", "--from", "binpb", "--to", "dump"], input: bytes("0801 1d01"))
        #expect(dump.status == 1)
        #expect(dump.text.contains("error: truncated"))
    }

    @Test func invalidMessagesExitOneAndListEveryViolation() throws {
        var batch = Valid.batch
        batch.deviceId = ""
        batch.fixes[1].latitudeE7 = 900_000_001
        let outcome = try run(["validate", "--type", "LocationBatch"], input: batch.serializedBytes())
        #expect(outcome.status == 1)
        #expect(outcome.text.contains("LocationBatch.device_id: error: required-field-missing"))
        #expect(outcome.text.contains("LocationBatch.fixes[1].latitude_e7: error: value-out-of-range"))
        #expect(outcome.stderr.contains("LocationBatch is invalid: 2 errors, 0 warnings"))
        let json = try run(["validate", "--type", "LocationBatch", "--format", "json"], input: batch.serializedBytes())
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: String]]
        #expect(parsed?.count == 2)
        #expect(parsed?.first?["code"] == "required-field-missing")
        #expect(parsed?.first?["severity"] == "error")
    }

    /// Warnings (broken SHOULDs) are printed with their severity, and alone they do not fail validation: the
    /// message still conforms. An error next to them does. §validation-report
    @Test func warningsAloneExitZeroAndCarryTheirSeverity() throws {
        var batch = Valid.batch
        batch.liveFix!.timeMs += 5_000  // a clock jump: the one warning
        let outcome = try run(["validate", "--type", "LocationBatch"], input: batch.serializedBytes())
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("LocationBatch.live_fix.time_ms: warning: clock-jump: "))
        #expect(outcome.stderr.contains("LocationBatch is valid (1 warning)"))
        let json = try run(["validate", "--type", "LocationBatch", "--format", "json"], input: batch.serializedBytes())
        #expect(json.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: String]]
        #expect(parsed?.map { $0["severity"] } == ["warning"])
        #expect(parsed?.first?["code"] == "clock-jump")
        #expect(parsed?.first?["path"] == "LocationBatch.live_fix.time_ms")
        batch.installId = 0
        let both = try run(["validate", "--type", "LocationBatch"], input: batch.serializedBytes())
        #expect(both.status == 1)
        #expect(both.stderr.contains("LocationBatch is invalid: 1 error, 1 warning"))
        let help = try run(["validate", "--help"])
        let words = help.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("0 when the message decodes and breaks no MUST (warnings alone still exit 0)"))
    }

    @Test func usageAndIOErrorsExitTwo() throws {
        #expect(try run(["convert", "--type", "Nope", "--from", "binpb", "--to", "json"]).status == 2)
        #expect(try run(["convert", "--type", "LocationFix", "--from", "xml", "--to", "json"]).status == 2)
        #expect(try run(["convert", "--type", "LocationFix", "--from", "binpb"]).status == 2)
        #expect(try run(["frobnicate"]).status == 2)
        let missing = try run(["validate", "--type", "LocationFix", "/nonexistent/file.binpb"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/file.binpb"))
    }

    /// An error message longer than a pipe buffer: when standard error was read only after standard output had
    /// ended, locwire blocked writing it and the test waited for it forever.
    @Test func errorsLongerThanAPipeBufferDoNotHang() throws {
        let name = String(repeating: "x", count: 100_000)
        let outcome = try run(
            ["convert", "--type", "LocationBatch", "--from", "json", "--to", "binpb"],
            input: Array("{\"\(name)\":1}".utf8))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("json-unknown-field"))
        #expect(outcome.stderr.utf8.count > 1 << 16)
    }

    /// More than a mebibyte in and out, far beyond a pipe buffer. (locwire reads all of its input before it writes,
    /// so this holds even with writes and reads in turn; it guards the pipes for a command that streams.)
    @Test func convertsMoreThanAMebibyteThroughPipes() throws {
        var batch = Valid.batch
        let fix = batch.fixes[0]
        batch.fixes = (1...50_000).map { sequence in
            var copy = fix
            copy.sequence = UInt64(sequence)
            return copy
        }
        let input = batch.serializedBytes()
        #expect(input.count > 1 << 20)
        let outcome = try run(["convert", "--type", "LocationBatch", "--from", "binpb", "--to", "json"], input: input)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.count > input.count)
        #expect(try LocationBatch(jsonUTF8: outcome.stdout) == batch)
    }

    @Test func helpExitsZero() throws {
        let outcome = try run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("convert"))
        #expect(try run(["types"]).text.split(separator: "\n").count == MessageRegistry.allTypes.count)
    }
}
