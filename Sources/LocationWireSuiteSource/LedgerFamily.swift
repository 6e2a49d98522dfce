import LocationWire
import LocationWireConformance
import LocationWireInspection

/// Family (g): the server side. Each vector is a LedgerRequest: a server's configuration and the batches it
/// reads, with the ack each must get (outcome, hold reason, each item's result) and the keys it must keep:
/// stored and refused sequence numbers, and the lost ones (gaps) per installation.
enum LedgerFamily: VectorFamily {
    static let name = "ledger"
    static let description = """
        The server side of a session (FEATURE_LEDGER): batches read in order, the BatchAck each must get (outcome, \
        hold reason, the result of every item, read per item from the ranges) and what the server must keep per \
        installation (device_id, install_id): the fix and fence event numbers stored, refused and lost.
        """

    static var sections: [VectorFamilySection] { [processing, keys, rejections, holds, sizes, gaps, policies] }

    static let device = SessionScript.deviceId
    static let install = SessionScript.installId
    /// 2026-01-01T00:00:05Z, the server clock.
    static let now: Int64 = SessionScript.start + 5000

    /// A revision-1 batch with backlog `fixes` (rows), live fix `live`, fence events `events`; the floors are the
    /// lowest numbers carried unless given.
    static func batch(
        _ batchId: UInt64, fixes: [UInt64] = [], live: UInt64? = nil, events: [UInt64] = [],
        floor: UInt64? = nil, eventFloor: UInt64? = nil, device: String = device, install: UInt64 = install,
        _ configure: (inout LocationBatch) -> Void = { _ in }
    ) -> LocationBatch {
        func fix(_ sequence: UInt64) -> LocationFix {
            var fix = SessionScript.fix(Int(sequence))
            fix.sequence = sequence
            return fix
        }
        var batch = LocationBatch()
        batch.deviceId = device
        batch.installId = install
        batch.batchId = batchId
        batch.bootId = SessionScript.bootA
        batch.sentAtMs = SessionScript.start
        batch.datum = .wgs84
        batch.protocolRevision = 1
        batch.fixes = fixes.map(fix)
        batch.liveFix = live.map(fix)
        batch.fenceEvents = events.map { sequence in
            var event = SessionScript.event(Int(sequence))
            event.eventSequence = sequence
            event.bootId = 0
            return event
        }
        for index in batch.fixes.indices { batch.fixes[index].bootId = 0 }
        batch.liveFix?.bootId = 0
        batch.fixSequenceFloor = floor ?? (fixes + (live.map { [$0] } ?? [])).min() ?? 1
        batch.eventSequenceFloor = eventFloor ?? events.min() ?? 1
        configure(&batch)
        return batch
    }

    static func request(
        _ batches: [LocationBatch], _ configure: (inout LedgerRequest) -> Void = { _ in }
    )
        -> LedgerRequest
    {
        var request = LedgerRequest()
        request.nowMs = now
        request.batches = batches.map { LedgerBatch(.batch($0)) }
        configure(&request)
        return request
    }

    /// PROCESSED with these results by sequence.
    static func processed(_ fixes: [UInt64: String] = [:], events: [UInt64: String] = [:]) -> ExpectedAck {
        var ack = ExpectedAck(outcome: "PROCESSED")
        ack.fixResults = Dictionary(uniqueKeysWithValues: fixes.map { (String($0.key), $0.value) })
        ack.eventResults = Dictionary(uniqueKeysWithValues: events.map { (String($0.key), $0.value) })
        return ack
    }

    static func all(_ sequences: ClosedRange<UInt64>, _ result: String) -> [UInt64: String] {
        Dictionary(uniqueKeysWithValues: sequences.map { ($0, result) })
    }

    static func held(_ reason: String, retryAfterMs: UInt32? = nil) -> ExpectedAck {
        var ack = ExpectedAck(outcome: "HOLD")
        ack.holdReason = reason
        ack.retryAfterMs = retryAfterMs
        return ack
    }

    static func installation(
        device: String = device, install: UInt64 = install, stored: [[UInt64]]? = nil, rejected: [[UInt64]]? = nil,
        lost: [[UInt64]]? = nil, storedEvents: [[UInt64]]? = nil, rejectedEvents: [[UInt64]]? = nil,
        lostEvents: [[UInt64]]? = nil
    ) -> ExpectedInstallation {
        var state = ExpectedInstallation(deviceId: device, installId: install)
        state.storedFixes = stored
        state.rejectedFixes = rejected
        state.lostFixes = lost
        state.storedEvents = storedEvents
        state.rejectedEvents = rejectedEvents
        state.lostEvents = lostEvents
        return state
    }

