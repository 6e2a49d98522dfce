import LocationWire
import LocationWireConformance

/// Family (f): the device side of a session. Each vector is a script of recording, sending and acks, with what
/// proto/README.md ("Identity, idempotency and de-duplication", "Acknowledgements") says the device must keep,
/// delete, send and ignore at each step.
enum SessionFamily: VectorFamily {
    static let name = "session"
    static let description = """
        The device side of a session (FEATURE_SESSION): a SessionRequest's steps (record fixes and fence events, \
        send, acks, transport failures) and what the device must do at each: which items it keeps and deletes \
        (the outcome and item tables), which acks it ignores and with which code, what its next batch carries \
        (backlog, live fix, floors, compact or rows, boot ids, size), when it may send (in flight, retry-after, \
        back-off) and which commands it executes.
        """

    static var sections: [VectorFamilySection] {
        [
            recording, itemResults, outcomes, ignoredAcks, scope, noAck, inFlight, retryAfter, commands, batchSize,
            compactAndRevision, batchLevelItems, floors,
        ]
    }

    /// How long a script waits after a transport failure or a HOLD without retry_after_ms before it expects the
    /// device to send again: the spec leaves the back-off to the device; these vectors assume it is at most 5
    /// minutes.
    static let backOffWait: Int64 = 300_000

    /// Fixes 1 to 3 recorded and sent as batch 0xB1: backlog 1, 2 and live fix 3.
    /// Enough fixes that, as rows, they take more than twice the smallest limit, so halving and stated limits
    /// show.
    static let manyFixes = 900
    static let manyFixesSize: Int = {
        var rows = LocationBatch()
        rows.fixes = (1...manyFixes).map { SessionScript.fix($0) }
        precondition(rows.serializedSize > 2 * 16_384, "\(manyFixes) fixes take only \(rows.serializedSize) bytes")
        return rows.serializedSize
    }()

    /// ``manyFixes`` fixes and a lifecycle event sent as batch 0xB1, under a policy that lets them all into one.
    static func manyInFlight() -> SessionScript {
        var script = SessionScript(policy: SessionScript.policy { $0.maxBatchSize = 1000 })
        script.fixes(1...manyFixes)
        script.lifecycle()
        script.send(0xB1, sent(live: UInt64(manyFixes), form: "rows", floor: 1) { $0.lifecycleEvents = 1 })
        return script
    }

    static func threeInFlight(policy: TrackingPolicy? = nil) -> SessionScript {
        var script = SessionScript(policy: policy)
        script.fixes(1...3)
        script.send(0xB1, sent(backlog: [1, 2], live: 3, floor: 1))
        return script
    }

    /// Fence events 1 and 2 and fix 1 sent as batch 0xB1.
    static func eventsInFlight() -> SessionScript {
        var script = SessionScript()
        script.fixes(1...1)
        script.events(1...2)
        script.send(0xB1, sent(backlog: [], live: 1, events: [1, 2], eventFloor: 1))
        return script
    }

    // MARK: - Recording and the first batch

    static func recording(_ builder: inout VectorBuilder) {
        var script = SessionScript()
        script.fixes(1...5)
        script.held([1, 2, 3, 4, 5])
        script.expect { $0.fixSequenceFloor = 1 }
        builder.session(
            "session.record.fix-sequences", rules: ["§sequence-consecutive", "§sequence-floor"],
            "Five fixes recorded get sequences 1 to 5, whatever their own sequence field says; the floor is the lowest held, 1.",
            script)

        script = SessionScript()
        script.events(1...3)
        script.expect { $0.eventSequenceFloor = 1 }
        script.fixes(1...1)
        builder.session(
            "session.record.event-sequences", rules: ["§event-key", "§sequence-consecutive"],
            "Fence events have their own counter: events 1 to 3, then the first fix is still sequence 1.", script)

        script = SessionScript()
        script.send(0xB1, nil)
        builder.session(
            "session.send.nothing-recorded", rules: ["§in-flight"],
            "A device holding nothing sends nothing.", script)

        script = SessionScript()
        script.fixes(1...1)
        script.send(0xB1, sent(backlog: [], live: 1, floor: 1) { $0.protocolRevision = 1 })
        builder.session(
            "session.send.single-fix-is-live", rules: ["§install-id", "§batch-id", "§revision"],
            "One fix goes out as the live fix with no backlog; the batch states the installation's install_id, the step's batch_id and protocol_revision 1.",
            script)

        script = SessionScript()
        script.fixes(1...4)
        script.send(0xB1, sent(backlog: [1, 2, 3], live: 4, floor: 1))
        builder.session(
            "session.send.backlog-and-live", rules: ["§sequence-floor"],
            "Four fixes: the oldest three are the backlog, oldest first, the newest is the live fix; the floor is 1.",
            script)

        script = SessionScript(installId: 0x0BAD_CAFE)
        script.fixes(1...2)
        script.send(0xB1, sent(backlog: [1], live: 2, floor: 1))
        builder.session(
            "session.send.other-install-id", rules: ["§install-id", "§fix-key"],
            "A reinstalled app (another install_id) numbers its fixes from 1 again and states its own install_id.",
            script)

        script = SessionScript()
        script.fixes(1...2, bootId: SessionScript.bootA)
        script.fixes(3...4, bootId: SessionScript.bootB)
        script.send(
            0xB1, bootId: SessionScript.bootB,
            sent(backlog: [1, 2, 3], live: 4) {
                $0.fixBootIds = [SessionScript.bootA, SessionScript.bootA, 0, 0]
            })
        builder.session(
            "session.send.item-boot-ids", rules: ["§item-boot"],
            "Fixes 1 and 2 from an earlier boot keep their boot_id; fixes 3 and 4 from the batch's boot have it left out (0).",
            script)

        script = SessionScript()
        script.fixes(1...2, bootId: SessionScript.bootA)
        script.send(0xB1, bootId: SessionScript.bootA, sent(backlog: [1], live: 2) { $0.fixBootIds = [0, 0] })
        builder.session(
            "session.send.item-boot-ids-same-boot", rules: ["§item-boot"],
            "Every fix from the batch's own boot: every item boot_id is left out.", script)
    }

    // MARK: - The item table

