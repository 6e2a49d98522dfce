import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LocationWire
import LocationWireHTTP
import LocationWireHTTPClient
import LocationWireMockServer
import LocationWireRandom
import LocationWireServer
import LocationWireSession
import NIOCore
import NIOHTTP1
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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
        "status-503=0.1:retry-after-form=later", "status-408=0.1:retry-after=x", "status-408=0.1:retry-after=-1",
        "status-413=0.1:max-batch-bytes=0", "status-413=0.1:max-batch-bytes=big", "policy=0.1:version=0",
        "hint=0.1:version=3", "cut-ack=0.1,cut-ack=0.2", "status-401=0.1:retry-after=1",
    ])
    func specRefusesWhatIsNotOfTheGrammar(_ text: String) {
        #expect(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: text) }
    }

    @Test func specParsesTheNewFaultsAndTheirParameters() throws {
        let spec = try FaultSpec(
            parsing: "status-400=0.01,status-401=0.01,status-403=0.01,status-408=0.01:retry-after=3,status-413=0.01,"
                + "status-415=0.01,cut-ack=0.01,retry-later=0.01,reject-unknown=0.01,policy=0.01:version=9,hint=0.01,"
                + "status-503=0.01:retry-after-form=date,status-429=0.01:retry-after=4:retry-after-form=seconds")
        #expect(
            spec.entries.map(\.fault) == [
                .status400, .status401, .status403, .status408(retryAfterSeconds: 3), .status413(maxBatchBytes: nil),
                .status415, .cutAck, .retryLater, .rejectUnknown, .policy(version: 9), .hint,
                .status503(retryAfterSeconds: 1, form: .date), .status429(retryAfterSeconds: 4, form: .seconds),
            ])
        #expect(try FaultSpec(parsing: spec.description) == spec)
        #expect(
            try FaultSpec(parsing: "status-408=0.1,status-413=0.1:max-batch-bytes=20000,policy=0.1").entries.map(
                \.fault)
                == [.status408(retryAfterSeconds: nil), .status413(maxBatchBytes: 20000), .policy(version: 7)])
    }

    /// The table is the one list: every fault of it parses with its defaults and prints back, the parser's error
    /// names every fault, `run --help`'s list has every fault and parameter, and MOCK-SERVER.md has the table
    /// word for word.
    @Test func theFaultTableIsTheOneList() throws {
        let catalogue = FaultCatalogue.standard
        #expect(Set(catalogue.names).count == catalogue.names.count)
        for entry in catalogue.entries {
            let spec = try FaultSpec(parsing: "\(entry.name)=0.5")
            #expect(spec.entries.first?.fault.name == entry.name)
            #expect(spec.entries.first?.fault.parameters.map(\.name) == entry.parameters.map(\.name))
            #expect(spec.entries.first?.fault.parameters.map(\.value) == entry.parameters.map(\.defaultValue))
            #expect(try FaultSpec(parsing: spec.description) == spec)
            #expect(catalogue.helpText.contains(entry.name))
            for parameter in entry.parameters {
                #expect(catalogue.helpText.contains("\(parameter.name)=\(parameter.values)"))
            }
        }
        let error = try #require(throws: FaultSpec.ParseError.self) { try FaultSpec(parsing: "teleport=0.1") }
        #expect(error.message.hasSuffix(catalogue.names.joined(separator: ", ")))
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("MOCK-SERVER.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(
            text.contains(catalogue.markdownTable + "\n"),
            "MOCK-SERVER.md's faults table differs from FaultCatalogue.standard; it should read:\n\(catalogue.markdownTable)"
        )
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
                var generator = SeededRandom(seed: seed)
                return generator.uniform(0, 1) >= 0.5 && generator.uniform(0, 1) < 0.5
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

    /// What the journal keeps of a request: the token's and the body's digests, the body's size after decoding,
    /// its coding and type, the policy version stated, when it was answered, and the ack's outcome.
    @Test func theJournalKeepsWhatTheChecksNeed() async throws {
        try await Self.withMockServer(faults: "none") { client, _, journal in
            var queue = Self.queue(fixes: 3)
            var batch = try Self.nextBatch(&queue, batchId: 77)
            batch.policyVersion = 4
            _ = try Self.acknowledged(await client.upload(batch, token: "secret", format: .json, gzip: true))
            let entry = try #require(try JournalWriter.read(path: journal).last)
            let text = BodyFormat.json.encode(batch)
            #expect(entry.endpoint == "batches" && entry.tokenDigest == RequestFacts.digest("secret".utf8))
            #expect(entry.tokenDigest?.count == 16 && entry.tokenDigest != RequestFacts.digest("other".utf8))
            #expect(entry.bodyBytes == text.count && entry.bodyDigest == RequestFacts.digest(text))
            #expect(
                entry.contentEncoding == "gzip"
                    && entry.contentType == BodyFormat.json.contentType(for: LocationBatch.self))
            #expect(
                entry.policyVersion == 4 && entry.items == 3 && entry.outcome == "PROCESSED" && entry.deletes == true)
            #expect(entry.answeredAtMs.map { $0 >= entry.timeMs } == true && entry.rejected == nil)
        }
    }

    @Test func aBodyThatDoesNotDecodeIsJournaledOnceWithItsDigest() async throws {
        try await Self.withMockServer(faults: "none") { client, _, journal in
            let body: [UInt8] = [0x3A, 0x02, 0x1D, 0x00]
            let answer = try await client.exchange(
                method: "POST", path: Binding.batchesPath, token: "any",
                contentType: BodyFormat.binary.contentType(for: LocationBatch.self), body: body)
            #expect(answer.status == 400 && answer.errorBody?.code == "truncated")
            let entries = try JournalWriter.read(path: journal)
            #expect(entries.count == 1 && entries.first?.bodyDigest == RequestFacts.digest(body))
            #expect(entries.first?.installId == nil && entries.first?.tokenDigest == RequestFacts.digest("any".utf8))
        }
    }

    @Test(arguments: [
        ("status-400", 400, "truncated", [String: String]()),
        ("status-401", 401, "unauthenticated", ["www-authenticate": "Bearer"]),
        ("status-403", 403, "device-mismatch", [:]),
        ("status-408", 408, "incomplete-body", ["connection": "close"]),
        ("status-408=1:retry-after=3", 408, "incomplete-body", ["retry-after": "3"]),
        ("status-413", 413, "body-too-large", ["connection": "close"]),
        ("status-415", 415, "unsupported-content-encoding", ["accept-encoding": "gzip"]),
    ])
    func refusalFaultsStoreNothingAndAnswerAsTheBindingSays(
        _ fault: String, status: Int, code: String, fields: [String: String]
    ) async throws {
        let spec = fault.contains("=") ? fault : fault + "=1"
        try await Self.withMockServer(faults: spec) { client, store, journal in
            var queue = Self.queue(fixes: 3)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let answer = try await Self.post(batch, with: client)
            #expect(answer.status == status && answer.errorBody?.code == code)
            for (name, value) in fields { #expect(answer.header(name) == value, "\(name)") }
            #expect(fault != "status-408" || answer.header("retry-after") == nil)
            #expect(answer.errorBody?.maxBatchBytes == nil)
            #expect(await store.storedFixCount == 0)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.status == status && entry.errorCode == code && !entry.committed && entry.stored.isEmpty)
            #expect(entry.retryAfter == fields["retry-after"] && entry.bodyDigest != nil && entry.installId != nil)
            // The device reads each as the binding's table says.
            let read = UploadAnswer(
                status: answer.status, contentType: answer.header("content-type"),
                retryAfter: answer.header("retry-after"), body: answer.body, bodyIsWhole: true, batchId: 77,
                nowMs: Self.nowMs)
            #expect(read.isFailure == (status != 413))
        }
    }

    @Test func aFourThirteenStatesTheLimitItWasGiven() async throws {
        try await Self.withMockServer(faults: "status-413=1:max-batch-bytes=20000") { client, _, journal in
            var queue = Self.queue(fixes: 3)
            let answer = try await Self.post(try Self.nextBatch(&queue, batchId: 77), with: client)
            #expect(answer.status == 413 && answer.errorBody?.maxBatchBytes == 20000)
            #expect(try JournalWriter.read(path: journal).last?.maxBatchBytes == 20000)
        }
    }

    @Test(arguments: [503, 429])
    func aWaitCanBeStatedAsAnHTTPDate(_ status: Int) async throws {
        try await Self.withMockServer(faults: "status-\(status)=1:retry-after=7:retry-after-form=date") {
            client, _, journal in
            var queue = Self.queue(fixes: 3)
            let answer = try await Self.post(try Self.nextBatch(&queue, batchId: 77), with: client)
            let value = try #require(answer.header("retry-after"))
            #expect(answer.status == status && value.hasSuffix(" GMT"))
            #expect(RetryAfter.waitMs(value, nowMs: Self.nowMs) == 7000)
            #expect(try JournalWriter.read(path: journal).last?.retryAfter == value)
        }
    }

    /// `cut-ack`: the bytes that arrive are a whole, valid ack claiming every fix, but fewer than Content-Length
    /// promised; nothing was stored.
    @Test(arguments: BodyFormat.allCases)
    func cutAckSendsAWholeAckUnderALongerLength(_ format: BodyFormat) async throws {
        try await Self.withMockServer(faults: "cut-ack=1") { client, store, journal in
            var queue = Self.queue(fixes: 4)
            let batch = try Self.nextBatch(&queue, batchId: 77)
            let (head, body) = try await Self.rawPost(format.encode(batch), format: format, port: client.port)
            let length = try #require(
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
            #expect(head.hasPrefix("HTTP/1.1 200") && body.count < length)
            #expect(length == body.count + MockStore.cutAckPadding(format).count)
            let ack = try format.decode(BatchAck.self, from: body)
            #expect(ack.batchId == 77 && ack.outcome == .processed)
            #expect(ack.fixResults.map { [$0.firstSequence, $0.lastSequence] } == [[1, 4]])
            #expect(ack.fixResults.first?.result == .accepted)
            // The whole body the length promised would have said the same (binary: plus an unknown field).
            var whole = try format.decode(BatchAck.self, from: body + MockStore.cutAckPadding(format))
            #expect(format == .json || !whole.unknownFields.isEmpty)
            whole.unknownFields = ack.unknownFields
            #expect(whole == ack)
            #expect(await store.storedFixCount == 0)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.answer == "cut-ack" && entry.fault == "cut-ack" && !entry.committed && entry.stored.isEmpty)
        }
    }

    @Test func retryLaterKeepsEveryFixAndStoresNothing() async throws {
        try await Self.withMockServer(faults: "retry-later=1") { client, store, journal in
            var queue = Self.queue(fixes: 4)
            let ack = try Self.acknowledged(await client.upload(try Self.nextBatch(&queue, batchId: 77), token: "any"))
            #expect(ack.outcome == .processed && ack.fixResults.allSatisfy { $0.result == .retryLater })
            guard case .applied(let effect) = queue.apply(ack, nowMs: Self.nowMs) else {
                Issue.record("the ack was ignored")
                return
            }
            #expect(effect.keptFixes == [1, 2, 3, 4] && queue.fixes.count == 4)
            #expect(queue.consecutiveFailures == 1, "a PROCESSED ack that deletes nothing is a failure")
            #expect(await store.storedFixCount == 0)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.outcome == "PROCESSED" && entry.deletes == false && entry.stored.isEmpty)
        }
    }

    @Test func rejectUnknownRefusesEveryFixWithAReasonOfALaterRevision() async throws {
        try await Self.withMockServer(faults: "reject-unknown=1") { client, store, journal in
            var queue = Self.queue(fixes: 4)
            let ack = try Self.acknowledged(await client.upload(try Self.nextBatch(&queue, batchId: 77), token: "any"))
            #expect(ack.fixResults.allSatisfy { $0.result == .rejected && $0.rejectReason.rawValue == 99 })
            guard case .applied(let effect) = queue.apply(ack, nowMs: Self.nowMs) else {
                Issue.record("the ack was ignored")
                return
            }
            #expect(effect.rejectedFixes == [1, 2, 3, 4] && queue.fixes.isEmpty)
            #expect(await store.storedFixCount == 0)
            let entry = try #require(try JournalWriter.read(path: journal).last)
            #expect(entry.rejected == [1, 2, 3, 4] && entry.deletes == true && entry.stored.isEmpty)
        }
    }

    @Test func policyAndHintStoreAndAnswerWithWhatTheySay() async throws {
        try await Self.withMockServer(faults: "policy=1:version=9") { client, store, journal in
            var queue = Self.queue(fixes: 2)
            let ack = try Self.acknowledged(await client.upload(try Self.nextBatch(&queue, batchId: 77), token: "any"))
            #expect(ack.trackingPolicy?.policyVersion == 9 && ack.fixResults.first?.result == .accepted)
            _ = queue.apply(ack, nowMs: Self.nowMs)
            #expect(queue.policy.policyVersion == 9)
            #expect(await store.storedFixCount == 2)
            #expect(try JournalWriter.read(path: journal).last?.policyVersionGiven == 9)
        }
        try await Self.withMockServer(faults: "hint=1") { client, store, _ in
            var queue = Self.queue(fixes: 2)
            let ack = try Self.acknowledged(await client.upload(try Self.nextBatch(&queue, batchId: 77), token: "any"))
            #expect(ack.latestAssignmentVersion == 5)
            #expect(await store.storedFixCount == 2)
            guard case .applied(let effect) = queue.apply(ack, nowMs: Self.nowMs) else {
                Issue.record("the ack was ignored")
                return
            }
            #expect(effect.requestRegions)
        }
    }

    /// The mock offers no regions, but journals every request for them, with the token's digest.
    @Test func regionRequestsAreNotOfferedButJournaled() async throws {
        try await Self.withMockServer(faults: "none") { client, _, journal in
            let answer = try await client.exchange(
                method: "POST", path: Binding.regionsPath, token: "tok",
                contentType: BodyFormat.json.contentType(for: RegionRequest.self), body: Array("{}".utf8))
            #expect(answer.status == 404 && answer.errorBody?.code == ErrorBody.Code.notOffered)
            let anonymous = try await client.exchange(method: "GET", path: Binding.regionsPath, token: nil)
            #expect(anonymous.status == 404)
            let entries = try JournalWriter.read(path: journal)
            #expect(entries.map(\.endpoint) == ["regions", "regions"] && entries.map(\.status) == [404, 404])
            #expect(entries.map(\.tokenDigest) == [RequestFacts.digest("tok".utf8), nil])
            #expect(entries.allSatisfy { $0.errorCode == ErrorBody.Code.notOffered && !$0.isBatch })
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

    // MARK: The checks, on hand-made journals

    /// A request to `POST /v1/batches` of installation ``installId`` read `atMs` after ``nowMs`` and answered 5 ms
    /// later, carrying `fixes`: by default a `200` whose `PROCESSED` ack stores and deletes them all.
    static func request(
        _ number: Int, at atMs: Int64, fixes: [UInt64], status: Int? = 200, answer: String = "ack",
        outcome: String? = "PROCESSED", deletes: Bool? = true, stores: Bool? = nil, fault: String = "none",
        token: String = "t1", bytes: Int = 1000
    ) -> JournalEntry {
        let storing = stores ?? (status == 200 && answer == "ack" && outcome == "PROCESSED" && deletes == true)
        var entry = JournalEntry(
            request: number, timeMs: nowMs + atMs, fault: fault, committed: storing, status: status, answer: answer,
            deviceId: "phone-1", installId: "\(installId)", batchId: "\(number)", fixes: fixes,
            stored: storing ? fixes.filter { $0 != 0 }.map { Self.stored($0) } : [])
        entry.answeredAtMs = nowMs + atMs + 5
        entry.endpoint = "batches"
        entry.outcome = status == 200 ? outcome : nil
        entry.deletes = status == 200 ? deletes : nil
        entry.tokenDigest = token
        entry.bodyBytes = bytes
        entry.bodyDigest = "body-\(number)"
        entry.contentType = BodyFormat.json.contentType(for: LocationBatch.self)
        entry.items = fixes.count
        entry.policyVersion = 0
        return entry
    }

    /// A refusal of a batch: `status` with the error body, nothing stored.
    static func refusal(
        _ number: Int, at atMs: Int64, fixes: [UInt64], status: Int, retryAfter: String? = nil,
        maxBatchBytes: Int? = nil, bytes: Int = 1000
    ) -> JournalEntry {
        var entry = request(number, at: atMs, fixes: fixes, status: status, answer: "refusal", bytes: bytes)
        entry.retryAfter = retryAfter
        entry.maxBatchBytes = maxBatchBytes
        return entry
    }

    /// A request to `/v1/regions`, answered `404`.
    static func regions(_ number: Int, at atMs: Int64, token: String) -> JournalEntry {
        var entry = JournalEntry(
            request: number, timeMs: nowMs + atMs, fault: "none", committed: false, status: 404, answer: "refusal",
            errorCode: ErrorBody.Code.notOffered)
        entry.endpoint = "regions"
        entry.tokenDigest = token
        entry.answeredAtMs = nowMs + atMs + 1
        return entry
    }

    /// The report of `entries` against a client that recorded `recorded`.
    static func judge(
        _ entries: [JournalEntry], recorded: ClosedRange<UInt64> = 1...3, log: ClientLog = ClientLog(),
        requireDrained: Bool = false
    ) -> MockReport {
        var log = log
        log.fixes = recorded.map { Self.recorded($0) }
        return MockReport(journal: entries, clientLog: log, requireDrained: requireDrained)
    }

    @Test func aClientThatKeepsEveryRulePassesEveryCheck() {
        var policyAck = Self.request(9, at: 22_000, fixes: [7])
        policyAck.policyVersionGiven = 7
        var afterPolicy = Self.request(10, at: 22_100, fixes: [8])
        afterPolicy.policyVersion = 7
        let report = Self.judge(
            [
                Self.refusal(1, at: 0, fixes: [1, 2], status: 503, retryAfter: "2"),
                Self.request(2, at: 2100, fixes: [1, 2]),
                Self.request(3, at: 2200, fixes: [3], status: nil, answer: "closed", stores: false),
                Self.request(4, at: 3300, fixes: [3], answer: "cut-ack", stores: true),
                Self.refusal(5, at: 5400, fixes: [4, 5, 6], status: 413, bytes: 30_000),
                Self.request(6, at: 5410, fixes: [4, 5], bytes: 16_000),
                Self.refusal(7, at: 5500, fixes: [6], status: 415),
                Self.request(8, at: 6600, fixes: [6]),
                policyAck, afterPolicy,
                Self.regions(11, at: 23_000, token: "t1"),
            ], recorded: 1...8)
        #expect(report.checks.map(\.name) == MockReport.checkTags.map(\.name))
        #expect(report.clean, "\(report.text())")
        #expect(report.checks.allSatisfy { $0.passed && $0.offenceCount == 0 })
        #expect(report.json().contains("\"checks\"") && report.text().contains("PASS paced [§back-off"))
    }

    @Test func pacedWantsTheStatedWait() {
        func run(_ gap: Int64, retryAfter: String) -> [String] {
            Self.judge([
                Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 503, retryAfter: retryAfter),
                Self.request(2, at: 5 + gap, fixes: [1, 2, 3]),
            ]).failedChecks
        }
        #expect(run(2000, retryAfter: "2") == [])
        #expect(run(1900, retryAfter: "2") == [], "150 ms of slack")
        #expect(run(1500, retryAfter: "2") == ["paced"])
        // An HTTP-date, measured from the answer: the answer went out at 5 ms, the date is 3 s on, to the second.
        let date = RetryAfter.httpDate(ms: Self.nowMs + 5 + 3000)
        #expect(run(3000, retryAfter: date) == [])
        #expect(run(2500, retryAfter: date) == ["paced"])
        // A value that does not read is absent: the back-off, 1 s.
        #expect(run(900, retryAfter: "soon") == [])
        #expect(run(500, retryAfter: "soon") == ["paced"])
    }

    @Test func pacedWantsTheBackOffToDouble() {
        func run(_ lastGap: Int64) -> MockReport {
            Self.judge([
                Self.request(1, at: 0, fixes: [1, 2, 3], status: nil, answer: "reset", stores: false),
                Self.request(2, at: 1100, fixes: [1, 2, 3], status: nil, answer: "closed", stores: false),
                Self.request(3, at: 3200, fixes: [1, 2, 3], answer: "cut-ack", stores: false),
                Self.request(4, at: 3205 + lastGap, fixes: [1, 2, 3]),
            ])
        }
        #expect(run(4000).clean)
        let early = run(3000)
        #expect(early.failedChecks == ["paced"])
        #expect(early.check("paced")?.offences.map(\.request) == [4])
        #expect(early.check("paced")?.offences.first?.detail.contains("failure 3 in a row: back-off 4000 ms") == true)
    }

    @Test func pacedCountsAcksThatDeleteNothingAndHoldsButNotTooLarge() {
        let entries: [(JournalEntry, Bool)] = [
            (Self.request(1, at: 0, fixes: [1, 2, 3], deletes: false, stores: false), true),  // RETRY_LATER
            (Self.request(1, at: 0, fixes: [1, 2, 3], outcome: "HOLD", deletes: false, stores: false), true),
            (Self.request(1, at: 0, fixes: [1, 2, 3], answer: "stale-ack", stores: false), true),
            (Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 400), true),
            (Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 500), true),
            (Self.request(1, at: 0, fixes: [1, 2, 3], outcome: "TOO_LARGE", deletes: false, stores: false), false),
            (Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 413), false),
            (Self.request(1, at: 0, fixes: [1], fault: "slow"), false),
            (Self.request(1, at: 0, fixes: [1]), false),
        ]
        for (first, waits) in entries {
            // Smaller than the first (so that a 413 or TOO_LARGE is obeyed), storing what the first did not.
            var next = Self.request(2, at: 100, fixes: [1, 2, 3], bytes: 400)
            next.stored.removeAll { fix in first.stored.contains { $0.sequence == fix.sequence } }
            #expect(Self.judge([first, next]).failedChecks == (waits ? ["paced"] : []), "\(first)")
        }
        // retry_after_ms of an ack holds the queue, whatever the outcome.
        var held = Self.request(1, at: 0, fixes: [1])
        held.ackRetryAfterMs = 3000
        #expect(Self.judge([held, Self.request(2, at: 1000, fixes: [2, 3])]).failedChecks == ["paced"])
        #expect(Self.judge([held, Self.request(2, at: 3100, fixes: [2, 3])]).failedChecks == [])
    }

    @Test func pacedIsLenientAfterAnotherBatchsAck() {
        // Three failures in a row, then another batch's ack: the client may have applied it (resetting the
        // count) before counting the failure, so 1 s is enough.
        func run(_ gap: Int64) -> [String] {
            Self.judge([
                Self.request(1, at: 0, fixes: [1, 2, 3], status: nil, answer: "reset", stores: false),
                Self.request(2, at: 1100, fixes: [1, 2, 3], status: nil, answer: "reset", stores: false),
                Self.request(3, at: 3200, fixes: [1, 2, 3], status: nil, answer: "reset", stores: false),
                Self.request(4, at: 7300, fixes: [1, 2, 3], answer: "stale-ack", stores: false),
                Self.request(5, at: 7305 + gap, fixes: [1, 2, 3]),
            ]).failedChecks
        }
        #expect(run(1000) == [])
        #expect(run(200) == ["paced"])
    }

    @Test func credentialsWantNothingMoreWithARefusedToken() {
        for status in [401, 403] {
            let refused = Self.refusal(1, at: 0, fixes: [1, 2, 3], status: status)
            #expect(Self.judge([refused, Self.request(2, at: 100, fixes: [1, 2, 3], token: "t2")]).clean)
            let again = Self.judge([refused, Self.request(2, at: 5000, fixes: [1, 2, 3])])
            #expect(again.failedChecks == ["credentials"])
            var asking = Self.judge(
                [
                    refused, Self.regions(2, at: 10, token: "t1"),
                    Self.request(3, at: 100, fixes: [1, 2, 3], token: "t2"),
                ])
            #expect(asking.failedChecks == ["credentials"])
            asking = Self.judge(
                [
                    refused, Self.regions(2, at: 10, token: "t2"),
                    Self.request(3, at: 100, fixes: [1, 2, 3], token: "t2"),
                ])
            #expect(asking.clean)
        }
    }

    @Test(
        arguments: [
            // (status, stated, sent, allowed): a stated limit, counted as at least 16384, below the size sent ...
            (413, 20_000, 40_000, 20_000), (413, 16_000, 40_000, 16_384),
            // ... a stated limit not below it is read as absent: half, never under 16384 ...
            (413, 50_000, 40_000, 20_000), (413, nil, 40_000, 20_000), (413, nil, 20_000, 16_384),
            (413, 1_000, 10_000, 5_000),
            // ... unless the batch refused was within 16384 already: half on. A 408 halves, never under 16384.
            (413, nil, 8_000, 4_000), (408, nil, 40_000, 20_000), (408, nil, 8_000, 16_384),
        ] as [(Int, Int?, Int, Int)])
    func shrinkWantsTheNextBatchWithinTheLimit(status: Int, stated: Int?, sent: Int, allowed: Int) {
        func run(_ next: Int) -> [String] {
            Self.judge([
                Self.refusal(1, at: 0, fixes: [1, 2, 3], status: status, maxBatchBytes: stated, bytes: sent),
                Self.request(2, at: 1100, fixes: [1, 2], bytes: next), Self.request(3, at: 1200, fixes: [3]),
            ]).failedChecks
        }
        #expect(run(allowed) == [])
        #expect(run(allowed + 1) == ["shrink"])
        // A batch of one item cannot be smaller.
        #expect(
            Self.judge([
                Self.refusal(1, at: 0, fixes: [1, 2, 3], status: status, maxBatchBytes: stated, bytes: sent),
                Self.request(2, at: 1100, fixes: [1], bytes: sent), Self.request(3, at: 1200, fixes: [2, 3]),
            ]).clean)
    }

    @Test func aFixRefusedAloneAsTooLargeIsDiscardedNeverResent() {
        let alone = Self.refusal(2, at: 100, fixes: [2], status: 413, bytes: 300)
        var tooLarge = Self.request(2, at: 100, fixes: [2], outcome: "TOO_LARGE", deletes: false, stores: false)
        tooLarge.bodyBytes = 300
        let discarded = ClientLog(discarded: ["\(Self.installId)": [2]])
        for refusal in [alone, tooLarge] {
            let first = Self.request(1, at: 0, fixes: [1])
            // Discarded after the refusal: not lost.
            let report = Self.judge([first, refusal, Self.request(3, at: 200, fixes: [3])], log: discarded)
            #expect(report.clean && report.discarded == 1 && report.lost == 0)
            // Sent again: the rule broken is http-shrink's, the fix stored at last is not lost.
            let again = Self.judge([first, refusal, Self.request(3, at: 200, fixes: [2, 3])])
            #expect(again.failedChecks == ["shrink"])
        }
        // Discarded without a refusal of it alone: lost.
        let unjustified = Self.judge(
            [Self.request(1, at: 0, fixes: [1]), Self.request(2, at: 100, fixes: [3])], log: discarded)
        #expect(unjustified.failedChecks == ["lost"] && unjustified.lost == 1)
        #expect(unjustified.check("lost")?.offences.first?.detail.contains("discarded by the client") == true)
        // A batch of two fixes refused: no discard is justified.
        let two = Self.judge(
            [
                Self.refusal(1, at: 0, fixes: [1, 2], status: 413, bytes: 300),
                Self.request(2, at: 10, fixes: [1, 3], bytes: 100),
            ],
            log: discarded)
        #expect(two.failedChecks == ["lost"])
    }

    @Test(
        arguments: [
            (nil, BodyFormat.json.contentType(for: LocationBatch.self), true),
            ("identity", "application/json", true), (nil, "application/x-protobuf", true),
            ("gzip", BodyFormat.json.contentType(for: LocationBatch.self), false),
            (nil, "application/json; proto=locationwire.v1.BatchAck", false), (nil, "text/plain", false),
            (nil, nil, false),
        ] as [(String?, String?, Bool)])
    func encodingAfter415WantsNoCodingAndTheRightType(coding: String?, type: String?, passes: Bool) {
        var next = Self.request(2, at: 1100, fixes: [1, 2, 3])
        next.contentEncoding = coding
        next.contentType = type
        let report = Self.judge([Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 415), next])
        #expect(report.failedChecks == (passes ? [] : ["encoding-after-415"]))
    }

    @Test func newBytesAfter400WantsAnotherBody() {
        let refused = Self.refusal(1, at: 0, fixes: [1, 2, 3], status: 400)
        var same = Self.request(2, at: 1100, fixes: [1, 2, 3])
        same.bodyDigest = refused.bodyDigest
        #expect(Self.judge([refused, same]).failedChecks == ["new-bytes-after-400"])
        #expect(Self.judge([refused, Self.request(2, at: 1100, fixes: [1, 2, 3])]).clean)
    }

    @Test func aRejectedFixIsNotLostAndNeverSentAgain() {
        var rejecting = Self.request(1, at: 0, fixes: [1, 2])
        rejecting.stored = [Self.stored(1)]
        rejecting.rejected = [2]
        let kept = Self.judge([rejecting, Self.request(2, at: 100, fixes: [3])])
        #expect(kept.clean && kept.rejected == 1 && kept.lost == 0)
        let resent = Self.judge([rejecting, Self.request(2, at: 100, fixes: [2, 3])])
        #expect(resent.failedChecks == ["rejected-not-resent"])
        // A slow answer may not have reached the client.
        rejecting.fault = "slow"
        #expect(Self.judge([rejecting, Self.request(2, at: 100, fixes: [2, 3])]).clean)
    }

    @Test func policyVersionWantsThePolicyGivenStated() {
        var giving = Self.request(1, at: 0, fixes: [1])
        giving.policyVersionGiven = 7
        var stating = Self.request(2, at: 100, fixes: [2, 3])
        stating.policyVersion = 7
        #expect(Self.judge([giving, stating]).clean)
        stating.policyVersion = 0
        #expect(Self.judge([giving, stating]).failedChecks == ["policy-version"])
    }

    @Test func sequenceZeroIsNeverSent() {
        #expect(
            Self.judge([Self.request(1, at: 0, fixes: [0, 1, 2, 3])]).failedChecks == ["sequence-zero"])
    }

    @Test func regionsAreNotAskedForAgainAfterA404() {
        let first = Self.regions(2, at: 100, token: "t1")
        let batch = Self.request(1, at: 0, fixes: [1, 2, 3])
        #expect(Self.judge([batch, first, Self.regions(3, at: 200, token: "t2")]).clean)
        let again = Self.judge([batch, first, Self.regions(3, at: 200, token: "t1")])
        #expect(again.failedChecks == ["regions-absent"])
        #expect(again.check("regions-absent")?.offences.map(\.request) == [3])
    }

    /// A fix the client still holds is pending, not lost (`§gap-report`); --require-drained fails it.
    @Test func pendingFixesAreNotLost() {
        let entries = [Self.request(1, at: 0, fixes: [1])]
        let pending = ClientLog(pending: ["\(Self.installId)": [2, 3]])
        let report = Self.judge(entries, log: pending)
        #expect(report.clean && report.pending == 2 && report.lost == 0)
        #expect(Self.judge(entries, log: pending, requireDrained: true).failedChecks == ["drained"])
        #expect(Self.judge(entries, requireDrained: true).failedChecks == ["lost"])
        // Only the last pending line of an installation counts.
        #expect(Self.judge(entries, log: ClientLog(pending: ["\(Self.installId)": [3]])).failedChecks == ["lost"])
    }

    @Test func theClientLogReadsItsThreeKindsOfLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mock-log-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("client.jsonl").path
        try Data(
            """
            {"installId": "8143", "sequence": 1, "timeMs": 1767225600001, "latitudeE7": 500000000, "longitudeE7": 1}
            {"installId": "8143", "discarded": 1}
            {"installId": 8143, "pending": [2, 3]}
            {"installId": "8143", "pending": [3]}

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let log = try ClientLog.read(path: path)
        #expect(log.fixes == [Self.recorded(1)] && log.discarded == ["8143": [1]] && log.pending == ["8143": [3]])
        #expect(try ClientLogEntry.read(path: path) == [Self.recorded(1)])
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

    /// Posts `batch` in binary, and returns the whole exchange (status, fields, body).
    static func post(_ batch: LocationBatch, with client: BindingClient) async throws -> BindingClient.Exchange {
        try await client.exchange(
            method: "POST", path: Binding.batchesPath, token: "any",
            contentType: BodyFormat.binary.contentType(for: LocationBatch.self), body: batch.serializedBytes())
    }

    /// Posts `body` on a plain socket and reads until the server closes: the head as text and every byte of body
    /// that arrived, however many the head promised. The socket blocks, so it runs on a thread of its own, never
    /// on one the server's tasks need.
    static func rawPost(
        _ body: [UInt8], format: BodyFormat, port: Int
    ) async throws -> (head: String, body: [UInt8]) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingPost(body, format: format, port: port) })
            }.start()
        }
    }

    private static func blockingPost(
        _ body: [UInt8], format: BodyFormat, port: Int
    ) throws -> (head: String, body: [UInt8]) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw MockTestFailure(message: "no socket") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw MockTestFailure(message: "no connection") }
        let head =
            "POST \(Binding.batchesPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer any\r\n"
            + "Content-Type: \(format.contentType(for: LocationBatch.self))\r\nContent-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw MockTestFailure(message: "send failed") }
            sent += written
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard
            let end = (0...(max(received.count - 4, 0))).first(where: {
                Array(received[$0..<min($0 + 4, received.count)]) == separator
            })
        else { throw MockTestFailure(message: "no head in \(received.count) bytes") }
        return (String(decoding: received[..<end], as: UTF8.self), Array(received[(end + 4)...]))
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

extension BindingClient {
    /// The port of the base URL (`http://127.0.0.1:PORT`).
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }
}