    // MARK: - Processing

    static func processing(_ builder: inout VectorBuilder) {
        builder.ledger(
            "ledger.processed.accepted", rules: ["§batch-outcome", "§ack-table", "§server-durable"],
            "A valid batch of backlog 1-3 and live fix 4: PROCESSED, each fix ACCEPTED and stored.",
            request([batch(0xB1, fixes: [1, 2, 3], live: 4)]), acks: [processed(all(1...4, "ACCEPTED"))],
            installations: [installation(stored: [[1, 4]])])

        builder.ledger(
            "ledger.processed.events", rules: ["§batch-outcome", "§event-key", "§item-defects"],
            "Fence events 1 and 2 with fix 1: each ACCEPTED in its own list.",
            request([batch(0xB1, live: 1, events: [1, 2])]),
            acks: [processed([1: "ACCEPTED"], events: [1: "ACCEPTED", 2: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]], storedEvents: [[1, 2]])])

        builder.ledger(
            "ledger.processed.batch-level-only", rules: ["§batch-outcome"],
            "A batch with only a lifecycle event and a device status: PROCESSED, with nothing to range over.",
            request([
                batch(0xB1) {
                    var event = LifecycleEvent()
                    event.kind = .launched
                    event.timeMs = SessionScript.start - 1000
                    $0.lifecycleEvents = [event]
                    var status = DeviceStatus()
                    status.observedAtMs = SessionScript.start
                    status.platform = .android
                    $0.deviceStatus = status
                }
            ]), acks: [processed()], installations: [])

        let compactBatch = batch(0xB1, live: 4) {
            $0.compactFixes = try? CompactFixes(fixes: batch(0xB1, fixes: [1, 2, 3]).fixes)
            $0.fixSequenceFloor = 1
        }
        precondition(compactBatch.compactFixes != nil)
        builder.ledger(
            "ledger.processed.compact", rules: ["§batch-outcome", "§ack-table"],
            "The backlog as compact fixes 1-3: rebuilt and each fix ACCEPTED like rows.",
            request([compactBatch]), acks: [processed(all(1...4, "ACCEPTED"))],
            installations: [installation(stored: [[1, 4]])])

