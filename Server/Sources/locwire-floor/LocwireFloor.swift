import ArgumentParser
import Foundation
import Hummingbird
import LocationWireCommandLine
import LocationWireFloor
import LocationWireServer
import Logging

/// `locwire-floor`: the floors `locwire-server serve`'s per-request cost is measured against
/// (Server/scripts/measure/ingest-floors.sh). A measurement tool, built apart from the shipped `locwire-server`.
@main
struct LocwireFloor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locwire-floor",
        abstract: "A floor server: reads each batch's body and answers one constant ack, storing the body or not.",
        discussion: """
            POST /v1/batches reads the whole body and answers 200 with one constant BatchAck (made at start, \
            binary, serve's media type). --storage none is the framework floor: Hummingbird with serve's \
            connection setup and nothing else. --storage sqlite is the storage floor: the body is also stored as \
            one row of raw_batch(id, body, received_at_ms), with serve's PRAGMAs and group commit, and answered \
            after the commit. Neither looks tokens up (any Authorization is taken), checks or decodes the batch, \
            or runs the ledger: all of that is part of what serve costs beyond the floors. The constant ack names \
            no batch, so drive it with `locwire-server load --constant-ack`. Loopback only, no TLS.
            """
    )

    enum Storage: String, ExpressibleByArgument, CaseIterable {
        case none, sqlite
    }

    @Option(help: "none: floor (a), read and answer; sqlite: floor (b), also store the body as one row.")
    var storage: Storage

    @Option(help: "The address to listen on: loopback only (a floor has no TLS).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port; 0 lets the system choose one (printed).")
    var port = 8080

    @Option(help: "--storage sqlite: the SQLite database file, created when absent.")
    var database = "./locationwire-floor.sqlite"

    @Option(help: "--storage sqlite: what a commit promises, as serve's: full (syncs the WAL) or normal.")
    var durability: SQLiteStorage.Durability = .full

    @Option(help: "Devices to write made-up tokens for besides device-1: device-2 ... device-N+1 (--tokens-file).")
    var extraDevices = 0

    @Option(
        help: ArgumentHelp(
            """
            Write tokens for device-1 ... device-N+1 to this file as serve does, JSON {"device-1": "TOKEN", ...} \
            (mode 0600), so that `load --tokens-file` can drive the floor. The floor checks no token: they are \
            made up, floor-token-1 ... .
            """, valueName: "file"))
    var tokensFile: String?

    @Option(help: "The largest request body read, bytes; larger bodies get 413.")
    var maxBodyBytes = ServerConfiguration().maxBodyBytes

    func validate() throws {
        if let refusal = TransportSecurity.plain.refusal(host: host) { throw ValidationError(refusal) }
        guard extraDevices >= 0 else { throw ValidationError("--extra-devices must be at least 0") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        if let tokensFile {
            let devices = (1...(extraDevices + 1)).map { "device-\($0)" }
            try TokensFile(path: tokensFile).write(
                Dictionary(uniqueKeysWithValues: devices.map { ($0, "floor-token-\($0.dropFirst("device-".count))") }))
        }
        let store = storage == .sqlite ? try RawBatchStore(path: database, durability: durability) : nil
        let described =
            store == nil
            ? "none (floor a)"
            : "\(URL(fileURLWithPath: database).standardizedFileURL.path), durability \(durability) (floor b)"
        let ack = FloorAck(serverTimeMs: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        let host = self.host
        let app = try makeFloorApplication(
            ack: ack, store: store, host: host, port: port, maxBodyBytes: maxBodyBytes
        ) { port in
            // The lines serve prints first, so that scripts wait for either the same way.
            print("locwire-floor listening on http://\(host):\(port)")
            print("storage: \(described)")
            fflush(nil)
        }
        try await app.runService()
    }

    static func main() async { await mainWithLocationWireStatuses() }
}
