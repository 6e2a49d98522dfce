import ArgumentParser
import Foundation
import LocationWireSession
import LocationWireSimulation

/// `locwire simulate`: fault simulation of device and server sessions.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate faulty sessions, or replay a trace through the recording and fence rules.",
        subcommands: [
            SimulateSessionsCommand.self, SimulateReplayCommand.self, SimulateRecordCommand.self,
            SimulateFencesCommand.self,
        ]
    )
}

/// Options shared by running and replaying.
struct SimulationFaultOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Fault kinds, comma-separated, or 'all' or 'none': \(SessionFaults.names.joined(separator: ", ")).",
            valueName: "list"))
    var faults = "all"

    @Option(
        help: ArgumentHelp(
            "Switch on a deliberate engine bug, to see the checks catch it: ack-scope (an ack deletes every "
                + "queued fix in its ranges, the bug of the old spec's hole 1).", valueName: "bug"))
    var mutant: String?

    func parsedFaults() throws -> SessionFaults {
        if faults == "all" { return .all }
        if faults == "none" { return [] }
        var parsed: SessionFaults = []
        for name in faults.split(separator: ",") {
            guard let fault = SessionFaults(name: String(name)) else {
                throw ValidationError(
                    "unknown fault kind '\(name)'; known: \(SessionFaults.names.joined(separator: ", "))")
            }
            parsed.insert(fault)
        }
        return parsed
    }

    func parsedMutant() throws -> InjectedFaults {
        switch mutant {
        case nil: return []
        case "ack-scope": return .ackAppliesToEveryItem
        case let other?: throw ValidationError("unknown mutant '\(other)'; known: ack-scope")
        }
    }
}

struct SimulateSessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "Simulate device/server sessions over a faulty network and check the invariants.",
        discussion: """
            Each session records fixes from a synthetic trace into an UploadQueue and uploads them to an \
            IngestLedger over a network that loses, duplicates, reorders and delays requests and responses, \
            while the app is killed, the device reboots, the server restarts, policies change, the server holds \
            batches or finds them too large, and the app is reinstalled with a surviving device_id. After every \
            step: no fix leaves the device before the server stored or refused it; the server never stores a key \
            twice; every gap the ledger reports is a real loss. After the network heals: every recorded fix is \
            stored exactly once.

            A violated invariant prints a minimized schedule that `locwire simulate replay` runs again.
            Exit status: 0 no violation, 1 violations found, 2 usage error.
            """
    )

    @Option(help: "How many sessions.")
    var count = 10_000

    @Option(help: "The campaign seed; the same seed replays the same sessions.")
    var seed: UInt64 = 1

    @OptionGroup var faultOptions: SimulationFaultOptions

    @Option(help: "Worker threads (default: the number of cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Write the minimized failing schedule here (JSON).", valueName: "file"))
    var saveFailure: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        if count < 1 { throw ValidationError("--count must be at least 1") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        try checkOutputFile(saveFailure)
        var campaign = SessionCampaign(seed: seed, faults: try faultOptions.parsedFaults())
        campaign.injectedFaults = try faultOptions.parsedMutant()
        let started = Date()
        let jobs = min(jobs, count)
        let shared = SharedTotals()
        let quiet = quiet
        let count = count
        let campaignCopy = campaign
        // Progress about every 5 %, in whole thousands (the campaign reports every 1000 sessions).
        let progressStep = max(1000, count / 20 / 1000 * 1000)
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            let range = (count * job / jobs)..<(count * (job + 1) / jobs)
            var reported = 0
            let totals = campaignCopy.run(range) { finished in
                let now = shared.addDone(finished - reported)
                reported = finished
                if !quiet, now % progressStep == 0 { printToStandardError("simulate: \(now)/\(count) sessions") }
            }
            shared.add(totals)
        }
        let totals = shared.totals
        let seconds = Date().timeIntervalSince(started)

        var schedule: [SessionAction] = []
        if let failure = totals.firstFailure {
            if !quiet { printToStandardError("simulate: minimizing session \(failure.index)") }
            schedule = campaign.minimize(seed: failure.seed, invariant: failure.violation.invariant)
            let replay = ReplayFile(
                seed: failure.seed, faults: campaign.faults.names, mutant: faultOptions.mutant,
                actions: schedule.map(\.description), violation: failure.violation.description)
            if let saveFailure { try writeText(replay.json, toFile: saveFailure) }
        }
        if json {
            var object: [String: Any] = [
                "sessions": totals.sessions, "seed": String(seed), "faults": campaign.faults.names,
                "recorded_fixes": totals.counts.recordedFixes, "stored_fixes": totals.counts.storedFixes,
                "rejected_fixes": totals.counts.rejectedFixes, "lost_fixes": totals.counts.lostFixes,
                "batches_sent": totals.counts.batchesSent, "acks_ignored": totals.counts.acksIgnored,
                "violations": Dictionary(uniqueKeysWithValues: totals.violations.map { ($0.key.rawValue, $0.value) }),
                "violated_sessions": totals.violationCount, "seconds": (seconds * 10).rounded() / 10,
            ]
            if let failure = totals.firstFailure {
                object["first_failure"] = [
                    "session": failure.index, "seed": String(failure.seed),
                    "violation": failure.violation.description, "minimized_actions": schedule.map(\.description),
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                """
                \(totals.sessions) sessions (seed \(seed), faults: \(campaign.faults.names.joined(separator: ",")))\
                 in \(String(format: "%.1f", seconds)) s, \(Int(Double(totals.sessions) / max(seconds, 0.001))) sessions/s
                fixes: \(totals.counts.recordedFixes) recorded, \(totals.counts.storedFixes) stored, \(totals.counts.rejectedFixes) \
                refused as defective, \(totals.counts.lostFixes) really lost (reinstall, storage full)
                batches: \(totals.counts.batchesSent) sent, \(totals.counts.acksIgnored) acks ignored
                violated invariants: \(totals.violationCount)
                """)
            for (invariant, number) in totals.violations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("  \(invariant.rawValue): \(number) sessions")
            }
            if let failure = totals.firstFailure {
                print("first failure: session \(failure.index) (seed \(failure.seed)): \(failure.violation)")
                print("minimized schedule (\(schedule.count) actions):")
                for action in schedule { print("  \(action)") }
            }
        }
        if totals.violationCount > 0 {
            throw InputRejected(message: "\(totals.violationCount) sessions broke an invariant")
        }
    }
}

