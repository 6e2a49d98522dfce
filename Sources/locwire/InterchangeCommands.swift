import ArgumentParser
import Foundation
import LocationWire
import LocationWireFiles
import LocationWireInterchange
import LocationWireJSON

extension ExportFormat: ExpressibleByArgument {}
extension SplitBy: ExpressibleByArgument {}

/// `--from`: a format, or `auto` to detect it from the content.
enum ImportFromOption: String, ExpressibleByArgument, CaseIterable {
    case auto, gpx, geojson, owntracks, overland, csv, takeout, kml, tcx

    var format: ImportFormat? { ImportFormat(rawValue: rawValue) }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a GPX, KML/KMZ, TCX, GeoJSON, OwnTracks, Overland, CSV or Takeout track into a LocationBatch.",
        discussion: """
            The format is detected from the content (--from auto): GPX, KML and TCX by their root element \
            (a ZIP archive is KMZ), Overland by its \
            "locations" features, Google Takeout by its keys, OwnTracks by "_type" or the Recorder's .rec lines \
            and API envelope, GeoJSON by its "type", CSV by a first line of delimited names. A file that does not read as the format \
            says which format it was read as, where it failed, and which format the content looks like.

            Units are converted to those of proto/locationwire/v1/location_fix.proto and rounded to the nearest \
            integer (OwnTracks vel 36 km/h is speed_cm_s 1000; acc 12.5 m is horizontal_accuracy_cm 1250). \
            Nothing is invented: what the file does not say stays unset.

            Lenient by default, the same in every format: a point without a time or a position, with either \
            out of range, or with a value that cannot be read at all (lat="abc", a latitude of 95, a time that \
            is not a time) is skipped, counted with its reason and where it was, and the import goes on; \
            --strict refuses the file at the first such point instead. Any other value out of range or not a \
            number (iOS writes -1 for "invalid") is left out of its fix and counted. A time without a zone is \
            read in --timezone (UTC by default) and counted. Records that are not recorded points (an \
            OwnTracks card or lwt, a GeoJSON polygon, GPX route points and waypoints) are counted, not imported.

            Sequences are 1 ... n in time order. A point earlier than the one before it is sorted into place; \
            points with equal times keep their file order. The batch has datum WGS84, sent_at_ms the latest \
            fix's time, install_id from --install-id or a hash of the device id, batch_id a hash of the device \
            id, fix count and first and last time, so the same file gives the same bytes; no boot id and no \
            monotonic times (no format here has them) unless --elapsed-from-time gives it the convention \
            `simulate` applies to GPX: boot_id 1 and elapsed_realtime_ms 3,600,000 at the first fix plus the \
            time since it, so that `simulate record` can replay it; --default-accuracy-m states the accuracy of \
            points whose file gives none (simulate assumes 5 m for GPX), so that the two agree. The batch is \
            validated before it is written.

            Structure is kept. Recording segments (GPX trkseg, GeoJSON lines) become a LAUNCHED lifecycle event \
            at the first fix of each segment after the first (proto/README.md, trace segments), so that stats \
            measures each segment and render and export do not join them. A file of several devices (OwnTracks \
            tid or topic, Overland device_id) is refused unless --split-by device writes a batch for each \
            (device id: --device-id, a dash, the file's name for it). --split-by segment and --split-by day (in \
            --timezone) write one batch per segment or day, continuing one installation's sequence numbers. \
            Several batches go to --output-dir as NAME.binpb (or .json).

            CSV: comma, semicolon, tab or | (the header line's commonest; a decimal comma is read with the \
            others). Header names in any case and spelling: time, timestamp, datetime, utc, unix time, \
            timestamp_ms, or date and time columns; lat, latitude, latitudeE7; lon, lng, long, longitude, \
            longitudeE7; N/S and E/W; altitude, elevation, ele, height; accuracy, acc, hdop; speed, vel \
            (m/s, or a unit in the header: km/h, mph, knots); course, bearing, heading; battery, \
            battery_level; and the export's names (accuracy_m, altitude_m, vertical_accuracy_m, speed_m_s, \
            speed_accuracy_m_s, course_deg, course_accuracy_deg, battery_percent, pressure_hpa, \
            motion_confidence_pct, floor, age_ms, ellipsoidal_height_m, is_mock, battery_state, \
            motion_activity, reason, source). Other columns are listed as not used. Times are ISO 8601 or Unix \
            seconds or milliseconds (told apart by magnitude, and said so); coordinates decimal degrees, with \
            N/S/E/W before or after, or E7 integers.
            OwnTracks: a JSON array, JSON lines, a Recorder .rec file or the Recorder API's {"count", "data"}. \
            Overland: {"locations": [...]}. GeoJSON: Point features with a time property (time, timestamp, \
            datetime, when, recorded_at or date), LineString and MultiLineString features with per-coordinate \
            times (coordinateProperties.times, coordTimes or times).

            KML: gx:Track (when and gx:coord pairs, with OpenTracks' speed array) and Point placemarks with a \
            TimeStamp; a LineString's TimeSpan dates only its first and last coordinate (times are not spread \
            over a line), so the others are skipped as untimed. KMZ: the doc.kml inside. TCX: Activity \
            trackpoints, each Track a segment; a Course's trackpoints are a plan, counted, not imported.

            Waypoints and routes are not fixes (nobody was there at a time): counted, not imported, unless asked \
            for, and then written as what they are. --waypoints FILE writes the waypoints (GPX wpt, KML \
            #waypoint markers and untimed Point placemarks, TCX CoursePoints) as a region catalogue in GeoJSON \
            that locwire plan reads: a circle of --waypoint-radius-m around each, level site, the id the \
            waypoint's name (made unique). --routes FILE writes the routes (GPX rte, TCX Course trackpoints) as \
            GeoJSON LineStrings with their names. A file with waypoints or routes and no fix writes no batch.

            Google Takeout: Records.json ({"locations": [...]}; each deviceTag is a device, so use --split-by \
            device when there are several), Semantic Location History months ({"timelineObjects": [...]}: \
            activity segment ends and simplifiedRawPath points; one fix per place visit, at its start, with \
            reason visit) and the Timeline export (semanticSegments and rawSignals, or the iOS array): \
            timelinePath points, visits, activity ends, raw positions. Waypoints without times, parking events \
            and child visits are counted, not imported.

            A summary goes to standard error: points read, imported, skipped by reason with a stable code and \
            the first places, values left out, what was assumed, values rounded with the largest rounding error \
            in the field's unit; --summary-json writes the same as JSON.
            Exit status: 0 written; 1 the file is not the format (the message names the line or element), \
            --strict found a point it cannot import, or no point could be imported; 2 a file cannot be read or \
            written, or an option is wrong.
            """
    )

    @Option(help: "The input format, or auto to detect it from the content.")
    var from: ImportFromOption = .auto

    @Argument(help: ArgumentHelp("The track file; standard input when absent or '-'.", valueName: "file"))
    var file: String?

    @Option(help: "The batch's device_id (1 to 128 bytes).")
    var deviceId: String

    @Option(help: "The batch's install_id (decimal, not 0); a hash of the device id when absent.")
    var installId: UInt64?

    @Flag(help: "Refuse the file at the first point that cannot be imported, instead of skipping and counting it.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "The time zone of times written without one (an IANA name such as Europe/Zagreb, or UTC).",
            valueName: "zone"))
    var timezone = "UTC"

    @Flag(help: "Give the batch monotonic times derived from the fixes' times (boot_id 1), as simulate does for GPX.")
    var elapsedFromTime = false

    @Option(
        help: ArgumentHelp(
            "The horizontal accuracy of points whose file gives none (simulate assumes 5 m for GPX).",
            valueName: "metres"))
    var defaultAccuracyM: Double?

    @Option(
        help: ArgumentHelp(
            "Write the waypoints as a GeoJSON region catalogue (for locwire plan) to this file.", valueName: "file"))
    var waypoints: String?

    @Option(help: ArgumentHelp("The radius of each waypoint's region, metres (1 to 1000000).", valueName: "metres"))
    var waypointRadiusM = 100

    @Option(help: ArgumentHelp("Write the routes as GeoJSON LineStrings to this file.", valueName: "file"))
    var routes: String?

    @Option(help: "Write one batch per device (OwnTracks tid or topic, Overland device_id), segment or day.")
    var splitBy: SplitBy = .none

    @Option(help: "Output format of the LocationBatch.")
    var to: WireFormatOption = .binpb

    @Option(help: ArgumentHelp("Write the batch here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Write each batch into this directory as NAME.binpb or NAME.json (needed when --split-by gives several).",
            valueName: "dir"))
    var outputDir: String?

    @Option(help: ArgumentHelp("Also write the summary as JSON to this file.", valueName: "file"))
    var summaryJson: String?

    func validate() throws {
        if installId == 0 { throw ValidationError("--install-id must not be 0") }
        if output != nil && outputDir != nil { throw ValidationError("give --output or --output-dir, not both") }
        if deviceId.isEmpty || deviceId.utf8.count > 128 {
            throw ValidationError("--device-id needs 1 to 128 bytes of UTF-8, not \(deviceId.utf8.count)")
        }
        if let defaultAccuracyM, !(defaultAccuracyM > 0 && defaultAccuracyM < 40_000_000) {
            throw ValidationError("--default-accuracy-m must be a positive number of metres")
        }
        if !(1...1_000_000).contains(waypointRadiusM) {
            throw ValidationError("--waypoint-radius-m must be 1 to 1000000 metres, not \(waypointRadiusM)")
        }
        if TimeZone(identifier: timezone) == nil {
            throw ValidationError(
                "--timezone \(timezone) is not a time zone (an IANA name such as Europe/Zagreb, or UTC)")
        }
    }

    func run() throws {
        // A file is streamed, not read whole, so no cap is needed (standard input is read whole, up to the usual
        // cap); gzip is decompressed as it is read.
        let input: ImportInput
        do throws(FileAccessError) {
            if let file, file != "-" {
                input = try ImportInput.file(file)
            } else {
                input = ImportInput(Data(try FileAccess.readStandardInput()))
            }
        } catch {
            throw UsageFailure(message: error.description)
        }
        let name = file ?? "standard input"
        let format: ImportFormat
        if let chosen = from.format {
            format = chosen
        } else if let detected = FormatDetection.detect(input.prefix(FormatDetection.prefixBytes)) {
            format = detected.format
            printToStandardError("locwire import: \(name): read as \(format.displayName) (\(detected.evidence))")
        } else {
            throw InputRejected(
                message:
                    "\(name): not a format import reads (GPX, KML, TCX, GeoJSON, OwnTracks, Overland, CSV or "
                    + "Google Takeout); "
                    + "name one with --from when it is one")
        }
        let options = ImportOptions(
            strict: strict, timeZone: TimeZone(identifier: timezone)!, elapsedFromTime: elapsedFromTime,
            defaultAccuracyM: defaultAccuracyM,
            keep: MarkedKinds().union(waypoints == nil ? [] : .waypoints).union(routes == nil ? [] : .routes))
        let imported: ImportFormat.Imported
        do {
            imported = try format.importFile(
                input, deviceId: deviceId, installId: installId, options: options, splitBy: splitBy)
        } catch {
            throw InputRejected(message: "\(name): \(error)")
        }
        let (batches, summary) = (imported.batches, imported.summary)
        let segments = batches.reduce(0) { $0 + $1.batch.lifecycleEvents.count } + batches.count
        var text = summary.text
        if batches.count > 1 || segments > batches.count {
            text +=
                "\nwrote \(batches.count) batch\(batches.count == 1 ? "" : "es")"
                + (segments > batches.count ? ", \(segments) recording segments (LAUNCHED events between them)" : "")
        }
        if batches.isEmpty { text += "\nno fix: no batch written" }
        printToStandardError("locwire import: \(name)\n\(text)")
        if let summaryJson { try writeText(jsonReport(summary.jsonObject), toFile: summaryJson) }
        if let waypoints {
            try writeText(MarkedPlaces.regionCatalogue(imported.marked, radiusM: waypointRadiusM), toFile: waypoints)
        }
        if let routes { try writeText(MarkedPlaces.routeLines(imported.marked), toFile: routes) }
        if batches.isEmpty { return }
        func bytes(_ batch: LocationBatch) -> [UInt8] {
            switch to {
            case .binpb: batch.serializedBytes()
            case .json: Array((batch.jsonString(options: JSONPrintOptions(pretty: true)) + "\n").utf8)
            }
        }
        guard let outputDir else {
            guard batches.count == 1 else {
                throw UsageFailure(
                    message: "--split-by \(splitBy.rawValue) gives \(batches.count) batches: name a directory for "
                        + "them with --output-dir")
            }
            return try writeOutput(bytes(batches[0].batch), toFile: output)
        }
        try createOutputDirectory(outputDir)
        for imported in batches {
            let stem = (imported.name ?? imported.batch.deviceId).map {
                $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_"
            }
            try writeOutput(bytes(imported.batch), toFile: "\(outputDir)/\(String(stem)).\(to.rawValue)")
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the fixes of a LocationBatch as GeoJSON, GPX, OwnTracks, Overland or CSV.",
        discussion: """
            Every fix is written: the backlog (rows or compact) and then the live fix. Each format keeps what it \
            can hold: GPX time, position, altitude, hdop (accuracy / 5 m) and speed and course (Garmin \
            TrackPointExtension v2); OwnTracks (a JSON array, or with owntracks-rec the Recorder's .rec lines) \
            whole seconds and whole metres, km/h and degrees, pressure, battery, battery \
            status and trigger; Overland every accuracy, speed, course and battery value exactly and the \
            motion; GeoJSON and CSV every field exactly but sequence, elapsed_realtime_ms and boot_id (CSV \
            writes import's own column names, only those some fix has a value for, and reads back exactly).
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
        // Written as it goes: an export of a million fixes is never held whole.
        do {
            let writer = try FileAccess.Writer(path: output)
            try to.write(batch, to: writer)
            try writer.close()
        } catch let error as InterchangeError {
            throw InputRejected(message: "\(name): \(error)")
        } catch let error as FileAccessError {
            throw UsageFailure(message: error.description)
        }
    }
}