    /// Item results, for fixes and for fence events: the result, whether it deletes, and a name.
    static var itemCases: [(name: String, range: (UInt64, UInt64) -> AckRange, deletes: Bool, why: String)] {
        [
            ("accepted", { range($0, $1, .accepted) }, true, "ACCEPTED: stored, so deleted"),
            ("duplicate", { range($0, $1, .duplicate) }, true, "DUPLICATE: stored earlier, so deleted"),
            (
                "rejected-invalid", { range($0, $1, .rejected, .invalid) }, true,
                "REJECTED with INVALID: refused for good, deleted"
            ),
            (
                "rejected-invalid-coordinates", { range($0, $1, .rejected, .invalidCoordinates) }, true,
                "REJECTED with INVALID_COORDINATES: refused for good, deleted"
            ),
            (
                "rejected-timestamp-out-of-range", { range($0, $1, .rejected, .timestampOutOfRange) }, true,
                "REJECTED with TIMESTAMP_OUT_OF_RANGE: refused for good, deleted"
            ),
            (
                "rejected-too-old", { range($0, $1, .rejected, .tooOld) }, true,
                "REJECTED with TOO_OLD: refused for good, deleted"
            ),
            (
                "rejected-mock-location", { range($0, $1, .rejected, .mockLocation) }, true,
                "REJECTED with MOCK_LOCATION: refused for good, deleted"
            ),
            (
                "rejected-unknown-reason", { range($0, $1, .rejected, RejectReason(rawValue: 42)) }, true,
                "REJECTED with reason 42, which this revision does not name: still a rejection with a reason, deleted"
            ),
            (
                "rejected-retired-5", { range($0, $1, .rejected, RejectReason(rawValue: 5)) }, false,
                "REJECTED with reason 5, revision 0's DEVICE_UNKNOWN, a passing condition: kept"
            ),
            (
                "rejected-retired-6", { range($0, $1, .rejected, RejectReason(rawValue: 6)) }, false,
                "REJECTED with reason 6, revision 0's QUOTA_EXCEEDED, a passing condition: kept"
            ),
            ("retry-later", { range($0, $1, .retryLater) }, false, "RETRY_LATER: kept"),
            (
                "unknown-result", { range($0, $1, AckResult(rawValue: 9)) }, false,
                "result 9, which the device does not know (enums are open): kept"
            ),
        ]
    }

    /// After a PROCESSED ack that deleted nothing (a failure, `§back-off`): a send at once sends nothing, and batch
    /// `batchId` goes out once the first back-off, 1 s, has passed.
    static func keptEverything(_ script: inout SessionScript, then batchId: UInt64, _ batch: ExpectedBatch) {
        script.send(batchId &+ 0x100, nil)
        script.now += 1000
        script.send(batchId, batch)
    }