/// A failing schedule, as `simulate sessions --save-failure` writes it and `simulate replay` reads it.
struct ReplayFile: Codable {
    var seed: UInt64
    var faults: [String]
    var mutant: String?
    var actions: [String]
    var violation: String?

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }
}

struct SimulateReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run one schedule again (as `simulate sessions --save-failure` writes it) and print each step.",
        discussion: "Exit status: 0 no violation, 1 a violation, 2 usage or I/O error."
    )

    @Argument(help: "The schedule file (JSON: seed, faults, mutant, actions).")
    var file: String

    func run() throws {
        let data = Data(try readFile(file))
        let replay: ReplayFile
        do { replay = try JSONDecoder().decode(ReplayFile.self, from: data) } catch {
            throw UsageFailure(message: "\(file) is not a schedule: \(error)")
        }
        var options = SimulationFaultOptions()
        options.faults = replay.faults.isEmpty ? "none" : replay.faults.joined(separator: ",")
        options.mutant = replay.mutant
        var schedule: [SessionAction] = []
        for text in replay.actions {
            guard let action = SessionAction(text) else { throw UsageFailure(message: "unknown action '\(text)'") }
            schedule.append(action)
        }
        var campaign = SessionCampaign(seed: 0, faults: try options.parsedFaults())
        campaign.injectedFaults = try options.parsedMutant()
        let report = campaign.replay(seed: replay.seed, schedule: schedule)
        for (index, action) in schedule.enumerated() { print("\(index): \(action)") }
        print(
            "recorded \(report.counts.recordedFixes), stored \(report.counts.storedFixes), batches \(report.counts.batchesSent)"
        )
        if let violation = report.violations.first {
            throw InputRejected(message: "violated: \(violation)")
        }
        print("no invariant violated")
    }
}

/// Totals and progress shared by the worker threads.
private final class SharedTotals: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var sum = SessionCampaign.Totals()

    func addDone(_ sessions: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        done += sessions
        return done
    }

    func add(_ totals: SessionCampaign.Totals) {
        lock.lock()
        defer { lock.unlock() }
        sum.add(totals)
    }

    var totals: SessionCampaign.Totals {
        lock.lock()
        defer { lock.unlock() }
        return sum
    }
}
