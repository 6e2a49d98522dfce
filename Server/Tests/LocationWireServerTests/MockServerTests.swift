import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireMockServer
import LocationWireServer
import LocationWireSession
import NIOCore
import NIOHTTP1
import Testing

/// The mock server (`locwire-server mock-server`): its SPEC grammar, each fault as a client over a real socket
/// sees it (async-http-client, with the root package's `UploadQueue` applying what arrives), and the report's
/// arithmetic on small hand-made journals.
@Suite struct MockServerTests {
    static let nowMs: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    static let installId: UInt64 = 8143

    // MARK: The SPEC

    @Test func specParsesFaultsProbabilitiesAndParameters() throws {
        let spec = try FaultSpec(
            parsing: "drop-after-commit=0.1,status-503=0.05:retry-after=7,partial-ack=0.2:keep=0.25,"
                + "duplicate-response=0.1,truncate=0.05,slow=0.1:delay-ms=300,reset=0.05:when=after,status-429=0.05")
        #expect(
            spec.entries.map(\.fault) == [
                .dropAfterCommit, .status503(retryAfterSeconds: 7), .partialAck(keep: 0.25), .duplicateResponse,
                .truncate(keep: 0.5), .slow(delayMs: 300), .reset(.after), .status429(retryAfterSeconds: 1),
            ])
        #expect(spec.entries.map(\.probability) == [0.1, 0.05, 0.2, 0.1, 0.05, 0.1, 0.05, 0.05])
        // Laid out in order over [0, 1): 0.1 drop, then 0.05 of 503, ...; past 0.7, no fault.
        #expect(spec.fault(forDraw: 0.0) == .dropAfterCommit)
        #expect(spec.fault(forDraw: 0.12) == .status503(retryAfterSeconds: 7))
        #expect(spec.fault(forDraw: 0.69) == .status429(retryAfterSeconds: 1))
        #expect(spec.fault(forDraw: 0.71) == nil)
        // The printed form parses back to the same SPEC.
        #expect(try FaultSpec(parsing: spec.description) == spec)
        #expect(try FaultSpec(parsing: "none").entries.isEmpty)
    }

    @Test(arguments: [
        "slow", "slow=2", "slow=-0.1", "slow=0.5,slow=0.1", "status-503=0.6,status-429=0.5", "teleport=0.1",
        "slow=0.1:delay=5", "partial-ack=0.1:keep=1", "reset=0.1:when=later", "status-503=0.1:retry-after=x",
    ])
    func specRefusesWhatIsNotOfTheGrammar(_ text: String) {
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: text) }
    }

    @Test func theSameSeedGivesTheSameFaults() async {
        let spec = FaultSpec(entries: [(.dropAfterCommit, 0.3), (.status503(retryAfterSeconds: 1), 0.3)])
        func faults(seed: UInt64) async -> [String] {
            let store = MockStore(spec: spec, seed: seed, journal: nil, nowMs: { Self.nowMs })
            var names: [String] = []
            for index in 1...40 {
                switch await store.receive(
                    Self.batch(UInt64(index)...UInt64(index), batchId: UInt64(index)), encodedSize: 100)
                {
                case .answer: names.append("none")
                case .close: names.append("drop")
                case .refuse: names.append("503")
                case .cutShort, .cutAfterAck: names.append("cut")
                }
            }
            return names
        }
        let first = await faults(seed: 42)
        #expect(await faults(seed: 42) == first)
        #expect(await faults(seed: 43) != first)
        #expect(Set(first) == ["none", "drop", "503"])
    }

    // MARK: Each fault, as a client sees it

    @Test func withoutFaultsTheAckMatchesAndEverythingIsStored() async throws {
        try await Self.withMockServer(faults: "none") { client, store, journal in
            var queue = Self.queue(fixes: 6)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let ack = try Self.acknowledged(await client.upload(batch, token: "any", format: .json, gzip: true))
            #expect(queue.apply(ack, nowMs: Self.nowMs).ignoreReason == nil)
            #expect(queue.fixes.isEmpty)
            #expect(await store.storedFixCount == 6)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.fault == "none" && entry.answer == "ack" && entry.status == 200 && entry.committed)
            #expect(entry.batchId == "77" && entry.installId == "\(Self.installId)")
            #expect(entry.stored.map(\.sequence) == Array(1...6))
        }
    }

    @Test func dropAfterCommitStoresThenClosesWithoutAnAnswer() async throws {
        try await Self.withMockServer(faults: "drop-after-commit=1") { client, store, journal in
            var queue = Self.queue(fixes: 4)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let error = await #expect(throws: (any Error).self) { try await client.upload(batch, token: "any") }
            // A plain close (FIN) before any byte of an answer.
            #expect(error as? HTTPClientError == .remoteConnectionClosed)
            queue.giveUp(batchId: 77, nowMs: Self.nowMs)
            #expect(queue.fixes.count == 4)
            #expect(await store.storedFixCount == 4)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.answer == "closed" && entry.status == nil && entry.committed)
        }
    }

    @Test(arguments: [(Fault.ResetMoment.before, 0), (.after, 5)])
    func resetClosesWithRSTBeforeOrAfterTheCommit(_ moment: Fault.ResetMoment, stored: Int) async throws {
        try await Self.withMockServer(faults: "reset=1:when=\(moment.rawValue)") { client, store, journal in
            var queue = Self.queue(fixes: 5)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let error = await #expect(throws: (any Error).self) { try await client.upload(batch, token: "any") }
            // The server's RST arrives as ECONNRESET.
            #expect((error as? IOError)?.errnoCode == ECONNRESET)
            #expect(await store.storedFixCount == stored)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.answer == "reset" && entry.status == nil && entry.committed == (stored > 0))
        }
    }

    @Test(arguments: [(503, "unavailable"), (429, "rate-limited")])
    func statusFaultsStoreNothingAndSayWhenToComeBack(_ status: Int, code: String) async throws {
        try await Self.withMockServer(faults: "status-\(status)=1:retry-after=7") { client, store, journal in
            var queue = Self.queue(fixes: 3)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let result = try await client.upload(batch, token: "any")
            guard case .refused(let answered, let error, let retryAfter) = result else {
                Issue.record("expected a refusal, got \(result)")
                return
            }
            #expect(answered == status && error?.code == code && retryAfter == "7")
            #expect(await store.storedFixCount == 0)
            // One line for the request: the fault's, not a second one for the same refusal on its way out.
            let entries = try JournalWriter.read(path: journal)
            #expect(entries.count == 1)
            #expect(entries.first?.fault == "status-\(status)" && entries.first?.status == status)
        }
    }

    @Test func partialAckStoresAndAcksOnlyTheFirstFixes() async throws {
        try await Self.withMockServer(faults: "partial-ack=1:keep=0.5") { client, store, journal in
            var queue = Self.queue(fixes: 10)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let ack = try Self.acknowledged(await client.upload(batch, token: "any"))
            #expect(ack.batchId == 77 && ack.outcome == .processed)
            #expect(ack.fixResults.map { $0.firstSequence...$0.lastSequence } == [1...5])
            guard case .applied(let effect) = queue.apply(ack, nowMs: Self.nowMs) else {
                Issue.record("the partial ack was ignored")
                return
            }
            #expect(effect.storedFixes == [1, 2, 3, 4, 5] && effect.keptFixes == [6, 7, 8, 9, 10])
            #expect(queue.fixes.map(\.sequence) == [6, 7, 8, 9, 10])
            #expect(await store.storedFixCount == 5)
            #expect(try JournalWriter.read(path: journal).last?.stored.map(\.sequence) == [1, 2, 3, 4, 5])
        }
    }

    @Test func partialAckCutsCompactFixesButNeverDropsALaterRevisionsColumn() async throws {
        let store = MockStore(
            spec: try FaultSpec(parsing: "partial-ack=1:keep=0.5"), seed: 1, journal: nil, nowMs: { Self.nowMs })
        var batch = Self.batch(1...4, batchId: 77)
        batch.compactFixes = try CompactFixes(fixes: batch.fixes)
        batch.fixes = []
        guard case .answer(let cut, _) = await store.receive(batch, encodedSize: 200) else {
            Issue.record("partial-ack did not answer")
            return
        }
        #expect(cut.fixResults.map { $0.firstSequence...$0.lastSequence } == [1...2])
        // The first future column, a LocationFix field of a later revision (empty): rows rebuilt without it would
        // lose it. Its key is a two-byte varint (columns 16 to 2047).
        var later = Self.batch(11...14, batchId: 78)
        var compact = try CompactFixes(fixes: later.fixes)
        let key = FieldKey.make(CompactFixes.futureColumns.lowerBound, .lengthDelimited)
        compact.unknownFields = UnknownFields(rawBytes: [UInt8(key & 0x7F) | 0x80, UInt8(key >> 7), 0x00])
        later.compactFixes = compact
        later.fixes = []
        guard case .answer(let held, _) = await store.receive(later, encodedSize: 200) else {
            Issue.record("partial-ack did not answer")
            return
        }
        #expect(held.outcome == .hold && held.holdReason == .unknownCompactColumn && held.fixResults.isEmpty)
        #expect(await store.storedFixCount == 2)
    }

    @Test func duplicateResponseWithoutAnEarlierAckNamesAnotherBatch() async throws {
        try await Self.withMockServer(faults: "duplicate-response=1") { client, store, journal in
            var queue = Self.queue(fixes: 3)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let ack = try Self.acknowledged(await client.upload(batch, token: "any"))
            // It claims the batch's fixes ACCEPTED, under a batch id the device never used: only batch_id
            // matching saves the data, which was never stored.
            #expect(ack.batchId != 77 && ack.fixResults.first?.result == .accepted)
            #expect(queue.apply(ack, nowMs: Self.nowMs).ignoreReason == .unknownBatch)
            #expect(queue.fixes.count == 3)
            #expect(await store.storedFixCount == 0)
            #expect(try JournalWriter.read(path: journal).last?.answer == "stale-ack")
        }
    }

    @Test func duplicateResponseSendsAnEarlierAckAgain() async throws {
        // A seed whose first request gets no fault and whose second gets duplicate-response.
        let seed = try #require(
            (1...1000 as ClosedRange<UInt64>).first { seed in
                var generator = SeededGenerator(seed: seed)
                return generator.nextUnit() >= 0.5 && generator.nextUnit() < 0.5
            })
        try await Self.withMockServer(faults: "duplicate-response=0.5", seed: seed) { client, store, _ in
            var queue = Self.queue(fixes: 3)
            let first = try Self.nextBatch(&queue, batchId: 77)
            let firstAck = try Self.acknowledged(await client.upload(first, token: "any"))
            #expect(queue.apply(firstAck, nowMs: Self.nowMs).ignoreReason == nil)
            var fix = LocationFix()
            fix.timeMs = Self.nowMs - 1000
            fix.latitudeE7 = 525_300_000
            fix.longitudeE7 = 134_100_000
            _ = queue.record(fix)
            let second = try Self.nextBatch(&queue, batchId: 78)
            let replayed = try Self.acknowledged(await client.upload(second, token: "any"))
            #expect(replayed == firstAck)
            #expect(queue.apply(replayed, nowMs: Self.nowMs).ignoreReason == .unknownBatch)
            #expect(queue.fixes.map(\.sequence) == [4])
            #expect(await store.storedFixCount == 3)
        }
    }

    @Test func truncateStoresThenSendsABodyCutShort() async throws {
        try await Self.withMockServer(faults: "truncate=1:keep=0.5") { client, store, journal in
            var queue = Self.queue(fixes: 8)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            // The status line says 200, but the body ends before its Content-Length: no ack.
            let error = await #expect(throws: (any Error).self) { try await client.upload(batch, token: "any") }
            // NIO's HTTP parser: the connection closed before Content-Length bytes of body arrived.
            #expect(error as? HTTPParserError == .invalidEOFState)
            #expect(await store.storedFixCount == 8)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.answer == "cut-ack" && entry.status == 200 && entry.ackBatchId == "77")
        }
    }

    @Test func slowAnswersRightButLate() async throws {
        try await Self.withMockServer(faults: "slow=1:delay-ms=3000") { client, store, _ in
            var queue = Self.queue(fixes: 2)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            // A client that waits a twelfth of the delay gives up (the margin is far beyond timing noise) ...
            await #expect(throws: (any Error).self) {
                try await client.upload(batch, token: "any", timeout: .milliseconds(250))
            }
            // The server commits before its delay, but on a loaded machine perhaps after the client gave up:
            // wait for the commit (up to the delay), rather than assume it came first.
            let deadline = ContinuousClock.now + .seconds(3)
            while await store.storedFixCount < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(await store.storedFixCount == 2)
            // ... and one that waits gets the ack: DUPLICATE now, since the first attempt was committed.
            let ack = try Self.acknowledged(await client.upload(batch, token: "any", timeout: .seconds(30)))
            #expect(ack.batchId == 77 && ack.fixResults.map(\.result) == [.duplicate])
        }
    }

    /// `commands`: each ack gives a new command and the previous one again; a client that keeps the highest id
    /// it ran (the root package's UploadQueue) runs each once.
    @Test func commandsComeInTurnAndTheRepeatedOneRunsOnce() async throws {
        try await Self.withMockServer(faults: "commands=1") { client, store, journal in
            var queue = Self.queue(fixes: 1)
            var ran: [DeviceCommandKind] = []
            var given: [[UInt64]] = []
            for batchId: UInt64 in [77, 78, 79] {
                if batchId > 77 {
                    var fix = LocationFix()
                    fix.timeMs = Self.nowMs - 1000 + Int64(batchId)
                    fix.latitudeE7 = 525_200_000
                    fix.longitudeE7 = 134_050_000 + Int32(batchId)
                    _ = queue.record(fix)
                }
                let batch = try Self.nextBatch(&queue, batchId: batchId)
                let ack = try Self.acknowledged(await client.upload(batch, token: "any"))
                given.append(ack.commands.map(\.commandId))
                guard case .applied(let effect) = queue.apply(ack, nowMs: Self.nowMs) else {
                    Issue.record("ack \(batchId) ignored")
                    return
                }
                ran += effect.commands.map(\.kind)
            }
            #expect(ran == [.recordFix, .requestRegions, .uploadNow], "each command once, in turn")
            #expect(given.map(\.count) == [1, 2, 2] && given[1][0] == given[0][0] && given[2][0] == given[1][1])
            #expect(given.allSatisfy { $0 == $0.sorted() } && given[0][0] >= UInt64(Self.nowMs))
            #expect(await store.storedFixCount == 3)
            let issued = try JournalWriter.read(path: journal).compactMap(\.commands).flatMap { $0 }
            #expect(issued.map(\.kind) == ["RECORD_FIX", "REQUEST_REGIONS", "UPLOAD_NOW"])
        }
    }

    @Test func refusedBodiesAreJournaledWithoutAFault() async throws {
        try await Self.withMockServer(faults: "drop-after-commit=1") { client, _, journal in
            let answer = try await client.exchange(
                method: "POST", path: Binding.batchesPath, token: "any", contentType: "text/plain", body: [1, 2, 3])
            #expect(answer.status == 415 && answer.errorBody?.code == ErrorBody.Code.unsupportedMediaType)
            let noToken = try await client.exchange(
                method: "POST", path: Binding.batchesPath, token: nil,
                contentType: BodyFormat.binary.contentType(for: LocationBatch.self), body: [])
            #expect(noToken.status == 401)
            let entries = try JournalWriter.read(path: journal)
            #expect(entries.map(\.status) == [415, 401] && entries.allSatisfy { $0.fault == "none" })
        }
    }

    // MARK: The report's arithmetic

    static func recorded(_ sequence: UInt64, content: Int64? = nil) -> ClientLogEntry {
        let content = content ?? Int64(sequence)
        return ClientLogEntry(
            installId: "\(installId)", sequence: sequence, timeMs: nowMs + content, latitudeE7: 500_000_000,
            longitudeE7: Int32(content))
    }

    static func stored(_ sequence: UInt64, content: Int64? = nil) -> StoredFixRecord {
        let content = content ?? Int64(sequence)
        return StoredFixRecord(
            sequence: sequence, timeMs: nowMs + content, latitudeE7: 500_000_000, longitudeE7: Int32(content))
    }

    static func journal(_ stored: [[StoredFixRecord]]) -> [JournalEntry] {
        stored.enumerated().map { index, fixes in
            JournalEntry(
                request: index + 1, timeMs: nowMs, fault: index == 0 ? "none" : "drop-after-commit", committed: true,
                status: 200, answer: "ack", installId: "\(installId)", fixes: fixes.map(\.sequence), stored: fixes)
        }
    }

    @Test func reportIsCleanWhenEveryRecordedFixIsStoredOnce() {
        let report = MockReport(
            journal: Self.journal([[Self.stored(1), Self.stored(2)], [Self.stored(3)]]),
            clientLog: [Self.recorded(1), Self.recorded(2), Self.recorded(3)])
        #expect(report.clean && report.lost == 0 && report.doubled == 0 && report.unknown == 0)
        #expect(report.recordedFixes == 3 && report.storedFixes == 3 && report.requests == 2)
        #expect(report.faults == ["none": 1, "drop-after-commit": 1])
    }

    @Test func reportFailsMoreServerRequestedFixesThanRecordFixCommands() {
        var entries = Self.journal([[Self.stored(1), Self.stored(2)], [Self.stored(3)]])
        entries[0].commands = [IssuedCommand(commandId: "9", kind: "RECORD_FIX")]
        entries[1].stored[0].serverRequested = true
        let recorded = (1...3).map { Self.recorded($0) }
        #expect(MockReport(journal: entries, clientLog: recorded).clean, "one command, one fix")
        entries[0].stored[1].serverRequested = true
        let twice = MockReport(journal: entries, clientLog: recorded)
        #expect(!twice.clean && twice.recordFixCommands == 1 && twice.serverRequestedFixes == 2)
        #expect(twice.text().contains("a command ran more than once"))
    }

    @Test func reportCountsLostFixes() {
        let report = MockReport(
            journal: Self.journal([[Self.stored(1)], [Self.stored(3)]]),
            clientLog: (1...4).map { Self.recorded($0) })
        #expect(!report.clean && report.lost == 2 && report.doubled == 0 && report.unknown == 0)
        #expect(report.lostFixes.map(\.sequence) == [2, 4])
    }

    @Test func reportCountsAFixStoredUnderTwoKeysAsDoubled() {
        // A client that renumbered fix 2 on resend: stored as 2 and again as 5.
        let report = MockReport(
            journal: Self.journal([[Self.stored(1), Self.stored(2)], [Self.stored(5, content: 2)]]),
            clientLog: [Self.recorded(1), Self.recorded(2)])
        #expect(!report.clean && report.lost == 0 && report.doubled == 1 && report.unknown == 0)
        #expect(report.doubledFixes.map(\.sequence) == [2] && report.doubledFixes.first?.storedAs == [2, 5])
    }

    @Test func reportListsUnknownFixesAndRenumberedOnesWithoutFailing() {
        // Fix 2 stored only under 9: renumbered, not lost. Sequence 7 with content nobody recorded: unknown.
        let report = MockReport(
            journal: Self.journal([[Self.stored(1), Self.stored(9, content: 2), Self.stored(7, content: 700)]]),
            clientLog: [Self.recorded(1), Self.recorded(2)])
        #expect(report.clean && report.lost == 0 && report.doubled == 0)
        #expect(report.unknown == 1 && report.unknownFixes.map(\.sequence) == [7] && report.renumbered == 1)
    }

    @Test func reportMatchesRepeatedContentAsAMultiset() {
        // The OS handed out one fix twice: two recorded fixes with equal content, one stored.
        let report = MockReport(
            journal: Self.journal([[Self.stored(1, content: 10)]]),
            clientLog: [Self.recorded(1, content: 10), Self.recorded(2, content: 10)])
        #expect(report.lost == 1 && report.lostFixes.map(\.sequence) == [2] && report.doubled == 0)
    }

    @Test func reportReadsTheFilesItsFormatsDescribe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mock-report-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clientLog = directory.appendingPathComponent("client.jsonl")
        try Data(
            """
            {"installId": "8143", "sequence": 1, "timeMs": 1767225600001, "latitudeE7": 500000000, "longitudeE7": 1}
            {"installId": 8143, "sequence": 2, "timeMs": 1767225600002, "latitudeE7": 500000000, "longitudeE7": 2}

            """.utf8
        ).write(to: clientLog)
        #expect(try ClientLogEntry.read(path: clientLog.path) == [Self.recorded(1), Self.recorded(2)])
        try Data("{\"installId\": \"x\"}\n".utf8).write(to: clientLog)
        #expect(throws: MockReportError.self) { try ClientLogEntry.read(path: clientLog.path) }
    }

    // MARK: Helpers

    /// A queue of installation ``installId`` with `fixes` recorded fixes, each with its own time and position.
    static func queue(fixes: Int) -> UploadQueue {
        var queue = UploadQueue(deviceId: "phone-1", installId: installId)
        for index in 0..<fixes {
            var fix = LocationFix()
            fix.timeMs = nowMs - 60_000 + Int64(index) * 1000
            fix.latitudeE7 = 525_200_000 + Int32(index)
            fix.longitudeE7 = 134_050_000 + Int32(index)
            _ = queue.record(fix)
        }
        return queue
    }

    /// A valid batch of fixes `sequences` of installation ``installId``.
    static func batch(_ sequences: ClosedRange<UInt64>, batchId: UInt64) -> LocationBatch {
        var batch = LocationBatch()
        for sequence in sequences {
            var fix = LocationFix()
            fix.sequence = sequence
            fix.timeMs = nowMs - 60_000 + Int64(sequence)
            fix.latitudeE7 = 525_200_000
            fix.longitudeE7 = 134_050_000
            batch.fixes.append(fix)
        }
        batch.deviceId = "phone-1"
        batch.installId = installId
        batch.batchId = batchId
        batch.datum = .wgs84
        batch.protocolRevision = IngestLedger.protocolRevision
        batch.sentAtMs = nowMs
        batch.fixSequenceFloor = sequences.lowerBound
        return batch
    }

    /// The queue's next batch, which the tests always expect to exist.
    static func nextBatch(_ queue: inout UploadQueue, batchId: UInt64) throws -> LocationBatch {
        guard let batch = queue.nextBatch(batchId: batchId, bootId: 1, nowMs: nowMs) else {
            throw MockTestFailure(message: "the queue built no batch")
        }
        return batch
    }

    static func acknowledged(_ result: BindingClient.UploadResult) throws -> BatchAck {
        guard case .acknowledged(let ack) = result else {
            throw MockTestFailure(message: "expected an ack, got \(result)")
        }
        return ack
    }

    struct MockTestFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs `body` against a mock server on a loopback port the system chose, journaling to a temporary file.
    static func withMockServer(
        faults: String, seed: UInt64 = 1,
        _ body: @Sendable (BindingClient, MockStore, String) async throws -> Void
    ) async throws {
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent("mock-journal-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let store = MockStore(
            spec: try FaultSpec(parsing: faults), seed: seed, journal: try JournalWriter(path: journal),
            nowMs: { Self.nowMs })
        let app = makeMockServerApplication(store: store, configuration: ServerConfiguration(), port: 0)
        try await app.test(.live) { testClient in
            let port = try #require(testClient.port)
            let client = BindingClient(baseURL: "http://127.0.0.1:\(port)")
            do {
                try await body(client, store, journal)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}