    static func itemResults(_ builder: inout VectorBuilder) {
        for item in itemCases {
            var script = threeInFlight()
            script.ack(ack(0xB1, fixes: [item.range(1, 3)]))
            script.held(item.deletes ? [] : [1, 2, 3])
            if !item.deletes {
                keptEverything(&script, then: 0xB2, sent(backlog: [1, 2], live: 3, floor: 1))
            } else {
                script.expect { $0.fixSequenceFloor = 4 }
            }
            let itemRules =
                item.name == "rejected-unknown-reason" ? ["§ack-table", "§reject-reason-unknown"] : ["§ack-table"]
            builder.session(
                "session.ack-table.fix.\(item.name)",
                rules: item.deletes ? itemRules : itemRules + ["§back-off"],
                "One range over fixes 1 to 3 of the batch: \(item.why)\(item.deletes ? "; the floor moves to 4." : ", and sent again in the next batch, after the back-off: an ack that deletes nothing is a failure.")",
                script)

            script = eventsInFlight()
            script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)], events: [item.range(1, 2)]))
            script.held([], events: item.deletes ? [] : [1, 2])
            if !item.deletes {
                script.send(0xB2, sent(backlog: [], live: 0, events: [1, 2], eventFloor: 1))
            } else {
                script.expect { $0.eventSequenceFloor = 3 }
            }
            builder.session(
                "session.ack-table.event.\(item.name)", rules: ["§ack-table", "§event-key"],
                "Fence events 1 and 2 in one range: \(item.why); the table applies to fence events as to fixes.",
                script)
        }

        var script = threeInFlight()
        script.ack(ack(0xB1))
        script.held([1, 2, 3])
        keptEverything(&script, then: 0xB2, sent(backlog: [1, 2], live: 3, floor: 1))
        builder.session(
            "session.ack-table.fix.uncovered", rules: ["§ack-table", "§back-off"],
            "PROCESSED with no ranges at all: no item is covered, so every fix is kept and sent again, after the back-off.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, fixes: [range(1, 1, .accepted), range(3, 3, .accepted)]))
        script.held([2])
        builder.session(
            "session.ack-table.fix.partly-covered", rules: ["§ack-table"],
            "Ranges cover fixes 1 and 3 but not 2: fix 2, not covered, is kept.", script)

        script = SessionScript()
        script.fixes(1...6)
        script.send(0xB1, sent(backlog: [1, 2, 3, 4, 5], live: 6))
        script.ack(
            ack(
                0xB1,
                fixes: [
                    range(1, 1, .accepted), range(2, 2, .duplicate), range(3, 3, .rejected, .invalidCoordinates),
                    range(4, 4, .retryLater), range(5, 5, .rejected, RejectReason(rawValue: 6)),
                    range(6, 6, .accepted),
                ]))
        script.held([4, 5])
        script.expect { $0.fixSequenceFloor = 4 }
        script.send(0xB2, sent(backlog: [4], live: 5, floor: 4))
        builder.session(
            "session.ack-table.fix.mixed", rules: ["§ack-table", "§sequence-floor"],
            "One result per fix in one ack: 1 accepted, 2 duplicate, 3 rejected (deleted: one bad fix never blocks the queue), 4 retry-later and 5 rejected with retired reason 6 (kept), live fix 6 accepted. The floor becomes 4 and the next batch carries 4 and 5.",
            script)

        script = SessionScript()
        script.fixes(1...3)
        script.send(0xB1, sent(backlog: [1, 2], live: 3))
        script.ack(ack(0xB1, fixes: [range(1, 2, .accepted), range(3, 3, .retryLater)]))
        script.held([3])
        script.send(0xB2, sent(backlog: [], live: 3, floor: 3))
        builder.session(
            "session.ack-table.live-fix-kept", rules: ["§ack-table"],
            "The live fix is acknowledged like any fix: RETRY_LATER keeps it, and it goes out again.", script)
    }

    // MARK: - Batch outcomes

    static let holdReasons: [(HoldReason, String)] = [
        (.serverBusy, "server-busy"), (.deviceUnknown, "device-unknown"), (.quotaExceeded, "quota-exceeded"),
        (.unknownCompactColumn, "unknown-compact-column"), (.unknownDatum, "unknown-datum"),
        (.unsupportedRevision, "unsupported-revision"), (.batchMalformed, "batch-malformed"),
        (HoldReason(rawValue: 42), "unknown-reason"),
    ]

    static func outcomes(_ builder: inout VectorBuilder) {
        for (reason, name) in holdReasons {
            var script = SessionScript()
            script.fixes(1...3)
            script.events(1...1)
            script.lifecycle()
            script.send(0xB1, sent(backlog: [1, 2], live: 3, events: [1]) { $0.lifecycleEvents = 1 })
            script.ack(hold(0xB1, reason) { $0.retryAfterMs = 1000 })
            script.held([1, 2, 3], events: [1])
            script.expect { $0.heldLifecycleEvents = 1 }
            script.now += 1000
            script.send(0xB2, sent(backlog: [1, 2], live: 3, events: [1]) { $0.lifecycleEvents = 1 })
            builder.session(
                "session.outcome.hold.\(name)", rules: ["§batch-outcome", "§hold-keeps"],
                "HOLD with \(reason.name ?? "hold reason \(reason.rawValue)"): nothing was stored, so the device keeps every fix, fence event and lifecycle event and sends them all again once retry_after_ms has passed.",
                script)
        }

        var script = SessionScript()
        script.fixes(1...3)
        script.send(0xB1, sent(backlog: [1, 2], live: 3))
        script.ack(hold(0xB1, .serverBusy))
        script.held([1, 2, 3])
        script.send(0xB2, nil)
        script.now += SessionFamily.backOffWait
        script.send(0xB3, sent(backlog: [1, 2], live: 3))
        builder.session(
            "session.outcome.hold.own-back-off", rules: ["§batch-outcome", "§retry-after", "§back-off"],
            "HOLD without retry_after_ms: the device waits its own back-off, so a try at once sends nothing; 5 minutes later (the most these vectors assume a back-off takes) it sends everything again.",
            script)

        // A stated limit taken as it is: session.batch-size.max-bytes.
        script = manyInFlight()
        script.ack(ack(0xB1, .tooLarge) { $0.maxBatchBytes = 1000 })
        script.expect { $0.heldLifecycleEvents = 1 }
        script.send(
            0xB2,
            sent(floor: 1) {
                $0.maxBytes = 16_384
                $0.lifecycleEvents = 1
            })
        builder.session(
            "session.outcome.too-large.limit-below-minimum", rules: ["§batch-outcome", "§batch-size", "§http-shrink"],
            "TOO_LARGE with max_batch_bytes 1000 for a batch of \(manyFixes) fixes (about \(manyFixesSize / 1000) kB): nothing stored, everything kept, and the device sends again at once (no back-off); a limit below 16384 counts as 16384, which the next keeps within.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, .tooLarge) { $0.maxBatchBytes = 20_000 })
        script.held([1, 2, 3])
        script.send(0xB2, sent(backlog: [], live: 1, floor: 1))
        builder.session(
            "session.outcome.too-large.limit-not-below-sent", rules: ["§batch-outcome", "§batch-size", "§http-shrink"],
            "TOO_LARGE with max_batch_bytes 20000 for a batch of three fixes, far smaller: a limit not below the size just sent contradicts the refusal and is read as absent, so the device halves on until the oldest fix cannot go with anything beside it, and sends it alone.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, .tooLarge))
        script.held([1, 2, 3])
        script.send(0xB2, sent(backlog: [], live: 1, floor: 1))
        script.ack(ack(0xB2, .tooLarge))
        script.held([2, 3])
        script.send(0xB3, sent(backlog: [], live: 2, floor: 2))
        builder.session(
            "session.outcome.too-large.small-batch", rules: ["§batch-outcome", "§batch-size", "§http-shrink"],
            "TOO_LARGE without max_batch_bytes after a batch of three fixes, far within 16384 bytes: the refusal is the batch's own, so the device halves on, under 16384, until the oldest fix cannot go with anything beside it, and sends it alone at once; refused again, that fix is discarded, a loss the next batch's floor shows.",
            script)

        script = SessionScript()
        script.fixes(1...1)
        script.send(0xB1, sent(live: 1, floor: 1))
        script.ack(ack(0xB1, .tooLarge))
        script.held([])
        script.fixes(2...2)
        script.send(0xB2, sent(live: 2, floor: 2))
        builder.session(
            "session.outcome.too-large.single-fix-discarded",
            rules: ["§batch-outcome", "§batch-size", "§http-shrink", "§sequence-floor"],
            "TOO_LARGE for a batch of one fix: it cannot become smaller, so the device discards it, a loss the next batch's floor shows (2), rather than send it forever.",
            script)

        script = SessionScript()
        script.fixes(1...3)
        script.lifecycle()
        script.send(0xB1, sent(backlog: [1, 2], live: 3) { $0.lifecycleEvents = 1 })
        script.ack(ack(0xB1))
        script.held([1, 2, 3])
        script.expect { $0.heldLifecycleEvents = 0 }
        script.send(0xB2, sent(backlog: [1, 2], live: 3) { $0.lifecycleEvents = 0 })
        builder.session(
            "session.outcome.processed.lifecycle-stored", rules: ["§batch-outcome"],
            "PROCESSED without ranges: the fixes are not covered and stay, but the batch's lifecycle events are stored and deleted.",
            script)
    }

    // MARK: - Acks the device ignores

    static func ignoredAcks(_ builder: inout VectorBuilder) {
        let valid = ack(0xB1, fixes: [range(1, 3, .accepted)])
        let cases: [(String, String, SessionStep.Action, String)] = [
            ("undecodable", "ack-undecodable", .ackBytes([0xFF]), "a lone 0xFF byte is no BatchAck encoding"),
            (
                "undecodable-truncated", "ack-undecodable", .ackBytes(Array(valid.serializedBytes().dropLast())),
                "the valid ack's bytes with the last byte cut off"
            ),
            (
                "unknown-batch", "ack-unknown-batch", .ack(ack(0xB9, fixes: [range(1, 3, .accepted)])),
                "batch 0xB9 was never sent"
            ),
            (
                "outcome-missing", "ack-outcome-missing",
                .ack(ack(0xB1, .unspecified, fixes: [range(1, 3, .accepted)])), "no outcome"
            ),
            (
                "outcome-unknown", "ack-outcome-unknown",
                .ack(ack(0xB1, BatchOutcome(rawValue: 9), fixes: [range(1, 3, .accepted)])),
                "outcome 9, which this revision does not know"
            ),
            (
                "range-inverted", "range-inverted", .ack(ack(0xB1, fixes: [range(3, 1, .accepted)])),
                "a range from 3 to 1"
            ),
            (
                "range-first-zero", "range-inverted", .ack(ack(0xB1, fixes: [range(0, 3, .accepted)])),
                "a range starting at sequence 0, which no item has"
            ),
            (
                "range-inverted-events", "range-inverted",
                .ack(ack(0xB1, fixes: [range(1, 3, .accepted)], events: [range(2, 1, .accepted)])),
                "an inverted range in fence_event_results, the fix ranges being fine"
            ),
            (
                "ranges-not-sorted", "ranges-not-sorted",
                .ack(ack(0xB1, fixes: [range(3, 3, .accepted), range(1, 2, .accepted)])), "ranges 3-3 then 1-2"
            ),
            (
                "ranges-not-sorted-events", "ranges-not-sorted",
                .ack(
                    ack(
                        0xB1, fixes: [range(1, 3, .accepted)], events: [range(5, 5, .accepted), range(4, 4, .accepted)])
                ),
                "fence event ranges 5-5 then 4-4"
            ),
            (
                "ranges-overlap", "ranges-overlap",
                .ack(ack(0xB1, fixes: [range(1, 2, .accepted), range(2, 3, .rejected, .invalid)])),
                "ranges 1-2 and 2-3 share fix 2 (with different results)"
            ),
            (
                "ranges-overlap-same-result", "ranges-overlap",
                .ack(ack(0xB1, fixes: [range(1, 3, .accepted), range(2, 2, .accepted)])),
                "range 2-2 inside 1-3, even with the same result"
            ),
            (
                "ranges-overlap-events", "ranges-overlap",
                .ack(
                    ack(
                        0xB1, fixes: [range(1, 3, .accepted)], events: [range(1, 4, .accepted), range(3, 5, .accepted)])
                ),
                "fence event ranges 1-4 and 3-5"
            ),
            (
                "ranges-with-hold", "ranges-without-processing",
                .ack(
                    ack(0xB1, .hold, fixes: [range(1, 3, .accepted)]) { $0.holdReason = .serverBusy }),
                "HOLD with a fix range"
            ),
            (
                "ranges-with-too-large", "ranges-without-processing",
                .ack(ack(0xB1, .tooLarge, events: [range(1, 1, .accepted)])), "TOO_LARGE with a fence event range"
            ),
            (
                "reject-reason-missing", "reject-reason-missing",
                .ack(ack(0xB1, fixes: [range(1, 2, .accepted), range(3, 3, .rejected)])),
                "fix 3 REJECTED without a reason"
            ),
            (
                "reject-reason-missing-events", "reject-reason-missing",
                .ack(ack(0xB1, fixes: [range(1, 3, .accepted)], events: [range(1, 1, .rejected)])),
                "a fence event REJECTED without a reason"
            ),
        ]
        for (name, code, action, what) in cases {
            var script = threeInFlight()
            script.request.steps.append(SessionStep(action, nowMs: script.now))
            script.expect { $0.ack = code }
            script.held([1, 2, 3])
            script.ack(valid)
            script.held([])
            builder.session(
                "session.ignore.\(name)",
                rules: code.hasPrefix("ranges-") && code != "ranges-without-processing"
                    ? ["§ack-ignore", "§ranges-sorted"] : ["§ack-ignore"],
                "An ack with \(what) is ignored as \(code): every fix is kept; the batch stays in flight, so its valid ack, arriving next, still applies and deletes fixes 1 to 3.",
                script)
        }

        var script = threeInFlight()
        script.ack(valid)
        script.held([])
        script.ack(valid, "ack-unknown-batch")
        builder.session(
            "session.ignore.answered-twice", rules: ["§ack-ignore"],
            "The same ack twice: the second names a batch already answered, which the device no longer has a record of: ack-unknown-batch.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, .unspecified) { $0.retryAfterMs = 600_000 }, "ack-outcome-missing")
        script.ack(ack(0xB1, fixes: [range(1, 3, .retryLater)]))
        script.now += 2000
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        builder.session(
            "session.ignore.no-retry-after", rules: ["§ack-ignore", "§retry-after", "§back-off"],
            "An ignored ack's retry_after_ms (10 minutes) is not taken: the ignored ack and the valid one that deletes nothing are two failures, and the device sends again after its own back-off, 2 s.",
            script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, .unspecified) { $0.commands = [command(7, .uploadNow)] }, "ack-outcome-missing")
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]) { $0.commands = [command(7, .uploadNow)] })
        script.expect { $0.executedCommandIds = [7] }
        builder.session(
            "session.ignore.no-command", rules: ["§ack-ignore", "§commands"],
            "A command in an ignored ack is not executed; the same command id in the valid ack then is, once.", script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, BatchOutcome(rawValue: 9)) { $0.trackingPolicy = SessionScript.policy { $0.maxBatchSize = 1 } },
            "ack-outcome-unknown")
        script.ack(ack(0xB1, fixes: [range(1, 3, .retryLater)]))
        script.now += 2000
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        builder.session(
            "session.ignore.no-policy", rules: ["§ack-ignore"],
            "A policy in an ignored ack (max_batch_size 1) is not taken: the next batch still carries all three fixes.",
            script)
    }

    static func command(_ id: UInt64, _ kind: DeviceCommandKind, expiresAtMs: Int64 = 0) -> DeviceCommand {
        var command = DeviceCommand()
        command.commandId = id
        command.kind = kind
        command.expiresAtMs = expiresAtMs
        return command
    }

    // MARK: - Scope

    static func scope(_ builder: inout VectorBuilder) {
        let twoInFlight = SessionScript.policy { $0.maxBatchesInFlight = 2 }
        var script = threeInFlight(policy: twoInFlight)
        script.fixes(4...6)
        script.send(0xB2, sent(backlog: [4, 5], live: 6, floor: 1))
        script.ack(ack(0xB1, fixes: [range(1, 6, .accepted)]))
        script.held([4, 5, 6])
        script.ack(ack(0xB2, fixes: [range(4, 6, .retryLater)]))
        script.held([4, 5, 6])
        builder.session(
            "session.scope.other-batch-in-flight", rules: ["§ack-scope", "§in-flight"],
            "Batches 0xB1 (fixes 1-3) and 0xB2 (fixes 4-6) in flight; 0xB1's ack has ACCEPTED over 1-6. It deletes only 1-3: fixes 4-6 belong to 0xB2, whose own ack then keeps them.",
            script)

        script = threeInFlight(policy: twoInFlight)
        script.fixes(4...6)
        script.send(0xB2, sent(backlog: [4, 5], live: 6))
        script.ack(ack(0xB2, fixes: [range(1, 6, .rejected, .invalid)]))
        script.held([1, 2, 3])
        builder.session(
            "session.scope.rejected-range-spans-other-batch", rules: ["§ack-scope"],
            "0xB2's ack rejects 1-6: only 0xB2's fixes 4-6 are deleted; 1-3, in flight in 0xB1, are untouched.",
            script)

        script = threeInFlight()
        script.fixes(4...5)
        script.ack(ack(0xB1, fixes: [range(1, 100, .accepted)]))
        script.held([4, 5])
        script.send(0xB2, sent(backlog: [4], live: 5, floor: 4))
        builder.session(
            "session.scope.recorded-since", rules: ["§ack-scope"],
            "Fixes 4 and 5 recorded after 0xB1 was sent; its ack accepts 1-100. They were never in 0xB1: kept, and sent next.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, fixes: [range(1, 1_000_000, .accepted)]))
        script.held([])
        builder.session(
            "session.scope.wide-range", rules: ["§ack-scope", "§ack-table"],
            "A range may span numbers the batch did not contain: 1 to 1000000 accepts fixes 1-3.", script)

        script = SessionScript(policy: twoInFlight)
        script.fixes(1...1)
        script.events(1...2)
        script.send(0xB1, sent(backlog: [], live: 1, events: [1, 2]))
        script.events(3...4)
        script.send(0xB2, sent(events: [3, 4]) { $0.liveFix = 0 })
        script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)], events: [range(1, 4, .accepted)]))
        script.held([], events: [3, 4])
        builder.session(
            "session.scope.events-other-batch", rules: ["§ack-scope", "§event-key"],
            "Fence events 1-2 in 0xB1, 3-4 in 0xB2; 0xB1's ack accepts events 1-4: only 1 and 2 are deleted.",
            script)

        script = SessionScript(policy: twoInFlight)
        script.fixes(1...2)
        script.send(0xB1, sent(backlog: [1], live: 2))
        script.fixes(3...4)
        script.send(0xB2, sent(backlog: [3], live: 4))
        script.ack(ack(0xB2, fixes: [range(3, 4, .accepted)]))
        script.held([1, 2])
        script.expect { $0.fixSequenceFloor = 1 }
        script.ack(ack(0xB1, fixes: [range(1, 2, .accepted)]))
        script.held([])
        script.expect { $0.fixSequenceFloor = 5 }
        builder.session(
            "session.scope.acks-out-of-order", rules: ["§ack-scope", "§sequence-floor"],
            "The second batch is answered first: its fixes go, the floor stays at 1 (fix 1 is still held); then the first batch's ack clears the rest and the floor is the next number, 5.",
            script)
    }

    // MARK: - No ack

    static func noAck(_ builder: inout VectorBuilder) {
        var script = threeInFlight()
        script.giveUp(0xB1)
        script.held([1, 2, 3])
        script.now += 1000
        script.send(0xB2, sent(backlog: [1, 2], live: 3, floor: 1))
        builder.session(
            "session.no-ack.resend", rules: ["§no-ack", "§back-off"],
            "The transport fails for 0xB1: every fix is kept, and they go out again in a new batch 0xB2.", script)

        script = threeInFlight()
        script.giveUp(0xB1)
        script.now += SessionFamily.backOffWait
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]))
        script.held([])
        builder.session(
            "session.no-ack.late-ack-applies", rules: ["§no-ack", "§ack-scope"],
            "After giving up on 0xB1 and resending its fixes in 0xB2, the late ack for 0xB1 still applies: fixes 1-3 are deleted.",
            script)

        script = threeInFlight()
        script.giveUp(0xB1)
        script.ack(ack(0xB1, fixes: [range(1, 2, .accepted), range(3, 3, .retryLater)]))
        script.held([3])
        builder.session(
            "session.no-ack.late-ack-before-resend", rules: ["§no-ack"],
            "A late ack for a given-up batch, before any resend, applies as any ack: fixes 1 and 2 go, 3 stays.",
            script)

        script = threeInFlight()
        script.giveUp(0xB1)
        script.now += SessionFamily.backOffWait
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        script.ack(ack(0xB2, fixes: [range(1, 3, .duplicate)]))
        script.held([])
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]))
        script.expect { $0.heldFixes = [] }
        builder.session(
            "session.no-ack.both-acks", rules: ["§no-ack", "§ack-table"],
            "0xB1 given up, its fixes resent in 0xB2 and answered DUPLICATE; 0xB1's late ack then deletes nothing more and breaks nothing.",
            script)

        script = threeInFlight()
        script.giveUp(0xB1)
        script.fixes(4...4)
        script.now += SessionFamily.backOffWait
        script.send(0xB2, sent(backlog: [1, 2, 3], live: 4))
        script.ack(ack(0xB1, fixes: [range(1, 4, .accepted)]))
        script.held([4])
        builder.session(
            "session.no-ack.late-ack-scope", rules: ["§no-ack", "§ack-scope"],
            "The late ack for given-up 0xB1 accepts 1-4, but fix 4 was only ever in 0xB2: it stays.", script)
    }

    // MARK: - In flight

    static func inFlight(_ builder: inout VectorBuilder) {
        var script = threeInFlight()
        script.fixes(4...4)
        script.send(0xB2, nil)
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]))
        script.send(0xB3, sent(backlog: [], live: 4, floor: 4))
        builder.session(
            "session.in-flight.default-one", rules: ["§in-flight"],
            "By default one batch is in flight: with 0xB1 unanswered, nothing more goes out; once it is answered, fix 4 does.",
            script)

        script = threeInFlight(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.fixes(4...5)
        script.send(0xB2, sent(backlog: [4], live: 5, floor: 1))
        script.fixes(6...6)
        script.send(0xB3, nil)
        builder.session(
            "session.in-flight.two", rules: ["§in-flight"],
            "max_batches_in_flight 2: a second batch goes out, holding only fixes not in the first; a third does not.",
            script)

        script = threeInFlight(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.send(0xB2, nil)
        builder.session(
            "session.in-flight.different-items", rules: ["§in-flight"],
            "Room for a second batch, but every item is already in flight: batches in flight hold different items, so nothing is sent.",
            script)

        script = threeInFlight()
        script.giveUp(0xB1)
        script.now += SessionFamily.backOffWait
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        builder.session(
            "session.in-flight.given-up-not-counted", rules: ["§in-flight", "§no-ack"],
            "A batch given up on is no longer in flight: a new batch may go out, with its items.", script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .retryLater)]) {
                $0.trackingPolicy = SessionScript.policy {
                    $0.policyVersion = 2
                    $0.maxBatchesInFlight = 2
                }
            })
        script.now += 1000
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        script.fixes(4...4)
        script.send(0xB3, sent(backlog: [], live: 4))
        builder.session(
            "session.in-flight.policy-from-ack", rules: ["§in-flight", "§commands"],
            "An ack's tracking_policy with a higher policy_version raises max_batches_in_flight to 2: two batches go out.",
            script)
    }

    // MARK: - Retry after

    static func retryAfter(_ builder: inout VectorBuilder) {
        for (outcome, name) in [(BatchOutcome.processed, "processed"), (.hold, "hold"), (.tooLarge, "too-large")] {
            var script = threeInFlight()
            script.fixes(4...4)
            script.ack(
                ack(0xB1, outcome, fixes: outcome == .processed ? [range(1, 3, .accepted)] : []) {
                    $0.retryAfterMs = 30_000
                    if outcome == .hold { $0.holdReason = .serverBusy }
                })
            script.now += 29_999
            script.send(0xB2, nil)
            script.now += 1
            // A TOO_LARGE for three small fixes halves on (`§http-shrink`): the next batch is fix 1 alone.
            script.send(0xB3, outcome == .tooLarge ? sent(backlog: [], live: 1) : sent(live: 4))
            builder.session(
                "session.retry-after.\(name)", rules: ["§retry-after"],
                "retry_after_ms 30000 with \(outcome.name ?? "") holds back the whole queue: nothing goes out 29.999 s later, the next batch at 30 s.",
                script)
        }
    }

    // MARK: - Commands and hints

    static func commands(_ builder: inout VectorBuilder) {
        var script = threeInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .accepted)]) {
                $0.commands = [command(7, .recordFix), command(8, .requestRegions), command(9, .uploadNow)]
            })
        script.expect { $0.executedCommandIds = [7, 8, 9] }
        builder.session(
            "session.commands.executed", rules: ["§commands"],
            "The three known kinds, unexpired and new: executed in order.", script)

        for (outcome, name) in [(BatchOutcome.hold, "hold"), (.tooLarge, "too-large")] {
            // TOO_LARGE shrinks the next batch (`§http-shrink`), so it refuses a batch large enough for a stated
            // limit that still lets two fixes through.
            script = outcome == .hold ? threeInFlight() : manyInFlight()
            let newest = outcome == .hold ? 3 : UInt64(manyFixes)
            script.ack(
                ack(0xB1, outcome) {
                    if outcome == .tooLarge { $0.maxBatchBytes = 20_000 }
                    $0.commands = [command(7, .uploadNow)]
                    $0.trackingPolicy = SessionScript.policy {
                        $0.policyVersion = 2
                        $0.maxBatchSize = 2
                    }
                })
            script.expect { $0.executedCommandIds = [7] }
            script.now += 1000
            script.send(0xB2, sent(backlog: [1], live: newest))
            builder.session(
                "session.commands.from-\(name)", rules: ["§ack-effects", "§commands"],
                "A \(name == "hold" ? "HOLD" : "TOO_LARGE") ack carries a command and a newer policy (max_batch_size 2): both are taken from any ack the device does not ignore, so the command runs and the next batch has two fixes.",
                script)
        }

        script = threeInFlight(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.fixes(4...4)
        script.send(0xB2, sent(live: 4))
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]) { $0.commands = [command(7, .uploadNow)] })
        script.expect { $0.executedCommandIds = [7] }
        script.ack(ack(0xB2, fixes: [range(4, 4, .accepted)]) { $0.commands = [command(7, .uploadNow)] })
        script.expect { $0.executedCommandIds = [] }
        builder.session(
            "session.commands.once", rules: ["§commands"],
            "Command 7 arrives in two acks: executed once.", script)

        script = threeInFlight(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.fixes(4...4)
        script.send(0xB2, sent(live: 4))
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .accepted)]) {
                $0.commands = (1...65).map { command($0, .uploadNow) }
            })
        script.expect { $0.executedCommandIds = (1...65).map { $0 } }
        script.ack(ack(0xB2, fixes: [range(4, 4, .accepted)]) { $0.commands = [command(1, .uploadNow)] })
        script.expect { $0.executedCommandIds = [] }
        builder.session(
            "session.commands.once-after-many", rules: ["§commands"],
            "65 commands executed, then command 1 again in the next ack: a device executes each command_id at most once, however many came in between.",
            script)

        script = threeInFlight(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.fixes(4...4)
        script.send(0xB2, sent(live: 4))
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .accepted)]) {
                $0.commands = [command(9, .uploadNow), command(7, .recordFix)]
            })
        script.expect { $0.executedCommandIds = [7, 9] }
        script.ack(ack(0xB2, fixes: [range(4, 4, .accepted)]) { $0.commands = [command(8, .requestRegions)] })
        script.expect { $0.executedCommandIds = [] }
        builder.session(
            "session.commands.ascending", rules: ["§commands"],
            "Commands 9 and 7 in one ack run in ascending id order; command 8 in a later ack is below the highest executed (9), so it is not run: ids only grow.",
            script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .accepted)]) {
                $0.commands = [
                    command(7, .recordFix, expiresAtMs: SessionScript.start - 1),
                    command(8, .recordFix, expiresAtMs: SessionScript.start),
                ]
            })
        script.expect { $0.executedCommandIds = [8] }
        builder.session(
            "session.commands.expired", rules: ["§commands"],
            "Command 7 expired a millisecond before the ack arrived: ignored; command 8 expires at that very time: executed.",
            script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .accepted)]) {
                $0.commands = [
                    command(7, DeviceCommandKind(rawValue: 99)), command(8, .unspecified), command(9, .uploadNow),
                ]
            })
        script.expect { $0.executedCommandIds = [9] }
        builder.session(
            "session.commands.unknown-kind", rules: ["§commands"],
            "Kind 99, which the device does not know, and UNSPECIFIED are ignored; the known command 9 is executed.",
            script)

        script = threeInFlight()
        script.ack(hold(0xB1, .serverBusy) { $0.commands = [command(7, .uploadNow)] })
        script.expect { $0.executedCommandIds = [7] }
        builder.session(
            "session.commands.with-hold", rules: ["§commands", "§batch-outcome"],
            "A HOLD is a trusted ack: its commands are executed.", script)

        for (latest, asks, name, why) in [
            (UInt64(6), true, "assignment-hint", "6 above the armed assignment 5: the device requests regions"),
            (5, false, "assignment-current", "5, the version armed: no region request"),
        ] {
            script = SessionScript()
            script.armed(version: 5)
            script.fixes(1...1)
            script.send(0xB1, sent(live: 1) { $0.armedRegions = true })
            script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)]) { $0.latestAssignmentVersion = latest })
            script.expect { $0.requestRegions = asks }
            builder.session(
                "session.commands.\(name)", rules: ["§commands"], "latest_assignment_version \(why).", script)
        }

        script = threeInFlight(policy: SessionScript.policy { $0.policyVersion = 3 })
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .retryLater)]) {
                $0.trackingPolicy = SessionScript.policy {
                    $0.policyVersion = 2
                    $0.maxBatchSize = 1
                }
            })
        script.now += 1000
        script.send(0xB2, sent(backlog: [1, 2], live: 3))
        builder.session(
            "session.commands.stale-policy", rules: ["§commands"],
            "A tracking_policy whose policy_version (2) is not above the device's (3) is not taken: max_batch_size 1 does not apply.",
            script)

        script = threeInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 3, .retryLater)]) {
                $0.trackingPolicy = SessionScript.policy {
                    $0.policyVersion = 2
                    $0.maxBatchSize = 2
                }
            })
        script.now += 1000
        script.send(0xB2, sent(backlog: [1], live: 3))
        builder.session(
            "session.commands.newer-policy", rules: ["§commands", "§batch-size"],
            "A newer tracking_policy with max_batch_size 2 replaces the device's: the next batch has two fixes, the oldest as backlog and the newest as live fix.",
            script)
    }

    // MARK: - Batch size

    static func batchSize(_ builder: inout VectorBuilder) {
        var script = SessionScript(policy: SessionScript.policy { $0.maxBatchSize = 3 })
        script.fixes(1...5)
        script.send(0xB1, sent(backlog: [1, 2], live: 5, floor: 1))
        script.ack(ack(0xB1, fixes: [range(1, 2, .accepted), range(5, 5, .accepted)]))
        script.held([3, 4])
        script.send(0xB2, sent(backlog: [3], live: 4, floor: 3))
        builder.session(
            "session.batch-size.max-fixes", rules: ["§batch-size", "§batch-composition"],
            "max_batch_size 3 with five fixes: the oldest go first (1, 2) with the newest as live fix; the rest follow, oldest first.",
            script)

        let many = manyFixes
        let size = manyFixesSize
        script = SessionScript(
            policy: SessionScript.policy {
                $0.maxBatchBytes = 20_000
                $0.maxBatchSize = 1000
            })
        script.fixes(1...many)
        script.send(0xB1, sent(floor: 1) { $0.maxBytes = 20_000 })
        script.ack(ack(0xB1, .tooLarge) { $0.maxBatchBytes = 16_384 })
        script.send(0xB2, sent(floor: 1) { $0.maxBytes = 16_384 })
        builder.session(
            "session.batch-size.max-bytes", rules: ["§batch-size", "§batch-outcome"],
            "\(many) fixes that take about \(size / 1000) kB together: with the policy's max_batch_bytes 20000 the batch keeps within 20000 bytes; answered TOO_LARGE with max_batch_bytes 16384 (a server's limit may be lower than its policy said), the next keeps within 16384.",
            script)

        script = manyInFlight()
        let manyBatch = script.lastSendStep
        script.ack(ack(0xB1, .tooLarge))
        script.send(0xB2, sent(floor: 1) { $0.shrunkAfterStep = manyBatch })
        builder.session(
            "session.batch-size.too-large-halves", rules: ["§batch-size", "§batch-outcome", "§http-shrink"],
            "TOO_LARGE without max_batch_bytes after a batch of about \(size / 1000) kB: the next one is built within half the size just sent.",
            script)
    }

    // MARK: - Compact and revision

    static func compactAndRevision(_ builder: inout VectorBuilder) {
        let compact = SessionScript.policy { $0.compactFixesAccepted = true }
        var script = SessionScript(policy: compact)
        script.fixes(1...4)
        script.send(0xB1, sent(backlog: [1, 2, 3], live: 4, form: "rows"))
        builder.session(
            "session.revision.rows-until-server-revision", rules: ["§revision", "§no-silent-drop"],
            "The policy accepts compact fixes, but no ack has stated the server's revision yet: the backlog goes as rows.",
            script)

        script = SessionScript(policy: compact)
        script.fixes(1...3)
        script.send(0xB1, sent(backlog: [1, 2], live: 3, form: "rows"))
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]))
        script.fixes(4...7)
        script.send(0xB2, sent(backlog: [4, 5, 6], live: 7, form: "compact", floor: 4))
        builder.session(
            "session.revision.compact-after-revision-1", rules: ["§revision"],
            "Once an ack states protocol_revision 1 and the policy accepts compact fixes, the backlog goes compact (and rebuilds to fixes 4-6).",
            script)

        for (reason, name) in [
            (HoldReason.unknownCompactColumn, "unknown-compact-column"), (.batchMalformed, "batch-malformed"),
        ] {
            script = SessionScript(policy: compact)
            script.fixes(1...1)
            script.send(0xB1, sent(live: 1))
            script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)]))
            script.fixes(2...5)
            script.send(0xB2, sent(backlog: [2, 3, 4], live: 5, form: "compact"))
            script.ack(hold(0xB2, reason) { $0.retryAfterMs = 1000 })
            script.held([2, 3, 4, 5])
            script.now += 1000
            script.send(0xB3, sent(backlog: [2, 3, 4], live: 5, form: "rows"))
            builder.session(
                "session.no-silent-drop.rows-after-\(name)", rules: ["§no-silent-drop", "§hold-keeps"],
                "A compact batch held with \(reason.name ?? ""): the device keeps the fixes and sends its backlog as rows from then on.",
                script)
        }
    }

    // MARK: - Lifecycle events, device status, armed regions

    static func batchLevelItems(_ builder: inout VectorBuilder) {
        var script = SessionScript()
        script.status()
        script.send(0xB1, sent(backlog: [], live: 0) { $0.deviceStatus = true })
        script.ack(ack(0xB1))
        script.send(0xB2, nil)
        builder.session(
            "session.batch-items.status-alone", rules: ["§batch-outcome"],
            "A device status alone is worth a batch; once PROCESSED, it is stored and nothing is left to send.", script)

        script = SessionScript()
        script.status()
        script.fixes(1...1)
        script.send(0xB1, sent(live: 1) { $0.deviceStatus = true })
        script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)]))
        script.fixes(2...2)
        script.send(0xB2, sent(live: 2) { $0.deviceStatus = false })
        builder.session(
            "session.batch-items.status-reported", rules: ["§batch-outcome"],
            "After PROCESSED the device status is stored: the next batch leaves it out until it changes.", script)

        script = SessionScript()
        script.status()
        script.fixes(1...1)
        script.send(0xB1, sent(live: 1) { $0.deviceStatus = true })
        script.ack(ack(0xB1, fixes: [range(1, 1, .accepted)]))
        script.status(appVersion: "2.5.0")
        script.fixes(2...2)
        script.send(0xB2, sent(live: 2) { $0.deviceStatus = true })
        builder.session(
            "session.batch-items.status-changed", rules: ["§batch-outcome"],
            "A changed device status is sent again.", script)

        for (outcome, name) in [(BatchOutcome.hold, "hold"), (.tooLarge, "too-large")] {
            // TOO_LARGE shrinks the next batch (`§http-shrink`): it refuses a batch large enough for a stated limit
            // that still lets everything else through.
            script =
                outcome == .hold
                ? SessionScript() : SessionScript(policy: SessionScript.policy { $0.maxBatchSize = 1000 })
            script.status()
            script.armed(version: 3)
            script.lifecycle()
            let newest = outcome == .hold ? 1 : manyFixes
            script.fixes(1...newest)
            let everything = sent(live: UInt64(newest)) {
                $0.deviceStatus = true
                $0.armedRegions = true
                $0.lifecycleEvents = 1
            }
            script.send(0xB1, everything)
            script.ack(
                ack(0xB1, outcome) {
                    if outcome == .hold {
                        $0.holdReason = .serverBusy
                        $0.retryAfterMs = 1
                    } else {
                        $0.maxBatchBytes = 20_000
                    }
                })
            script.expect { $0.heldLifecycleEvents = 1 }
            script.now += 1
            // Which items fill the 20000 bytes is the device's choice (`§batch-composition`).
            script.send(0xB2, outcome == .hold ? everything : sent(floor: 1) { $0.maxBytes = 20_000 })
            builder.session(
                "session.batch-items.kept-on-\(name)", rules: ["§batch-outcome", "§hold-keeps"],
                outcome == .hold
                    ? "HOLD: nothing stored, so the device status, armed regions and lifecycle event go out again with the fix."
                    : "TOO_LARGE: nothing stored, so the lifecycle event is still held, and the next batch keeps within the 20000 bytes stated.",
                script)
        }

        script = SessionScript()
        script.status()
        script.armed(version: 3)
        script.lifecycle()
        script.fixes(1...1)
        script.send(
            0xB1,
            sent(live: 1) {
                $0.deviceStatus = true
                $0.armedRegions = true
                $0.lifecycleEvents = 1
            })
        script.ack(ack(0xB1, .tooLarge))
        script.send(
            0xB2,
            sent(backlog: [], live: 1, events: [], floor: 1) {
                $0.deviceStatus = false
                $0.armedRegions = false
                $0.lifecycleEvents = 0
            })
        script.ack(ack(0xB2, .tooLarge))
        script.held([])
        script.expect { $0.heldLifecycleEvents = 1 }
        script.fixes(2...2)
        script.send(
            0xB3,
            sent(backlog: [], live: 2, floor: 2) {
                $0.deviceStatus = false
                $0.lifecycleEvents = 0
            })
        builder.session(
            "session.batch-items.fix-alone-after-too-large", rules: ["§http-shrink-alone", "§batch-size"],
            "A small batch (a fix, a lifecycle event, the device status and armed regions) refused as too large: the oldest fix does not fit half its size with anything beside it, so it goes alone, without the state reports or the lifecycle event (which alone would fit); refused again, that fix is discarded, and the next fix goes alone too, its floor showing the loss.",
            script)

        script = SessionScript()
        script.events(1...2)
        script.lifecycle()
        script.send(0xB1, sent(events: [1, 2], eventFloor: 1) { $0.lifecycleEvents = 1 })
        script.ack(ack(0xB1, .tooLarge))
        script.send(0xB2, sent(live: 0, events: [1], eventFloor: 1) { $0.lifecycleEvents = 0 })
        script.ack(ack(0xB2, .tooLarge))
        script.held([], events: [2])
        script.send(0xB3, sent(live: 0, events: [2], eventFloor: 2) { $0.lifecycleEvents = 0 })
        builder.session(
            "session.batch-items.event-alone-after-too-large", rules: ["§http-shrink-alone", "§batch-size"],
            "Without fixes, the oldest fence event goes alone after a small batch is refused as too large (it does not fit half its size with anything beside it, though the lifecycle event alone would); refused again, it is discarded and the event floor shows it.",
            script)

        script = SessionScript()
        script.status()
        script.send(0xB1, sent(live: 0) { $0.deviceStatus = true })
        script.ack(ack(0xB1, .tooLarge))
        script.send(0xB2, nil)
        script.status(appVersion: "2.5.0")
        script.send(0xB3, sent(live: 0) { $0.deviceStatus = true })
        builder.session(
            "session.batch-items.state-alone-refused", rules: ["§http-shrink-alone"],
            "A batch of the device status alone refused as too large: the status is dropped, so nothing goes out, until it changes.",
            script)

        script = SessionScript(
            policy: SessionScript.policy {
                $0.maxBatchSize = 1000
                $0.maxBatchBytes = 1000
            })
        script.fixes(1...100)
        script.send(0xB1, sent(backlog: Array(1...99), live: 100, floor: 1))
        builder.session(
            "session.batch-size.policy-below-minimum", rules: ["§batch-size"],
            "A policy's max_batch_bytes of 1000, below the 16384 a server may set: the device reads it as 16384, so 100 fixes, a few kB, go in one batch.",
            script)

        script = SessionScript(policy: SessionScript.policy { $0.maxBatchSize = 1000 })
        script.fixes(1...100)
        script.send(0xB1, sent(live: 100, form: "rows", floor: 1))
        let midBatch = script.lastSendStep
        script.ack(ack(0xB1, .tooLarge) { $0.maxBatchBytes = 1000 })
        script.held(Array(1...100))
        script.send(0xB2, sent(floor: 1) { $0.shrunkAfterStep = midBatch })
        builder.session(
            "session.outcome.too-large.limit-below-minimum-small-batch", rules: ["§http-shrink", "§batch-outcome"],
            "TOO_LARGE with max_batch_bytes 1000 for a batch of 100 fixes, a few kB: the limit counts as 16384, which is not below what was sent, so it is read as absent, and the next batch keeps within half (taken at face value, 16384 would let the same batch go again, and be refused again, forever).",
            script)

        script = SessionScript()
        script.armed(version: 3)
        script.fixes(1...1)
        script.send(0xB1, sent(live: 1) { $0.armedRegions = true })
        script.ack(ack(0xB1, fixes: [range(1, 1, .retryLater)]))
        script.now += 1000
        script.send(0xB2, sent(live: 1) { $0.armedRegions = false })
        builder.session(
            "session.batch-items.armed-reported", rules: ["§batch-outcome"],
            "PROCESSED stores the armed regions whatever the fixes' results: the resent fix goes without them.", script)

        script = SessionScript()
        script.lifecycle()
        script.lifecycle(.enteredBackground)
        script.send(0xB1, sent(backlog: [], live: 0) { $0.lifecycleEvents = 2 })
        script.ack(ack(0xB1, fixes: [range(1, 10, .accepted)]))
        script.expect { $0.heldLifecycleEvents = 0 }
        builder.session(
            "session.batch-items.lifecycle-processed", rules: ["§batch-outcome", "§ack-scope"],
            "Two lifecycle events, stored by PROCESSED; the fix range in the ack touches nothing, as the batch had no fixes.",
            script)

        script = SessionScript(policy: SessionScript.policy { $0.maxBatchesInFlight = 2 })
        script.lifecycle()
        script.send(0xB1, sent { $0.lifecycleEvents = 1 })
        script.lifecycle(.enteredBackground)
        script.send(0xB2, sent { $0.lifecycleEvents = 1 })
        script.ack(ack(0xB2))
        script.expect { $0.heldLifecycleEvents = 1 }
        builder.session(
            "session.batch-items.lifecycle-scope", rules: ["§ack-scope", "§batch-outcome"],
            "Each batch carries its own lifecycle event; PROCESSED for the second deletes only the second's.", script)
    }

    // MARK: - Floors

    static func floors(_ builder: inout VectorBuilder) {
        var script = SessionScript()
        script.fixes(1...5)
        script.discard(2)
        script.held([3, 4, 5])
        script.expect { $0.fixSequenceFloor = 3 }
        script.send(0xB1, sent(backlog: [3, 4], live: 5, floor: 3))
        builder.session(
            "session.floor.after-discard", rules: ["§sequence-floor"],
            "Storage full: the two oldest fixes are discarded, a loss the floor shows: the batch states floor 3.",
            script)

        script = threeInFlight()
        script.fixes(4...6)
        script.discard(2)
        script.held([1, 2, 3, 6])
        script.expect { $0.fixSequenceFloor = 1 }
        builder.session(
            "session.floor.discard-spares-in-flight", rules: ["§sequence-floor", "§ack-scope"],
            "Discarding two fixes takes the oldest not in flight, 4 and 5; the floor stays 1, the lowest still held.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, fixes: [range(1, 3, .accepted)]))
        script.expect { $0.fixSequenceFloor = 4 }
        script.fixes(4...4)
        script.send(0xB2, sent(live: 4, floor: 4))
        builder.session(
            "session.floor.empty-queue", rules: ["§sequence-floor"],
            "Holding nothing, the floor is the next number the device will assign, 4; the next batch states it.",
            script)

        script = threeInFlight()
        script.ack(ack(0xB1, fixes: [range(1, 1, .retryLater), range(2, 3, .accepted)]))
        script.expect { $0.fixSequenceFloor = 1 }
        script.fixes(4...4)
        script.send(0xB2, sent(backlog: [1], live: 4, floor: 1))
        builder.session(
            "session.floor.kept-oldest", rules: ["§sequence-floor"],
            "Fix 1 kept (RETRY_LATER) while 2 and 3 go: the floor stays 1, and is at most the lowest fix sequence in the batch.",
            script)

        script = eventsInFlight()
        script.ack(
            ack(0xB1, fixes: [range(1, 1, .accepted)], events: [range(1, 1, .accepted), range(2, 2, .retryLater)]))
        script.expect { $0.eventSequenceFloor = 2 }
        script.send(0xB2, sent(events: [2], eventFloor: 2) { $0.liveFix = 0 })
        builder.session(
            "session.floor.events", rules: ["§sequence-floor", "§event-key"],
            "event_sequence_floor follows the fence events: event 1 stored, 2 kept, so the floor is 2.", script)
    }
}