        builder.ledger(
            "ledger.processed.mock-accepted", rules: ["§ack-table"],
            "A mock fix when the server does not refuse mock fixes: ACCEPTED.",
            request([batch(0xB1, live: 1) { $0.liveFix?.isMock = true }]), acks: [processed([1: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]])])
    }

    // MARK: - Keys

    static func keys(_ builder: inout VectorBuilder) {
        builder.ledger(
            "ledger.keys.sequence-zero", rules: ["§sequence-zero"],
            "Backlog fix 0 and fence event 0 have no key: neither is stored, and no range covers them; live fix 1 and event 1 are stored.",
            request([batch(0xB1, fixes: [0], live: 1, events: [0, 1], floor: 1, eventFloor: 1)]),
            acks: [processed([0: "not covered", 1: "ACCEPTED"], events: [0: "not covered", 1: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]], storedEvents: [[1, 1]])])

        for (second, name, why) in [
            (UInt64(0xB1), "same-batch-again", "The very same batch twice (a resend after a lost ack)"),
            (
                0xB2, "new-batch-id",
                "The same fixes in a new batch with another batch_id (de-duplication does not use it)"
            ),
        ] {
            builder.ledger(
                "ledger.fix-key.\(name)", rules: ["§fix-key", "§batch-id"],
                "\(why): stored once, answered DUPLICATE the second time.",
                request([batch(0xB1, fixes: [1, 2], live: 3), batch(second, fixes: [1, 2], live: 3)]),
                acks: [processed(all(1...3, "ACCEPTED")), processed(all(1...3, "DUPLICATE"))],
                installations: [installation(stored: [[1, 3]])])
        }

        builder.ledger(
            "ledger.fix-key.partly-new", rules: ["§fix-key"],
            "Fixes 1-3 stored, then a batch of 2-5: 2 and 3 DUPLICATE, 4 and 5 ACCEPTED.",
            request([batch(0xB1, fixes: [1, 2], live: 3), batch(0xB2, fixes: [2, 3, 4], live: 5)]),
            acks: [
                processed(all(1...3, "ACCEPTED")),
                processed([2: "DUPLICATE", 3: "DUPLICATE", 4: "ACCEPTED", 5: "ACCEPTED"]),
            ],
            installations: [installation(stored: [[1, 5]])])

        builder.ledger(
            "ledger.fix-key.within-batch", rules: ["§fix-key"],
            "Fix 2 twice in one backlog: one key, stored once; its result is ACCEPTED.",
            request([batch(0xB1, fixes: [1, 2, 2], live: 3)]), acks: [processed(all(1...3, "ACCEPTED"))],
            installations: [installation(stored: [[1, 3]])])

        builder.ledger(
            "ledger.fix-key.live-repeats-backlog", rules: ["§fix-key"],
            "A live fix with the same sequence as a backlog fix: one key, stored once.",
            request([batch(0xB1, fixes: [1, 2], live: 2)]), acks: [processed(all(1...2, "ACCEPTED"))],
            installations: [installation(stored: [[1, 2]])])

        builder.ledger(
            "ledger.fix-key.live-fix-resent-in-backlog", rules: ["§fix-key"],
            "A live fix (3) stored, then sent again in a later backlog: DUPLICATE.",
            request([batch(0xB1, fixes: [1, 2], live: 3), batch(0xB2, fixes: [3], live: 4)]),
            acks: [processed(all(1...3, "ACCEPTED")), processed([3: "DUPLICATE", 4: "ACCEPTED"])],
            installations: [installation(stored: [[1, 4]])])

        builder.ledger(
            "ledger.install-id.reinstall", rules: ["§fix-key", "§install-id"],
            "A reinstall keeps device_id but draws a new install_id and numbers from 1 again: those are new fixes, ACCEPTED and stored under the new installation.",
            request([batch(0xB1, fixes: [1, 2], live: 3), batch(0xB2, fixes: [1], live: 2, install: 0x0BAD_CAFE)]),
            acks: [processed(all(1...3, "ACCEPTED")), processed(all(1...2, "ACCEPTED"))],
            installations: [
                installation(stored: [[1, 3]]), installation(install: 0x0BAD_CAFE, stored: [[1, 2]]),
            ])

        builder.ledger(
            "ledger.fix-key.other-device", rules: ["§fix-key"],
            "Two devices that happen to have the same install_id: device_id is part of the key, so both are stored.",
            request([batch(0xB1, live: 1), batch(0xB2, live: 1, device: "device-8")]),
            acks: [processed([1: "ACCEPTED"]), processed([1: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]]), installation(device: "device-8", stored: [[1, 1]])])

        builder.ledger(
            "ledger.event-key.duplicate", rules: ["§event-key"],
            "Fence events 1-2 stored, then 2-3: 2 DUPLICATE, 3 ACCEPTED.",
            request([batch(0xB1, events: [1, 2]), batch(0xB2, events: [2, 3])]),
            acks: [
                processed(events: [1: "ACCEPTED", 2: "ACCEPTED"]), processed(events: [2: "DUPLICATE", 3: "ACCEPTED"]),
            ],
            installations: [installation(storedEvents: [[1, 3]])])

        builder.ledger(
            "ledger.event-key.reinstall", rules: ["§event-key", "§install-id"],
            "Event 1 of a new installation is another event than event 1 of the old one.",
            request([batch(0xB1, events: [1]), batch(0xB2, events: [1], install: 0x0BAD_CAFE)]),
            acks: [processed(events: [1: "ACCEPTED"]), processed(events: [1: "ACCEPTED"])],
            installations: [
                installation(storedEvents: [[1, 1]]), installation(install: 0x0BAD_CAFE, storedEvents: [[1, 1]]),
            ])

        builder.ledger(
            "ledger.event-key.separate-counters", rules: ["§event-key", "§fix-key"],
            "Fix 1 and fence event 1 are different keys: both stored.",
            request([batch(0xB1, live: 1, events: [1]), batch(0xB2, live: 1, events: [1])]),
            acks: [
                processed([1: "ACCEPTED"], events: [1: "ACCEPTED"]),
                processed([1: "DUPLICATE"], events: [1: "DUPLICATE"]),
            ],
            installations: [installation(stored: [[1, 1]], storedEvents: [[1, 1]])])
    }

    // MARK: - Rejections

    static func rejections(_ builder: inout VectorBuilder) {
        let cases: [(String, String, (inout LocationFix) -> Void, (inout LedgerRequest) -> Void, String)] = [
            (
                "latitude-out-of-range", "INVALID_COORDINATES", { $0.latitudeE7 = 900_000_001 }, { _ in },
                "a latitude above 90 degrees"
            ),
            (
                "longitude-out-of-range", "INVALID_COORDINATES", { $0.longitudeE7 = -1_800_000_001 }, { _ in },
                "a longitude below -180 degrees"
            ),
            (
                "null-island", "INVALID_COORDINATES",
                {
                    $0.latitudeE7 = 0
                    $0.longitudeE7 = 0
                }, { _ in }, "a fix at exactly (0, 0)"
            ),
            (
                "coordinates-missing", "INVALID_COORDINATES", { $0.latitudeE7 = nil }, { _ in },
                "no latitude"
            ),
            (
                "time-before-2000", "TIMESTAMP_OUT_OF_RANGE", { $0.timeMs = 946_684_799_999 }, { _ in },
                "a time 1 ms before 2000-01-01"
            ),
            (
                "time-from-2100", "TIMESTAMP_OUT_OF_RANGE", { $0.timeMs = 4_102_444_800_000 }, { _ in },
                "a time of exactly 2100-01-01"
            ),
            (
                "too-old", "TOO_OLD", { $0.timeMs = SessionScript.start - 86_400_001 },
                { $0.oldestAcceptedTimeMs = SessionScript.start - 86_400_000 },
                "a fix older than the server keeps (oldest_accepted_time_ms a day back)"
            ),
            (
                "mock-location", "MOCK_LOCATION", { $0.isMock = true }, { $0.rejectsMockFixes = true },
                "a mock fix, which the server refuses"
            ),
        ]
        for (name, reason, spoil, configure, what) in cases {
            builder.ledger(
                "ledger.rejected.\(name)", rules: ["§ack-table", "§server-durable", "§item-defects"],
                "Fix 2 has \(what): a permanent defect, REJECTED with \(reason) and refused for good, while fixes 1 and 3 are stored: one bad item never blocks the batch.",
                request([batch(0xB1, fixes: [1, 2], live: 3) { spoil(&$0.fixes[1]) }], configure),
                acks: [processed([1: "ACCEPTED", 2: "REJECTED:\(reason)", 3: "ACCEPTED"])],
                installations: [installation(stored: [[1, 1], [3, 3]], rejected: [[2, 2]])])
        }

        builder.ledger(
            "ledger.rejected.live-fix", rules: ["§ack-table"],
            "The live fix with an invalid latitude: REJECTED with INVALID_COORDINATES, like a backlog fix.",
            request([batch(0xB1, fixes: [1], live: 2) { $0.liveFix?.latitudeE7 = -900_000_001 }]),
            acks: [processed([1: "ACCEPTED", 2: "REJECTED:INVALID_COORDINATES"])],
            installations: [installation(stored: [[1, 1]], rejected: [[2, 2]])])

        builder.ledger(
            "ledger.rejected.sent-again", rules: ["§ack-table", "§server-durable"],
            "A refused fix sent again is refused again: the defect is permanent, and it is never stored.",
            request([
                batch(0xB1, live: 1) { $0.liveFix?.latitudeE7 = 900_000_001 },
                batch(0xB2, live: 1) { $0.liveFix?.latitudeE7 = 900_000_001 },
            ]),
            acks: [processed([1: "REJECTED:INVALID_COORDINATES"]), processed([1: "REJECTED:INVALID_COORDINATES"])],
            installations: [installation(rejected: [[1, 1]])])

        let precedence: [(String, String, (inout LocationFix) -> Void, String)] = [
            (
                "coordinates-before-time", "INVALID_COORDINATES",
                {
                    $0.latitudeE7 = 900_000_001
                    $0.timeMs = 946_684_799_999
                }, "a latitude above 90 degrees and a time before 2000"
            ),
            (
                "time-before-too-old", "TIMESTAMP_OUT_OF_RANGE",
                {
                    $0.timeMs = 946_684_799_999
                    $0.isMock = true
                }, "a time before 2000 (also older than the server keeps) that is a mock fix"
            ),
            (
                "too-old-before-mock", "TOO_OLD", { $0.isMock = true },
                "a fix older than the server keeps that is a mock fix"
            ),
        ]
        for (name, reason, spoil, what) in precedence {
            builder.ledger(
                "ledger.rejected.order.\(name)", rules: ["§reject-order"],
                "Fix 1 has \(what): several defects, one reason, the first of the order: \(reason).",
                request([
                    batch(0xB1, live: 1) {
                        $0.liveFix?.timeMs = SessionScript.start - 86_400_001
                        spoil(&$0.liveFix!)
                    }
                ]) {
                    $0.oldestAcceptedTimeMs = SessionScript.start - 86_400_000
                    $0.rejectsMockFixes = true
                },
                acks: [processed([1: "REJECTED:\(reason)"])], installations: [installation(rejected: [[1, 1]])])
        }

        builder.ledger(
            "ledger.rejected.stays-refused", rules: ["§refused-stays-refused", "§server-durable"],
            "Fix 1 refused for its latitude, then sent again under the same key with a valid one (content a device must never change): still REJECTED, with INVALID since the content has no defect now, and never stored.",
            request([
                batch(0xB1, live: 1) { $0.liveFix?.latitudeE7 = 900_000_001 }, batch(0xB2, live: 1),
            ]),
            acks: [processed([1: "REJECTED:INVALID_COORDINATES"]), processed([1: "REJECTED:INVALID"])],
            installations: [installation(rejected: [[1, 1]])])

        builder.ledger(
            "ledger.rejected.event-stays-refused", rules: ["§refused-stays-refused"],
            "Fence event 1 refused for its missing region id, then sent again with one: still REJECTED, never stored.",
            request([batch(0xB1, events: [1]) { $0.fenceEvents[0].regionId = "" }, batch(0xB2, events: [1])]),
            acks: [processed(events: [1: "REJECTED:INVALID"]), processed(events: [1: "REJECTED:INVALID"])],
            installations: [installation(rejectedEvents: [[1, 1]])])

        builder.ledger(
            "ledger.rejected.event-without-region", rules: ["§ack-table", "§event-key"],
            "Fence event 2 without a region id: REJECTED with INVALID; events 1 and 3 stored.",
            request([batch(0xB1, events: [1, 2, 3]) { $0.fenceEvents[1].regionId = "" }]),
            acks: [processed(events: [1: "ACCEPTED", 2: "REJECTED:INVALID", 3: "ACCEPTED"])],
            installations: [installation(storedEvents: [[1, 1], [3, 3]], rejectedEvents: [[2, 2]])])

        builder.ledger(
            "ledger.rejected.event-without-kind", rules: ["§ack-table", "§event-key"],
            "Fence event 1 of kind UNSPECIFIED: REJECTED with INVALID.",
            request([batch(0xB1, events: [1]) { $0.fenceEvents[0].kind = .unspecified }]),
            acks: [processed(events: [1: "REJECTED:INVALID"])],
            installations: [installation(rejectedEvents: [[1, 1]])])
    }

    // MARK: - Holds

    static func holds(_ builder: inout VectorBuilder) {
        let good = batch(0xB1, fixes: [1, 2], live: 3)
        builder.ledger(
            "ledger.hold.server-busy", rules: ["§hold-keeps", "§batch-outcome", "§retry-after"],
            "An overloaded server holds every batch: HOLD with SERVER_BUSY and its retry_after_ms, no ranges, nothing stored.",
            request([good]) {
                $0.holdEverything = .serverBusy
                $0.retryAfterMs = 30_000
            }, acks: [held("SERVER_BUSY", retryAfterMs: 30_000)], installations: [])

        builder.ledger(
            "ledger.hold.device-unknown", rules: ["§hold-keeps"],
            "A device id the server does not know is a passing, account-level condition: HOLD with DEVICE_UNKNOWN, never a rejection of the fixes.",
            request([good]) { $0.knownDevices = ["device-1"] }, acks: [held("DEVICE_UNKNOWN")], installations: [])

        builder.ledger(
            "ledger.hold.device-id-empty", rules: ["§hold-keeps"],
            "A batch without a device_id names no device the server knows: HOLD with DEVICE_UNKNOWN, nothing stored.",
            request([batch(0xB1, live: 1, device: "")]), acks: [held("DEVICE_UNKNOWN")], installations: [])

        builder.ledger(
            "ledger.hold.device-known", rules: ["§hold-keeps"],
            "The same batch from a device the server knows: PROCESSED.",
            request([good]) { $0.knownDevices = ["device-1", device] }, acks: [processed(all(1...3, "ACCEPTED"))],
            installations: [installation(stored: [[1, 3]])])

        builder.ledger(
            "ledger.hold.quota-exceeded", rules: ["§hold-keeps"],
            "A quota of 4 fixes per installation: three are stored, the next batch would pass it and is held (QUOTA_EXCEEDED), storing none of its fixes.",
            request([good, batch(0xB2, fixes: [4], live: 5)]) { $0.fixQuotaPerInstallation = 4 },
            acks: [processed(all(1...3, "ACCEPTED")), held("QUOTA_EXCEEDED")],
            installations: [installation(stored: [[1, 3]])])

        builder.ledger(
            "ledger.hold.quota-duplicates-free", rules: ["§hold-keeps", "§fix-key"],
            "A quota of 3: the same three fixes again add nothing to the count: PROCESSED, DUPLICATE.",
            request([good, batch(0xB2, fixes: [1, 2], live: 3)]) { $0.fixQuotaPerInstallation = 3 },
            acks: [processed(all(1...3, "ACCEPTED")), processed(all(1...3, "DUPLICATE"))],
            installations: [installation(stored: [[1, 3]])])

        builder.ledger(
            "ledger.hold.unknown-datum", rules: ["§no-silent-drop", "§hold-keeps"],
            "Datum 99, which the server does not know: the coordinates have no known frame: HOLD with UNKNOWN_DATUM, nothing stored.",
            request([batch(0xB1, fixes: [1], live: 2) { $0.datum = CoordinateDatum(rawValue: 99) }]),
            acks: [held("UNKNOWN_DATUM")], installations: [])

        builder.ledger(
            "ledger.hold.datum-unspecified", rules: ["§no-silent-drop"],
            "Datum UNSPECIFIED reads as WGS84: PROCESSED.",
            request([batch(0xB1, live: 1) { $0.datum = .unspecified }]), acks: [processed([1: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]])])

        builder.ledger(
            "ledger.hold.unsupported-revision", rules: ["§revision", "§revision-zero", "§hold-keeps"],
            "A batch of revision 0 (protocol_revision absent) to a server that does not serve it: HOLD with UNSUPPORTED_REVISION, nothing stored; the same batch at revision 1 is then PROCESSED.",
            request([batch(0xB1, fixes: [1], live: 2) { $0.protocolRevision = 0 }, batch(0xB2, fixes: [1], live: 2)]),
            acks: [held("UNSUPPORTED_REVISION"), processed(all(1...2, "ACCEPTED"))],
            installations: [installation(stored: [[1, 2]])])

        builder.ledger(
            "ledger.revision.newer-device", rules: ["§revision"],
            "A device of revision 2 talks to a revision 1 server: served at revision 1, PROCESSED and stored (revisions only add fields).",
            request([batch(0xB1, fixes: [1], live: 2) { $0.protocolRevision = 2 }]),
            acks: [processed(all(1...2, "ACCEPTED"))], installations: [installation(stored: [[1, 2]])])

        builder.ledger(
            "ledger.revision.no-install-id", rules: ["§revision", "§revision-zero", "§hold-keeps"],
            "A batch without install_id is read as revision 0: HOLD with UNSUPPORTED_REVISION, nothing stored.",
            request([batch(0xB1, live: 1) { $0.installId = 0 }]), acks: [held("UNSUPPORTED_REVISION")],
            installations: [])

        // Compact fixes 1-3 with an extra column 30, a LocationFix field no revision has assigned yet.
        let rows = batch(0xB1, fixes: [1, 2, 3]).fixes
        let column = WireBytes.lengthDelimited(30, WireBytes.lengthDelimited(1, WireBytes.varint(14)))
        var compact = (try? CompactFixes(fixes: rows).serializedBytes()) ?? []
        compact += column
        let shell = batch(0xB1, live: 4) { $0.fixSequenceFloor = 1 }
        let withColumn =
            shell.serializedBytes() + WireBytes.lengthDelimited(LocationBatch.Field.compactFixes.number, compact)
        precondition(
            (try? LocationBatch(serializedBytes: withColumn))?.compactFixes?.unknownFields.isEmpty == false,
            "the batch does not carry the compact fixes with column 30")
        var unknownColumn = request([])
        unknownColumn.batches = [
            LedgerBatch(.encoded(withColumn)), LedgerBatch(.batch(batch(0xB2, fixes: [1, 2, 3], live: 4))),
        ]
        builder.ledger(
            "ledger.hold.unknown-compact-column", rules: ["§no-silent-drop", "§hold-keeps"],
            "Compact fixes with column 30, which the server does not know: it cannot rebuild the fixes whole, so it stores none: HOLD with UNKNOWN_COMPACT_COLUMN. The device's next batch carries them as rows: PROCESSED.",
            unknownColumn, acks: [held("UNKNOWN_COMPACT_COLUMN"), processed(all(1...4, "ACCEPTED"))],
            installations: [installation(stored: [[1, 4]])])

        // Compact fixes 1-3 whose accuracy column (5) came as a varint: a decoder keeps it as an unknown field.
        var withoutAccuracy = try! CompactFixes(fixes: rows)
        withoutAccuracy[column: 5] = nil
        let wrongType = withoutAccuracy.serializedBytes() + [0x28, 0x05]
        let wrongTypeBatch =
            shell.serializedBytes() + WireBytes.lengthDelimited(LocationBatch.Field.compactFixes.number, wrongType)
        precondition(
            (try? LocationBatch(serializedBytes: wrongTypeBatch))?.compactFixes?.unknownFields.fieldNumbers == [5],
            "the batch does not carry compact fixes with a varint column 5")
        var wrongColumn = request([])
        wrongColumn.batches = [
            LedgerBatch(.encoded(wrongTypeBatch)), LedgerBatch(.batch(batch(0xB2, fixes: [1, 2, 3], live: 4))),
        ]
        builder.ledger(
            "ledger.hold.compact-column-wire-type", rules: ["§compact-column-wire-type", "§hold-keeps"],
            "Compact fixes whose horizontal_accuracy_cm column (5) is a varint, not a FixColumn: the column cannot be rebuilt, and reading it as absent would store fixes without their accuracy: HOLD with BATCH_MALFORMED, nothing stored; the rows that follow are PROCESSED.",
            wrongColumn, acks: [held("BATCH_MALFORMED"), processed(all(1...4, "ACCEPTED"))],
            installations: [installation(stored: [[1, 4]])])

        var malformed = CompactFixes()
        malformed.count = 2
        var sequences = FixColumn()
        sequences.deltas = [1, 1, 1]
        malformed[column: 1] = sequences
        builder.ledger(
            "ledger.hold.batch-malformed", rules: ["§hold-keeps"],
            "Compact fixes that do not rebuild (a column longer than count): the items' keys are hidden: HOLD with BATCH_MALFORMED, nothing stored.",
            request([batch(0xB1, live: 3) { $0.compactFixes = malformed }]), acks: [held("BATCH_MALFORMED")],
            installations: [])
    }

    // MARK: - Sizes

    static func sizes(_ builder: inout VectorBuilder) {
        /// A batch of exactly `size` bytes: fix 1 and padding in a private-range unknown field.
        func padded(_ batchId: UInt64, to size: Int) -> [UInt8] {
            let base = batch(batchId, live: 1).serializedBytes()
            var padding = size - base.count - 4
            while base.count + WireBytes.lengthDelimited(50_001, [UInt8](repeating: 0x61, count: padding)).count > size
            {
                padding -= 1
            }
            let bytes = base + WireBytes.lengthDelimited(50_001, [UInt8](repeating: 0x61, count: padding))
            precondition(bytes.count == size, "cannot pad a batch to \(size) bytes")
            return bytes
        }
        for (size, limit, fits) in [
            (16_384, UInt32(16_384), true), (16_385, 16_384, false), (20_000, 20_000, true), (20_001, 20_000, false),
            (20_001, 0, true),
        ] {
            var sized = request([])
            sized.batches = [LedgerBatch(.encoded(padded(0xB1, to: size)))]
            sized.maxBatchBytes = limit
            var tooLarge = ExpectedAck(outcome: "TOO_LARGE")
            tooLarge.maxBatchBytes = limit
            let limitText = limit == 0 ? "no max_batch_bytes (the default, 1 MiB)" : "max_batch_bytes \(limit)"
            builder.ledger(
                "ledger.batch-size.\(size)-bytes-limit-\(limit)", rules: ["§batch-size", "§batch-outcome"],
                fits
                    ? "A batch of \(size) bytes with \(limitText): within the limit, PROCESSED."
                    : "A batch of \(size) bytes, one over \(limitText): TOO_LARGE, stating the limit, nothing stored.",
                sized, acks: [fits ? processed([1: "ACCEPTED"]) : tooLarge],
                installations: fits ? [installation(stored: [[1, 1]])] : [])
        }
    }

    // MARK: - Policies

    static func policies(_ builder: inout VectorBuilder) {
        for (stated, why) in [
            (UInt64(0), "states no policy_version (it holds the default policy)"), (2, "states policy_version 2"),
        ] {
            var withPolicy = processed([1: "ACCEPTED"])
            withPolicy.trackingPolicyVersion = 3
            builder.ledger(
                "ledger.policy.device-behind-\(stated)", rules: ["§policy-in-acks"],
                "The server's policy is version 3 and the batch \(why): the ack carries the policy.",
                request([batch(0xB1, live: 1) { $0.policyVersion = stated }]) { $0.policyVersion = 3 },
                acks: [withPolicy], installations: [installation(stored: [[1, 1]])])
        }
    }

    // MARK: - Gaps

    static func gaps(_ builder: inout VectorBuilder) {
        builder.ledger(
            "ledger.gap.below-floor", rules: ["§gap-report", "§sequence-floor"],
            "The first batch the server sees starts at fix 5 with floor 5: 1-4 left the device without reaching the server: lost.",
            request([batch(0xB1, fixes: [5], live: 6)]), acks: [processed(all(5...6, "ACCEPTED"))],
            installations: [installation(stored: [[5, 6]], lost: [[1, 4]])])

        builder.ledger(
            "ledger.gap.pending-not-lost", rules: ["§gap-report"],
            "Backlog 1-2 and live fix 10, floor 1: 3-9 are at or above the floor, still pending on the device: not lost.",
            request([batch(0xB1, fixes: [1, 2], live: 10)]),
            acks: [processed([1: "ACCEPTED", 2: "ACCEPTED", 10: "ACCEPTED"])],
            installations: [installation(stored: [[1, 2], [10, 10]])])

        builder.ledger(
            "ledger.gap.floor-rises", rules: ["§gap-report", "§sequence-floor"],
            "Fixes 1-3 stored; then a batch with floor 6 carrying 6-7: 4 and 5 are lost (the device discarded them).",
            request([batch(0xB1, fixes: [1, 2], live: 3), batch(0xB2, fixes: [6], live: 7)]),
            acks: [processed(all(1...3, "ACCEPTED")), processed(all(6...7, "ACCEPTED"))],
            installations: [installation(stored: [[1, 3], [6, 7]], lost: [[4, 5]])])

        builder.ledger(
            "ledger.gap.rejected-not-lost", rules: ["§gap-report"],
            "Fix 2 refused, then floor 4: a refused number is answered, not lost; nothing is lost.",
            request([
                batch(0xB1, fixes: [1, 2], live: 3) { $0.fixes[1].latitudeE7 = 900_000_001 }, batch(0xB2, live: 4),
            ]),
            acks: [
                processed([1: "ACCEPTED", 2: "REJECTED:INVALID_COORDINATES", 3: "ACCEPTED"]),
                processed([4: "ACCEPTED"]),
            ],
            installations: [installation(stored: [[1, 1], [3, 4]], rejected: [[2, 2]])])

        builder.ledger(
            "ledger.gap.highest-floor", rules: ["§gap-report", "§sequence-floor"],
            "A batch with floor 8 arrives before an older one with floor 1 (out of order after a retry): the highest floor seen counts; the old batch's fixes fill part of the gap.",
            request([batch(0xB2, fixes: [8], live: 9), batch(0xB1, fixes: [1, 2], live: 3)]),
            acks: [processed(all(8...9, "ACCEPTED")), processed(all(1...3, "ACCEPTED"))],
            installations: [installation(stored: [[1, 3], [8, 9]], lost: [[4, 7]])])

        builder.ledger(
            "ledger.gap.per-installation", rules: ["§gap-report", "§install-id"],
            "Floors are per installation: the new installation's floor 1 leaves the old one's gap as it was, and the old one's floor makes no gap in the new one.",
            request([batch(0xB1, fixes: [4], live: 5), batch(0xB2, live: 1, install: 0x0BAD_CAFE)]),
            acks: [processed(all(4...5, "ACCEPTED")), processed([1: "ACCEPTED"])],
            installations: [
                installation(stored: [[4, 5]], lost: [[1, 3]]), installation(install: 0x0BAD_CAFE, stored: [[1, 1]]),
            ])

        builder.ledger(
            "ledger.gap.events", rules: ["§gap-report", "§event-key"],
            "event_sequence_floor 3 with fence events 3-4: events 1 and 2 are lost; fix numbers are untouched.",
            request([batch(0xB1, live: 1, events: [3, 4])]),
            acks: [processed([1: "ACCEPTED"], events: [3: "ACCEPTED", 4: "ACCEPTED"])],
            installations: [installation(stored: [[1, 1]], storedEvents: [[3, 4]], lostEvents: [[1, 2]])])

        builder.ledger(
            "ledger.gap.floor-without-fixes", rules: ["§gap-report", "§sequence-floor"],
            "A batch with no fixes, only a fence event, and fix_sequence_floor 3 (the device holds no fix and will number the next 3): fixes 1 and 2 are lost.",
            request([batch(0xB1, events: [1], floor: 3)]), acks: [processed(events: [1: "ACCEPTED"])],
            installations: [installation(lost: [[1, 2]], storedEvents: [[1, 1]])])
    }
}
