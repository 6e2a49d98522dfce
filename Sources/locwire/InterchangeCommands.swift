import ArgumentParser
import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireJSON

extension ImportFormat: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a GPX, GeoJSON, OwnTracks, Overland or CSV track into a valid LocationBatch.",
        discussion: """
            Units are converted to those of proto/locationwire/v1/location_fix.proto and rounded to the nearest \
            integer (OwnTracks vel 36 km/h is speed_cm_s 1000; acc 12.5 m is horizontal_accuracy_cm 1250). A \
            point without a time or a position, or with either out of range, is skipped and counted; any other \
            value out of range (iOS writes -1 for "invalid") is left out of its fix and counted. Nothing is \
            invented: what the file does not say stays unset.

            Sequences are 1 ... n in time order. A point earlier than the one before it is sorted into place; \
            points with equal times keep their file order. The batch has no boot id and no monotonic times (no \
            format here has them), datum WGS84, sent_at_ms the latest fix's time, install_id from --install-id \
            or a hash of the device id, batch_id a hash of the device id, fix count and first and last time, so \
            the same file gives the same bytes. The batch is validated before it is written.

            CSV: a header row with time (ISO 8601 or Unix seconds), latitude, longitude (degrees) and any of \
            accuracy_m, altitude_m, vertical_accuracy_m, speed_m_s, speed_accuracy_m_s, course_deg, \
            course_accuracy_deg, battery_percent, pressure_hpa, motion_confidence_pct, floor, age_ms, \
            ellipsoidal_height_m, is_mock, battery_state, motion_activity, reason, source.
            OwnTracks: a JSON array, JSON lines or a Recorder .rec file. Overland: {"locations": [...]}.

            A summary goes to standard error: points read, imported, skipped by reason, values left out, and \
            values rounded with the largest rounding error in the field's unit.
            Exit status: 0 written; 1 the file is not the format (the message names the line or element), or \
            no point could be imported; 2 a file cannot be read or written.
            """
    )

    @Option(help: "The input format.")
    var from: ImportFormat

    @Argument(help: ArgumentHelp("The track file; standard input when absent or '-'.", valueName: "file"))
    var file: String?

    @Option(help: "The batch's device_id (1 to 128 bytes).")
    var deviceId: String

    @Option(help: "The batch's install_id (decimal, not 0); a hash of the device id when absent.")
    var installId: UInt64?

    @Option(help: "Output format of the LocationBatch.")
    var to: WireFormatOption = .binpb

    @Option(help: ArgumentHelp("Write the batch here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write the summary as JSON to this file.", valueName: "file"))
    var summaryJson: String?

    func validate() throws {
        if installId == 0 { throw ValidationError("--install-id must not be 0") }
        if deviceId.isEmpty || deviceId.utf8.count > 128 {
            throw ValidationError("--device-id needs 1 to 128 bytes of UTF-8, not \(deviceId.utf8.count)")
        }
    }

    func run() throws {
        let data = Data(try readFileOrStandardInput(file))
        let name = file ?? "standard input"
        let batch: LocationBatch
        let summary: ImportSummary
        do {
            (batch, summary) = try from.importBatch(data, deviceId: deviceId, installId: installId)
        } catch {
            throw InputRejected(message: "\(name): \(error)")
        }
        printToStandardError("locwire import: \(name)\n\(summary.text)")
        if let summaryJson { try writeText(jsonReport(summary.jsonObject), toFile: summaryJson) }
        let bytes: [UInt8] =
            switch to {
            case .binpb: batch.serializedBytes()
            case .json: Array((batch.jsonString(options: JSONPrintOptions(pretty: true)) + "\n").utf8)
            }
        try writeOutput(bytes, toFile: output)
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the fixes of a LocationBatch as GeoJSON, GPX, OwnTracks or Overland.",
        discussion: """
            Every fix is written: the backlog (rows or compact) and then the live fix. Each format keeps what it \
            can hold: GPX time, position, altitude, hdop (accuracy / 5 m) and speed and course (Garmin \
            TrackPointExtension v2); OwnTracks whole seconds and whole metres, km/h and degrees, pressure, battery, battery \
            status and trigger; Overland every accuracy, speed, course and battery value exactly and the \
            motion; GeoJSON every field exactly but sequence, elapsed_realtime_ms and boot_id (the names are \
            those of import's CSV columns).
            Exit status: 0 written; 1 the input is not a LocationBatch; 2 a file cannot be read or written.
            """
    )

    @Option(help: "The output format.")
    var to: ExportFormat

    @OptionGroup var input: BatchInputOptions

    @Option(help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let (batch, _) = try input.readBatch()
        let name = input.inputName
        do {
            try writeOutput(Array(try to.write(batch)), toFile: output)
        } catch let error as InterchangeError {
            throw InputRejected(message: "\(name): \(error)")
        }
    }
}
