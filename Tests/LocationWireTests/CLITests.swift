import Foundation
import LocationWire
import LocationWireConformance
import LocationWireVectors
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
    static var locwire: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("locwire")
    }

    func run(_ arguments: [String], input: [UInt8] = []) throws -> Outcome {
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
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: [UInt8](output), stderr: String(decoding: errors, as: UTF8.self))
    }

    static let batch: [UInt8] = Valid.batch.serializedBytes()

    @Test func binaryToBinaryIsCanonicalAndKeepsUnknownFields() throws {
        let outcome = try run(["convert", "--type", "LocationFix", "--from", "binpb", "--to", "binpb"], input: bytes("9a0601ff 0805 0801"))
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
        let json = try run(["convert", "--type", "LocationBatch", "--from", "binpb", "--to", "json", "--pretty"], input: Self.batch)
        let back = try run(["convert", "--type", "LocationBatch", "--from", "json", "--to", "binpb"], input: json.stdout)
        #expect(back.status == 0)
        #expect(back.stdout == Self.batch)
    }

    @Test func dumpAnnotatesEveryByte() throws {
        let outcome = try run(["convert", "--type", "LocationFix", "--from", "binpb", "--to", "dump"], input: bytes("088100 9a0601ff"))
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("0       08 81 00"))
        #expect(outcome.text.contains("1:varint LocationFix.sequence  1"))
        #expect(outcome.text.contains("99:len LocationFix.#99  1 bytes"))
        #expect(outcome.text.hasSuffix("7 bytes\n"))
    }

    @Test func aFileArgumentIsRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("locwire-cli-\(UUID().uuidString).binpb")
        try Data(Self.batch).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try run(["validate", "--type", "LocationBatch", file.path])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("LocationBatch is valid"))
    }

    @Test func undecodableInputExitsOne() throws {
        let outcome = try run(["convert", "--type", "LocationBatch", "--from", "binpb", "--to", "json"], input: bytes("0a02c328"))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("invalid-utf8 at byte 2 in LocationBatch.device_id"))
        #expect(outcome.stdout.isEmpty)
        let json = try run(["convert", "--type", "LocationBatch", "--from", "json", "--to", "binpb"], input: Array(#"{"nope":1}"#.utf8))
        #expect(json.status == 1)
        #expect(json.stderr.contains("json-unknown-field"))
        let dump = try run(["convert", "--type", "LocationFix", "--from", "binpb", "--to", "dump"], input: bytes("0801 1d01"))
        #expect(dump.status == 1)
        #expect(dump.text.contains("error: truncated"))
    }

    @Test func invalidMessagesExitOneAndListEveryViolation() throws {
        var batch = Valid.batch
        batch.deviceId = ""
        batch.fixes[1].latitudeE7 = 900_000_001
        let outcome = try run(["validate", "--type", "LocationBatch"], input: batch.serializedBytes())
        #expect(outcome.status == 1)
        #expect(outcome.text.contains("LocationBatch.device_id: required-field-missing"))
        #expect(outcome.text.contains("LocationBatch.fixes[1].latitude_e7: value-out-of-range"))
        let json = try run(["validate", "--type", "LocationBatch", "--format", "json"], input: batch.serializedBytes())
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: String]]
        #expect(parsed?.count == 2)
        #expect(parsed?.first?["code"] == "required-field-missing")
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

    @Test func helpExitsZero() throws {
        let outcome = try run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.text.contains("convert"))
        #expect(try run(["types"]).text.split(separator: "\n").count == MessageRegistry.allTypes.count)
    }
}
