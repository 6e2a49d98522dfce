import ArgumentParser
import Foundation
import LocationWireCommandLine
import LocationWireFiles
import LocationWireHTTPClient
import LocationWireLoad

/// `locwire-server load`: simulated devices upload realistic batches to one or more servers for a while, and
/// the throughput and batch latency they saw.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load a server with simulated devices: fixes acknowledged per second and batch latency.",
        discussion: """
            Device i (device-1 ... device-N) walks, records fixes, and uploads them through the spec's device \
            queue: only an applied ack deletes, everything else is sent again after Retry-After or the queue's \
            back-off. Get tokens with `serve --extra-devices N-1 --tokens-file F`. Loopback servers only, as a \
            rule: this is a load generator. Progress goes to standard error every 5 s. Exit status 0 when every \
            batch was acknowledged, 1 when any error was counted.
            """
    )

    @Option(help: "Server base URLs, comma-separated; devices are spread over them round-robin.")
    var server: String = "http://127.0.0.1:8080"

    @Option(help: "The JSON {\"device-1\": \"TOKEN\", ...} that serve --tokens-file writes.")
    var tokensFile: String

    @Option(help: "Simulated devices, each with one batch in flight.")
    var devices = 1000

    @Option(help: "How long devices start new batches, seconds.")
    var seconds = 60.0

    @Option(help: "Fixes per batch (the spec's default max_batch_size is 500).")
    var fixesPerBatch = 50

    @Option(help: "Seconds from one batch of a device to its next; 0 sends the next as soon as the ack is applied.")
    var interval = 0.0

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Seeds the devices' traces, install ids and batch ids.")
    var seed: UInt64 = 1

    @Option(help: "Append every acknowledged fix (device,install,sequence,sha256 of its encoding) to this file.")
    var ackJournal: String?

    @Option(help: "Append a line for every upload attempt (start ms UTC,device,latency ms,answer) to this file.")
    var requestLog: String?

    @Flag(
        help: ArgumentHelp(
            "Take every ack as the answer to the batch just sent (for `locwire-floor`, whose ack is constant).",
            discussion: """
                The ack's batch_id is replaced by the batch's before the device applies it, so a floor's \
                constant ack (batch 1, fixes 1 ... 2^64-1 accepted) deletes the batch's fixes. The ack is still \
                decoded and its structure checked; whether it answers this batch, and whether anything was \
                stored, is not. Not with --ack-journal.
                """))
    var constantAck = false

    @Option(help: "One upload's time-out, seconds.")
    var timeout = 30.0

    @Flag(help: "No progress lines.")
    var quiet = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() async throws {
        let tokens: [String: String]
        do {
            let data = Data(try FileAccess.read(tokensFile))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: String] else {
                throw ValidationError("--tokens-file \(tokensFile): not a JSON object of strings")
            }
            tokens = object
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--tokens-file: \(error)")
        }
        guard seconds > 0, seconds <= 86_400 else { throw ValidationError("--seconds must be in (0, 86400]") }
        guard interval >= 0, interval <= 3600 else { throw ValidationError("--interval must be in [0, 3600]") }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be in (0, 600]") }
        var configuration = LoadConfiguration(
            serverURLs: server.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) },
            tokens: tokens)
        configuration.devices = devices
        configuration.duration = .milliseconds(Int64(seconds * 1000))
        configuration.fixesPerBatch = fixesPerBatch
        configuration.batchInterval = interval > 0 ? .milliseconds(Int64(interval * 1000)) : nil
        configuration.seed = seed
        configuration.ackJournalPath = ackJournal
        configuration.requestLogPath = requestLog
        configuration.constantAck = constantAck
        configuration.requestTimeout = .milliseconds(Int64(timeout * 1000))
        configuration.progressInterval = quiet ? nil : .seconds(5)
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
        let report = try await LoadRun(configuration: configuration, progress: printToStandardError).run()
        let rendered = format == .json ? report.json() : report.text()
        if let output {
            try Data((rendered + "\n").utf8).write(to: URL(fileURLWithPath: output))
        } else {
            print(rendered)
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}
