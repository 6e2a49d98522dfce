import ArgumentParser
import Foundation
import Hummingbird
import LocationWire
import LocationWireBehavior
import LocationWireCatalogues
import LocationWireCommandLine
import LocationWireFiles
import LocationWireJSON
import LocationWireServer
import LocationWireSession
import Logging

/// `locwire-server serve`: the reference server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP binding: batches, region assignments, the policy and the read-back.",
        discussion: """
            With no options it listens on 127.0.0.1:8080 (loopback only) and keeps its state in \
            ./locationwire.sqlite, then prints its URL and a bearer token for --device-id, made on the first start. \
            Only digests of tokens are stored, so later starts print the token only with --tokens-file (a file \
            only you can read) or --new-token (one more). Endpoints (proto/HTTP.md): POST /v1/batches, POST /v1/regions (with --catalogue), \
            GET /v1/policy (with --policy), GET /v1/devices/{id}/fixes. Stop it with Ctrl-C.

            Storage: SQLite (--database, the default) for one server process: nothing to set up, one file, one \
            writer at a time. PostgreSQL (--postgres URL) to run several server processes behind a load balancer \
            on one shared database: each batch locks its installation's row, so batches of one installation \
            arriving at two processes at once are serialised and every fix is stored once. The schema is created \
            on first start. Server/scripts/start-postgres.sh starts a throwaway PostgreSQL on loopback and prints \
            its URL. Several PostgreSQL databases as shards by device (--postgres-shard URL repeated, or \
            --shard-map FILE): each device's rows and tokens live in one shard, and a shard that is down stops only \
            its own devices (503 with Retry-After).
            """
    )

    @Option(help: "The address to listen on. Anything but loopback needs --tls-* (proto/HTTP.md, §http-tls).")
    var host = "127.0.0.1"

    @Option(help: "A PEM certificate chain: serve HTTPS (needs --tls-key).")
    var tlsCertificate: String?

    @Option(help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

    @Flag(help: "Serve plain HTTP beyond loopback because a proxy in front terminates TLS on a trusted network.")
    var tlsTerminatedByProxy = false

    @Option(help: "The TCP port; 0 lets the system choose one (printed).")
    var port = 8080

    @Option(help: "The SQLite database file, created when absent (default: ./locationwire.sqlite).")
    var database: String?

    @Option(help: "SQLite: what a commit promises: full (survives power loss) or normal (survives a killed process).")
    var durability: SQLiteStorage.Durability = .full

    @Option(
        help: ArgumentHelp(
            "Keep the state in PostgreSQL instead of SQLite, shared with other server processes.",
            discussion: """
                postgres://user:password@host:port/database. Without a password in the URL, PGPASSWORD's is \
                used, which keeps it out of the process list. The connection is not encrypted (no TLS yet): \
                loopback or a private network.
                """,
            valueName: "url"))
    var postgres: String?

    @Option(
        help: ArgumentHelp(
            "One PostgreSQL shard; repeated N times, shard i (from 0, in the order given) holds the devices whose "
                + "bucket is in [i*2^32/N, (i+1)*2^32/N).",
            discussion: """
                A device's bucket is the first 4 bytes of SHA-256 of its id (Server/README.md, "Shards"). The \
                servers sharing these shards must list them in the same order.
                """,
            valueName: "url"))
    var postgresShard: [String] = []

    @Option(
        help: ArgumentHelp(
            """
            The PostgreSQL shards and the buckets each holds, as JSON: [{"url": ..., "firstBucket": "00000000", \
            "lastBucket": "7fffffff"}, ...], bounds inclusive, together covering 00000000-ffffffff once.
            """, valueName: "file"))
    var shardMap: String?

    @Option(help: "PostgreSQL: the most connections this process opens to each database (its concurrent transactions).")
    var postgresConnections = 20

    @Option(
        help: """
            PostgreSQL: the most groups of batches this process commits at once, each in one transaction on a \
            connection of its own (group commit); at most --postgres-connections.
            """)
    var postgresGroups = PostgresStorage.Options.defaultConcurrentGroups

    @Option(help: "A region catalogue (GeoJSON, or a RegionAssignment in binary or JSON) for POST /v1/regions.")
    var catalogue: String?

    @Option(help: "A TrackingPolicy in proto3 JSON: served by GET /v1/policy and carried in every ack.")
    var policy: String?

    @Option(
        help: """
            The device whose bearer token is printed. The database keeps only digests of tokens, so a token is \
            printed once, when made, unless --tokens-file keeps it.
            """)
    var deviceId = "device-1"

    @Option(help: "More devices to make tokens for, device-2 ... device-N+1 (see --tokens-file).")
    var extraDevices = 0

    @Option(
        help: ArgumentHelp(
            """
            Keep the devices' tokens in clear in this file, as JSON {"device-1": "TOKEN", ...}, readable by its \
            owner only (mode 0600): each start reuses the tokens in it that still work, issues the missing ones, \
            and prints --device-id's.
            """, valueName: "file"))
    var tokensFile: String?

    @Flag(help: "Issue one more bearer token for --device-id and print it (its other tokens keep working).")
    var newToken = false

    @Flag(
        help: """
            Issue an operator token and print it once: it may erase any device's data (DELETE \
            /v1/devices/{id}) and do nothing else.
            """)
    var newOperatorToken = false

    @Option(
        help: ArgumentHelp(
            """
            Keep fixes, fence and lifecycle events, device statuses and assignments N days after they were \
            received, then remove them (every minute, beside the ingest). Ledger records stay, so a resend of a \
            removed fix is DUPLICATE. PostgreSQL drops whole days (kept up to a day longer).
            """, valueName: "N"))
    var retainDays: Int?

    @Option(help: .hidden)
    var retentionIntervalSeconds = 60

    /// Shifts the server's clock, for runs that need data received in the past (retention figures and tests).
    @Option(help: .hidden)
    var clockOffsetMs: Int64 = 0

    @Option(help: "The largest request body taken, bytes (after decompression); larger bodies get 413.")
    var maxBodyBytes = ServerConfiguration().maxBodyBytes

    @Option(help: "Seconds a request body may take to arrive whole; a slower one gets 408.")
    var bodyTimeoutSeconds = 30

    @Option(help: "Requests per second each device may send (bursts of as many); over it, 429 with Retry-After.")
    var rateLimit: Int?

    @Option(help: "Requests handled at once; more get 503 with Retry-After before their body is read.")
    var maxInFlight: Int?

    @Option(
        help: ArgumentHelp(
            "Request bodies read at once; one more waits unread for a slot, up to 10 s, then gets 503 with "
                + "Retry-After and its connection closed. Bodies then hold at most N × 2 × the body limit (128 MiB by "
                + "default).", valueName: "N"))
    var maxBodies = 32

    func transportSecurity() throws -> TransportSecurity {
        switch (tlsCertificate, tlsKey) {
        case (let certificate?, let key?): return .tls(certificateChainPath: certificate, privateKeyPath: key)
        case (nil, nil): return tlsTerminatedByProxy ? .terminatedByProxy : .plain
        default: throw ValidationError("--tls-certificate and --tls-key go together")
        }
    }

    func validate() throws {
        let storages = [
            database.map { _ in "--database" }, postgres.map { _ in "--postgres" },
            postgresShard.isEmpty ? nil : "--postgres-shard", shardMap.map { _ in "--shard-map" },
        ].compactMap { $0 }
        if storages.count > 1 {
            throw ValidationError("\(storages.joined(separator: " and ")) choose different storage: give one of them")
        }
        _ = try shards()
        guard postgresConnections >= 1 else { throw ValidationError("--postgres-connections must be at least 1") }
        guard (1...postgresConnections).contains(postgresGroups) else {
            throw ValidationError("--postgres-groups must be from 1 to --postgres-connections (\(postgresConnections))")
        }
        guard maxBodies >= 1 else { throw ValidationError("--max-bodies must be at least 1") }
        if let retainDays, retainDays < 1 { throw ValidationError("--retain-days must be at least 1") }
        guard retentionIntervalSeconds >= 1 else {
            throw ValidationError("--retention-interval-seconds must be at least 1")
        }
        if let refusal = try transportSecurity().refusal(host: host) { throw ValidationError(refusal) }
    }

    func run() async throws {
        // Logs to standard error, so that standard output holds only the lines a script reads (URL, token).
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var configuration = ServerConfiguration(
            maxBodyBytes: maxBodyBytes, bodyTimeout: .seconds(bodyTimeoutSeconds), rateLimitPerDevice: rateLimit,
            maxInFlight: maxInFlight, maxConcurrentBodies: maxBodies)
        if clockOffsetMs != 0 {
            let offset = clockOffsetMs
            let clock = configuration.nowMs
            configuration.nowMs = { clock() + offset }
        }
        var trackingPolicy = try policy.map(readPolicy)
        if let retainDays {
            // A server that removes by age states it (`§http-retention-stated`); without a policy file, in a
            // policy of version 1 that holds only that.
            if trackingPolicy == nil {
                trackingPolicy = TrackingPolicy()
                trackingPolicy?.policyVersion = 1
            }
            trackingPolicy?.retentionDays = UInt32(clamping: retainDays)
        }
        if let trackingPolicy {
            configuration.trackingPolicy = trackingPolicy
            configuration.ledgerPolicy.trackingPolicy = trackingPolicy
            // One limit, stated in the policy, the TOO_LARGE acks and the 413s (`§http-size`).
            if let limit = trackingPolicy.maxBatchBytes { configuration.ledgerPolicy.maxBatchBytes = Int(limit) }
        }
        guard configuration.maxBodyBytes >= configuration.ledgerPolicy.maxBatchBytes else {
            throw ValidationError(
                "--max-body-bytes \(maxBodyBytes) is below the max_batch_bytes the server states "
                    + "(\(configuration.ledgerPolicy.maxBatchBytes)): a batch within that limit would be refused unread"
            )
        }
        if let catalogue {
            do {
                configuration.planner = RegionPlanner(catalogue: try RegionCatalogueFile.read(catalogue))
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let map = try shards() {
            let options = try map.shards.map { shard in
                var options = try postgresOptions(shard.url)
                options.connectionWait = ShardedStorage.connectionWait
                return options
            }
            // As Server/scripts/shard-split.sh prints them, so that a script can compare.
            let shown = zip(map.shards, options).enumerated().map { index, shard in
                "shard \(index + 1) buckets \(shard.0.rangeDescription): \(shard.1.shownURL)"
            }
            try await ShardedStorage.withStorage(map, options: options) { storage in
                try await serve(
                    storage: storage, configuration: configuration,
                    storageDescription: "\(map.shards.count) PostgreSQL shards\n" + shown.joined(separator: "\n"))
            }
        } else if let postgres {
            let options = try postgresOptions(postgres)
            try await PostgresStorage.withStorage(options) { storage in
                try await serve(storage: storage, configuration: configuration, storageDescription: options.shownURL)
            }
        } else {
            let path = database ?? "./locationwire.sqlite"
            let storage = try SQLiteStorage(path: path, durability: durability)
            let shown = URL(fileURLWithPath: path).standardizedFileURL.path
            try await serve(storage: storage, configuration: configuration, storageDescription: shown)
        }
    }

    /// The options of one `--postgres` or shard URL, with ``postgresConnections``.
    func postgresOptions(_ url: String) throws -> PostgresStorage.Options {
        let option = postgres != nil ? "--postgres" : shardMap.map { "--shard-map \($0)" } ?? "--postgres-shard"
        var options = try PostgresStorage.Options(commandLine: url, option: option)
        options.maximumConnections = postgresConnections
        options.concurrentGroups = postgresGroups
        return options
    }

    /// The shards of `--postgres-shard` or `--shard-map`, or nil for one database.
    func shards() throws -> ShardMap? {
        do {
            if let shardMap {
                let map = try ShardMap(json: Data(try FileAccess.read(shardMap)))
                for shard in map.shards { _ = try postgresOptions(shard.url) }
                return map
            }
            guard !postgresShard.isEmpty else { return nil }
            for url in postgresShard { _ = try postgresOptions(url) }
            return try ShardMap(evenlyOver: postgresShard)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(shardMap.map { "--shard-map \($0)" } ?? "--postgres-shard"): \(error)")
        }
    }

    /// Makes sure the devices have tokens, then serves until Ctrl-C or SIGTERM.
    ///
    /// - Parameter storageDescription: where the state is, printed; a PostgreSQL URL without its password.
    func serve(
        storage: some ServerStorage & BearerTokenAuthenticator, configuration: ServerConfiguration,
        storageDescription: String
    )
        async throws
    {
        let devices = [deviceId] + (0..<max(extraDevices, 0)).map { "device-\($0 + 2)" }
        let file = tokensFile.map(TokensFile.init(path:))
        if let file, file.isOpenToOthers() {
            // Said, then fixed by the rewrite below: a copy may have been taken already.
            FileHandle.standardError.write(
                Data("warning: \(file.path) was readable by others; it is rewritten with mode 0600\n".utf8))
        }
        var shown: [String: String]
        do {
            shown = try await DeviceTokens.prepare(
                deviceIds: devices, storage: storage, nowMs: configuration.nowMs(), file: file
            ).shown
        } catch {
            // A shard is down: its devices wait for it, the others' must not wait for this start.
            guard storage is ShardedStorage else { throw error }
            FileHandle.standardError.write(
                Data(
                    ("warning: the devices' tokens were not checked or made (\(error)); they are when a start finds "
                        + "every shard up\n").utf8))
            shown = [:]
        }
        if newToken {
            shown[deviceId] = try await storage.issueToken(forDevice: deviceId, nowMs: configuration.nowMs())
        }
        let deviceId = self.deviceId
        let shownToken = shown[deviceId]
        let operatorToken = newOperatorToken ? try await storage.issueOperatorToken(nowMs: configuration.nowMs()) : nil
        let host = self.host
        let security = try transportSecurity()
        let scheme = if case .tls = security { "https" } else { "http" }
        let app = try makeServerApplication(
            storage: storage, authenticator: TokenCache(storage), configuration: configuration, host: host, port: port,
            security: security
        ) { port in
            // The one place that prints: a person starting the server needs these lines to use it.
            print("locwire-server listening on \(scheme)://\(host):\(port)")
            print("database: \(storageDescription)")
            if let shownToken {
                print("device \(deviceId) bearer token: \(shownToken)")
            } else {
                print(
                    "device \(deviceId) has a bearer token, printed once when it was made (only its digest is kept): "
                        + "--tokens-file keeps tokens in a file only you can read; --new-token issues another")
            }
            if let operatorToken { print("operator bearer token: \(operatorToken)") }
            // Standard output to a pipe or file is block-buffered; a script waiting for the URL needs it now.
            fflush(nil)
        }
        guard let retainDays else { return try await app.runService() }
        let retention = Retention(
            keepMs: Int64(retainDays) * 86_400_000, interval: .seconds(retentionIntervalSeconds))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await retention.run(storage: storage, nowMs: configuration.nowMs) }
            group.addTask { try await app.runService() }
            // The service ends on SIGTERM or Ctrl-C (or fails); retention stops with it.
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    func readPolicy(_ path: String) throws -> TrackingPolicy {
        let bytes: [UInt8]
        do {
            bytes = try FileAccess.read(path)
        } catch {
            throw ValidationError("--policy: \(error)")
        }
        do {
            return try TrackingPolicy(jsonUTF8: bytes)
        } catch {
            throw ValidationError("--policy \(path): not a TrackingPolicy in proto3 JSON: \(error)")
        }
    }
}
