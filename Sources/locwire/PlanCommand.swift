import ArgumentParser
import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireJSON
import LocationWireValidation

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract:
            "Plan the RegionAssignment for a position from a region catalogue (proto/BEHAVIOR.md, region planning).",
        discussion: """
            The catalogue is a RegionAssignment (protobuf binary or proto3 JSON; its regions are the catalogue) or \
            a GeoJSON FeatureCollection (README.md, "Region catalogues in GeoJSON"). The format is recognised \
            from the content. --previous is the RegionAssignment last sent to the device (binary or JSON): with \
            a full one, the answer may be a DELTA (§plan-delta).

            --at takes degrees; write a negative latitude as --at=-33.86,151.21. --now defaults to the current \
            time.

            Each region of the catalogue is checked against the spec's rules for a region, and the previous \
            assignment against those for an assignment: warnings are printed, and errors refuse the input \
            unless --force (then they are printed too).

            Exit status: 0 planned; 1 a catalogue or previous assignment that does not parse, breaks the \
            catalogue's rules or (without --force) the spec's (the error names the file and the line or field); \
            2 usage or I/O error.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case json
        case binary
    }

    @Option(help: ArgumentHelp("The region catalogue.", valueName: "file"))
    var catalogue: String

    @Option(help: ArgumentHelp("The device's position, degrees.", valueName: "lat,lon"))
    var at: String

    @Option(help: "The slot budget N (platform_slot_limit - reserved_app_slots), at least 1.")
    var budget: Int

    @Option(help: ArgumentHelp("The assignment the device was sent last.", valueName: "file"))
    var previous: String?

    @Option(help: ArgumentHelp("The time to plan for, UTC ms (default: now).", valueName: "ms"))
    var now: Int64?

    @Option(help: "Output format.")
    var format: OutputFormat = .json

    @Flag(help: "Plan from a catalogue or previous assignment that breaks the spec's rules (printed as warnings).")
    var force = false

    @Option(help: ArgumentHelp("Write the assignment here instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard budget >= 1 else { throw ValidationError("--budget must be at least 1 (slot_budget is required)") }
        _ = try position()
    }

    /// `--at` as 1e-7 degree.
    func position() throws -> (latitudeE7: Int32, longitudeE7: Int32) {
        let parts = at.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else {
            throw ValidationError(
                "--at must be LAT,LON in degrees, latitude -90 to 90, longitude -180 to 180; got '\(at)'")
        }
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    func run() throws {
        let position = try position()
        let regions = try RegionCatalogueFile.read(catalogue)
        // The planner answers about regions a device could be sent: each is checked against the spec's rules for
        // a region, and the previous assignment against those for an assignment.
        var report = ValidationReport()
        for (index, region) in regions.enumerated() {
            region.validate(into: &report, at: FieldPath(message: "regions").appending(index: index))
        }
        try BehaviorInput.enforce(report, on: "the catalogue", catalogue, force: force)
        let previousAssignment = try previous.map { try RegionCatalogueFile.readAssignment($0) }
        if let previous, let previousAssignment {
            try BehaviorInput.enforce(
                previousAssignment.validationReport(), on: "the previous assignment", previous, force: force)
        }
        let nowMs = now ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let planner = RegionPlanner(catalogue: regions)
        let assignment = planner.plan(
            latitudeE7: position.latitudeE7, longitudeE7: position.longitudeE7, slotBudget: budget, nowMs: nowMs,
            previous: previousAssignment)
        let bytes: [UInt8] =
            switch format {
            case .json: Array((assignment.jsonString() + "\n").utf8)
            case .binary: assignment.serializedBytes()
            }
        try writeOutput(bytes, toFile: output)
    }
}
