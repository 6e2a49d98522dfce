import ArgumentParser
import Foundation
import LocationWire
import LocationWireCatalogues
import LocationWireConformance
import LocationWireInterchange
import LocationWireJSON
import LocationWireRender

/// `locwire render`: a picture of a trace, its regions and its fence events, or of a behaviour vector.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a trace with its regions and fence events as SVG, or as an HTML page with pan, zoom and hover.",
        discussion: """
            The trace is a GPX track or a LocationBatch (protobuf binary or proto3 JSON; its backlog, live fix and \
            fence events), read as `simulate record` reads it. The line is not drawn across a break: a new \
            recording segment (a GPX trkseg, a LAUNCHED lifecycle event; proto/README.md, trace segments) or a \
            time gap longer than --gap-seconds. --regions draws a RegionAssignment (JSON or binary) \
            or a GeoJSON catalogue: circles and polygons, shaded by level. --events draws the events that \
            `locwire simulate fences` wrote (its JSON). Fixes without a position are counted and left out.

            --vector FILE --case ID draws a fences or recording vector instead: its trace, with the events (or \
            recorded fixes) it expects outlined and an implementation's filled, those that differ ringed. The \
            implementation is the built-in engines, or --testee.

            The picture is self-contained: no map tiles, fonts or scripts are fetched, so it works offline. A \
            long track is thinned to what the picture can show: a fix is drawn when it lies a pixel or more from \
            the one drawn before it (more pixels while the track would take more than about 4.5 MB), so any \
            input gives a page a browser opens at once; every fix drawn keeps its exact details.

            Exit status: 0 drawn; 1 the input does not read or has nothing to draw (the error names the file and \
            the line or field); 2 usage or I/O error.
            """)

    @Argument(help: ArgumentHelp("The trace: GPX, or a LocationBatch (.json or binary).", valueName: "trace"))
    var trace: String?

    @Option(
        help: ArgumentHelp("How the trace is written (default: from the name, then the content).", valueName: "format"))
    var traceFormat: BehaviorInput.TraceFormat = .auto

    @Option(
        help: ArgumentHelp("Regions: a RegionAssignment (JSON or binary) or a GeoJSON catalogue.", valueName: "file"))
    var regions: String?

    @Option(help: ArgumentHelp("Fence events: the JSON `locwire simulate fences` writes.", valueName: "file"))
    var events: String?

    @Option(
        help: ArgumentHelp(
            "Do not draw a line between fixes further apart in time than this (0: join across any gap).",
            valueName: "seconds"))
    var gapSeconds: Double = 3600

    @Option(help: "What the track's colour shows.")
    var colorBy: TrackColoringOption = .speed

    @Flag(help: "Draw a trace that breaks the spec's rules (its violations are printed as warnings).")
    var force = false

    @Flag(help: "Write an HTML page (inline SVG and script: pan, zoom, hover details) instead of SVG.")
    var html = false

    @Option(help: "Picture width, pixels (320 to 8000).")
    var width = 960

    @Option(help: "Picture height, pixels (240 to 8000).")
    var height = 640

    @Option(help: ArgumentHelp("The title (default: the file name).", valueName: "text"))
    var title: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Also write where each fix was drawn (JSON: index, x, y in pixels of the picture, colour).",
            valueName: "file"))
    var debugProjection: String?

    @Option(help: ArgumentHelp("A vector file (conformance/vectors/fences.json or recording.json).", valueName: "file"))
    var vector: String?

    @Option(name: .customLong("case"), help: ArgumentHelp("The vector's id, with --vector.", valueName: "id"))
    var caseId: String?

    @Option(
        help: ArgumentHelp(
            "With --vector: the command that starts the implementation (default: the built-in engines).",
            valueName: "command"))
    var testee: String?

    @Option(help: ArgumentHelp("Seconds the testee may take.", valueName: "seconds"))
    var timeout = 10.0

    enum TrackColoringOption: String, ExpressibleByArgument, CaseIterable {
        case speed, reason
    }

    func validate() throws {
        guard (320...8000).contains(width), (240...8000).contains(height) else {
            throw ValidationError("--width must be 320 to 8000 and --height 240 to 8000")
        }
        guard gapSeconds >= 0, gapSeconds < 1e12 else {
            throw ValidationError("--gap-seconds must be 0 (no limit) or a positive number of seconds")
        }
        if vector != nil {
            guard caseId != nil else { throw ValidationError("--vector needs --case ID") }
            guard trace == nil, regions == nil, events == nil else {
                throw ValidationError("--vector draws the vector's own trace; give no trace, --regions or --events")
            }
        } else {
            guard trace != nil else { throw ValidationError("give a trace file, or --vector FILE --case ID") }
            guard caseId == nil, testee == nil else { throw ValidationError("--case and --testee go with --vector") }
        }
    }

    func run() throws {
        var picture = try vector != nil ? vectorPicture() : tracePicture()
        picture.coloring = colorBy == .reason ? .reason : .speed
        if let title { picture.title = title }
        var map = SVGMap(width: Double(width), height: Double(height))
        map.standalone = !html
        let (svg, fixes) = map.render(picture)
        let text = html ? HTMLPage.mapPage(title: picture.title, svg: svg) : svg
        try writeText(text, toFile: output)
        if fixes.count < picture.points.count {
            printToStandardError(
                "locwire render: drew \(fixes.count) of \(picture.points.count) fixes, one per pixel of path (each "
                    + "fix drawn has its own details; the others lie within a pixel or a few of one drawn)")
        }
        if let debugProjection {
            let object: [String: Any] = [
                "width": width, "height": height,
                "fixes": fixes.map { ["index": $0.index, "x": $0.x, "y": $0.y, "color": $0.color] as [String: Any] },
            ]
            try writeText(jsonReport(object), toFile: debugProjection)
        }
    }

    func tracePicture() throws -> TrackPicture {
        let path = trace!
        let (fixes, batchEvents, lifecycleEvents) = try BehaviorInput.traceAndEvents(
            path, format: traceFormat, force: force)
        guard !fixes.isEmpty else { throw InputRejected(message: "\(path): the trace has no fixes; nothing to draw") }
        var picture = TrackPicture(title: URL(fileURLWithPath: path).lastPathComponent)
        picture.setTrack(
            fixes, lifecycleEvents: lifecycleEvents, gapMs: gapSeconds > 0 ? Int64((gapSeconds * 1000).rounded()) : nil)
        guard !picture.points.isEmpty else {
            throw InputRejected(message: "\(path): none of the \(fixes.count) fixes has a latitude and longitude")
        }
        if let regions { picture.regions = try RegionCatalogueFile.read(regions) }
        picture.addEvents(batchEvents, layer: .events)
        if let events { picture.addEvents(try Self.simulatedEvents(events), layer: .events) }
        let hours = Double((picture.points.map(\.timeMs).max() ?? 0) - (picture.points.map(\.timeMs).min() ?? 0))
        picture.caption.append(
            String(
                format: "%ld fixes, %.2f km, %.1f h; %ld regions, %ld events", picture.points.count,
                picture.lengthM / 1000, hours / 3_600_000, picture.regions.count, picture.markers.count))
        return picture
    }

    func vectorPicture() throws -> TrackPicture {
        let path = vector!
        let file: VectorFile
        do {
            file = try VectorFile.decode(try BehaviorInput.read(path))
        } catch let error as UsageFailure {
            throw error
        } catch {
            throw InputRejected(message: "\(path): not a vector file: \(error)")
        }
        guard let found = file.vectors.first(where: { $0.id == caseId }) else {
            throw InputRejected(message: "\(path): no vector with id \(caseId!) (the file holds \(file.vectors.count))")
        }
        guard ScenarioPicture.canDraw(found) else {
            throw InputRejected(
                message:
                    "\(path): \(found.id) is a \(found.messageType); only fences and recording vectors have a trace")
        }
        do {
            if let testee {
                let (process, implementation) = try startTestee(testee)
                defer { process.stop() }
                return try ScenarioPicture.picture(
                    of: found, answerer: .testee(process, timeoutMilliseconds: Int(timeout * 1000)),
                    implementation: implementation)
            }
            return try ScenarioPicture.picture(of: found, answerer: .builtin, implementation: "built-in engines")
        } catch let failure as ScenarioPicture.Failure {
            throw UsageFailure(message: "\(found.id): \(failure)")
        } catch let error as UsageFailure {
            throw error
        } catch {
            throw InputRejected(message: "\(path): \(found.id) does not parse: \(error)")
        }
    }

    /// The events of `locwire simulate fences`'s JSON report (its `events` array), or a bare array of them.
    static func simulatedEvents(_ path: String) throws -> [FenceEvent] {
        let data = try BehaviorInput.read(path)
        let root: JSONValue
        do {
            root = try JSONInput.document(data, "")
        } catch {
            throw InputRejected(message: "\(path): \(error)")
        }
        guard let events = root.object.map({ $0["events"]?.array }) ?? root.array else {
            throw InputRejected(
                message: "\(path): no \"events\" array (expected the JSON `locwire simulate fences` writes)")
        }
        return try events.enumerated().map { number, event in
            do {
                return try FenceEvent(jsonString: event.text)
            } catch let error as JSONError {
                throw InputRejected(message: "\(path): events[\(number)]: not a FenceEvent: \(error)")
            } catch {
                throw InputRejected(message: "\(path): events[\(number)]: not a FenceEvent")
            }
        }
    }
}
