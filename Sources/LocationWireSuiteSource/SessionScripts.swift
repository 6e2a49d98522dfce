import LocationWire
import LocationWireConformance
import LocationWireJSON

/// Vectors of the session and ledger families whose expectation, written from proto/README.md, the reference
/// engines do not meet. Each is generated as the spec says and left out of the generator's check, so the
/// generator still runs; every entry says what the engine does instead. An entry whose vector passes stops the
/// generation: the list only ever names real disagreements.
enum EngineDisagreements {
    static let ids: [String: String] = [:]
}

/// The `§` tags of proto/README.md that session and ledger vectors may name in `rules`.
enum SpecRules {
    static let known: Set<String> = [
        "§install-id", "§sequence-consecutive", "§fix-key", "§event-key", "§batch-id", "§sequence-floor",
        "§gap-report", "§ack-scope", "§batch-outcome", "§hold-keeps", "§ack-table", "§server-durable",
        "§retry-after", "§ack-ignore", "§no-ack", "§in-flight", "§commands", "§batch-size", "§item-boot",
        "§no-silent-drop", "§revision", "§ranges-sorted", "§back-off", "§item-defects", "§batch-composition",
        "§sequence-zero", "§reject-order", "§refused-stays-refused", "§compact-column-wire-type", "§policy-in-acks",
        "§revision-zero", "§ack-effects", "§command-once", "§command-kinds", "§reject-reason-unknown",
        "§http-shrink", "§http-shrink-alone",
    ]

    /// The `§` tags of proto/HTTP.md, and of proto/README.md's decoding, JSON and device rules, that `http` vectors
    /// may name.
    static let http: Set<String> = [
        "§http-scope", "§http-endpoints", "§http-regions", "§http-regions-position", "§http-regions-held",
        "§http-read-back", "§http-read-back-query", "§http-read-back-geojson", "§http-read-back-fixes",
        "§http-ledger", "§http-erase", "§http-erase-after", "§http-erase-assignments", "§http-retention",
        "§http-retention-stated", "§http-versions", "§http-header-size", "§http-message-syntax", "§http-expect",
        "§http-head", "§http-allow", "§http-media-types", "§http-content-type", "§http-negotiation", "§http-gzip",
        "§http-content-coding", "§http-bearer", "§http-auth-errors", "§http-empty-device-id", "§http-operator-token",
        "§http-check-order", "§http-error-body", "§http-error-codes", "§http-retry-after", "§http-rate-limits",
        "§http-device-answers", "§http-only-200-deletes", "§http-whole-body", "§http-late-ack", "§http-credentials",
        "§http-ack-after-commit", "§http-size", "§http-shrink", "§http-shrink-alone", "§http-retry",
        "§http-partial-body",
        "§http-time-outs", "§http-close", "§decode-errors", "§decode-error-cases", "§decode-error-offset",
        "§decode-error-path",
        "§json-mapping", "§json-unknown-members", "§json-errors", "§json-error-offset", "§back-off", "§no-ack",
        "§batch-size", "§revision-zero",
    ]

    /// The `§` tags of proto/BEHAVIOR.md that behaviour vectors may name.
    static let behaviour: Set<String> = [
        "§distance", "§distance-tolerance", "§region-inside", "§polygon-inside", "§polygon-unprojectable",
        "§boundary-distance", "§boundary-outside-circle", "§region-gap", "§rec-clock", "§rec-enabled", "§rec-duty",
        "§rec-filter", "§rec-filter-order", "§rec-requested", "§rec-window", "§rec-motion", "§rec-first",
        "§rec-stationary", "§rec-speed", "§rec-heartbeat", "§upload-schedule", "§upload-drain", "§upload-boot",
        "§upload-end", "§back-off", "§fence-gate", "§fence-missing-coordinate", "§fence-state-report",
        "§fence-hysteresis", "§fence-confirm", "§fence-dwell", "§fence-dwell-zero", "§fence-dwell-pending",
        "§fence-expiry", "§fence-assignment", "§fence-order", "§fence-event", "§plan-candidates", "§plan-parent-cycle",
        "§plan-rank", "§plan-refine", "§plan-refresh", "§plan-expiry", "§plan-delta", "§arm-order", "§arm-off",
        "§rec-relaunch", "§upload-relaunch", "§fence-relaunch", "§relaunch-durability", "§relaunch-boot",
    ]
}

/// A device's session being written: the steps of a SessionRequest with the expectations of each.
struct SessionScript {
    static let deviceId = "device-7"
    static let installId: UInt64 = 0x5EED_0001
    /// 2026-01-01T00:00:00Z.
    static let start: Int64 = 1_767_225_600_000
    static let bootA: UInt64 = 0xB007_000A
    static let bootB: UInt64 = 0xB007_000B

    var request = SessionRequest()
    var expected: [ExpectedStep] = []
    /// The device clock of the next send, ack or give-up step.
    var now: Int64 = SessionScript.start

    init(policy: TrackingPolicy? = nil, installId: UInt64 = SessionScript.installId) {
        request.deviceId = Self.deviceId
        request.installId = installId
        request.policy = policy
    }

    static func policy(_ configure: (inout TrackingPolicy) -> Void) -> TrackingPolicy {
        var policy = TrackingPolicy()
        policy.policyVersion = 1
        configure(&policy)
        return policy
    }

    /// A fix recorded `index` seconds into the session, in boot `bootId`.
    static func fix(_ index: Int, bootId: UInt64 = bootA, isMock: Bool = false) -> LocationFix {
        var fix = LocationFix()
        fix.timeMs = start - 600_000 + Int64(index) * 1000
        fix.latitudeE7 = 523_456_789 + Int32(index) * 100
        fix.longitudeE7 = 134_567_890 - Int32(index) * 70
        fix.horizontalAccuracyCm = 500 + UInt32(index % 7) * 10
        fix.elapsedRealtimeMs = 3_600_000 + UInt64(index) * 1000
        fix.bootId = bootId
        fix.isMock = isMock
        return fix
    }

    static func event(_ index: Int, kind: FenceEventKind = .enter) -> FenceEvent {
        var event = FenceEvent()
        event.regionId = "shop:\(1000 + index)"
        event.regionVersion = 1
        event.kind = kind
        event.osEventTimeMs = start - 300_000 + Int64(index) * 1000
        event.detectedAtMs = event.osEventTimeMs + 2000
        event.bootId = bootA
        return event
    }

    // MARK: Steps

    private mutating func add(_ action: SessionStep.Action, clocked: Bool = false, bootId: UInt64 = 0) {
        request.steps.append(SessionStep(action, nowMs: clocked ? now : 0, bootId: bootId))
    }

    /// Adds expectations to the last step.
    mutating func expect(_ configure: (inout ExpectedStep) -> Void) {
        let index = request.steps.count - 1
        if expected.last?.step != index { expected.append(ExpectedStep(step: index)) }
        configure(&expected[expected.count - 1])
    }

    /// Records fixes `range` (their indexes: the sequences they must get), expecting each number.
    mutating func fixes(_ range: ClosedRange<Int>, bootId: UInt64 = bootA) {
        for index in range {
            add(.recordFix(Self.fix(index, bootId: bootId)))
            expect { $0.sequence = UInt64(index) }
        }
    }

    mutating func events(_ range: ClosedRange<Int>, kind: FenceEventKind = .enter) {
        for index in range {
            add(.recordFenceEvent(Self.event(index, kind: kind)))
            expect { $0.sequence = UInt64(index) }
        }
    }

    mutating func lifecycle(_ kind: LifecycleEventKind = .launched) {
        var event = LifecycleEvent()
        event.kind = kind
        event.timeMs = now - 1000 * Int64(request.steps.count + 1)
        event.bootId = Self.bootA
        add(.recordLifecycleEvent(event))
    }

    mutating func status(appVersion: String = "2.4.0") {
        var status = DeviceStatus()
        status.observedAtMs = now
        status.authorization = .always
        status.platform = .ios
        status.appVersion = appVersion
        add(.updateDeviceStatus(status))
    }

    mutating func armed(version: UInt64, regions: [String] = ["shop:1001", "shop:1002"]) {
        var armed = ArmedRegions()
        armed.assignmentVersion = version
        armed.regionIds = regions
        add(.updateArmedRegions(armed))
    }

    mutating func discard(_ count: UInt32) {
        add(.discardOldestFixes(count))
    }

    /// The index of the last step that sent a batch.
    var lastSendStep: Int {
        request.steps.lastIndex { if case .sendBatchId = $0.action { true } else { false } } ?? 0
    }

    /// The device tries to send batch `batchId`; `batch` states what it must carry, nil that nothing goes out.
    mutating func send(_ batchId: UInt64, bootId: UInt64 = bootA, _ batch: ExpectedBatch?) {
        add(.sendBatchId(batchId), clocked: true, bootId: bootId)
        expect {
            if let batch { $0.batch = batch } else { $0.nothingSent = true }
        }
    }

    mutating func ack(_ ack: BatchAck, _ outcome: String = "applied") {
        add(.ack(ack), clocked: true)
        expect { $0.ack = outcome }
    }

    mutating func ackBytes(_ bytes: [UInt8], _ outcome: String) {
        add(.ackBytes(bytes), clocked: true)
        expect { $0.ack = outcome }
    }

    mutating func giveUp(_ batchId: UInt64) {
        add(.giveUpBatchId(batchId), clocked: true)
    }

    /// Expects the fixes (and events) the device holds after the last step.
    mutating func held(_ fixes: [UInt64], events: [UInt64]? = nil) {
        expect {
            $0.heldFixes = fixes
            if let events { $0.heldEvents = events }
        }
    }
}

/// A batch expectation, shortly.
func sent(
    backlog: [UInt64]? = nil, live: UInt64? = nil, events: [UInt64]? = nil, form: String? = nil,
    floor: UInt64? = nil, eventFloor: UInt64? = nil, _ configure: (inout ExpectedBatch) -> Void = { _ in }
) -> ExpectedBatch {
    var batch = ExpectedBatch()
    batch.backlog = backlog
    batch.liveFix = live
    batch.events = events
    batch.backlogForm = form ?? backlog.map { $0.isEmpty ? "none" : "rows" }
    batch.fixSequenceFloor = floor
    batch.eventSequenceFloor = eventFloor
    configure(&batch)
    return batch
}

/// An ack range.
func range(
    _ first: UInt64, _ last: UInt64, _ result: AckResult, _ reason: RejectReason = .unspecified
) -> AckRange {
    var range = AckRange()
    range.firstSequence = first
    range.lastSequence = last
    range.result = result
    range.rejectReason = reason
    return range
}

/// A BatchAck from a revision-1 server.
func ack(
    _ batchId: UInt64, _ outcome: BatchOutcome = .processed, fixes: [AckRange] = [], events: [AckRange] = [],
    _ configure: (inout BatchAck) -> Void = { _ in }
) -> BatchAck {
    var ack = BatchAck()
    ack.batchId = batchId
    ack.outcome = outcome
    ack.fixResults = fixes
    ack.fenceEventResults = events
    ack.serverTimeMs = SessionScript.start
    ack.protocolRevision = 1
    configure(&ack)
    return ack
}

/// A HOLD ack.
func hold(_ batchId: UInt64, _ reason: HoldReason, _ configure: (inout BatchAck) -> Void = { _ in }) -> BatchAck {
    ack(batchId, .hold) {
        $0.holdReason = reason
        configure(&$0)
    }
}

extension VectorBuilder {
    /// A session vector: the script's request with its expectations, held to the reference device engine.
    mutating func session(_ id: String, rules: [String], _ comment: String, _ script: SessionScript) {
        let vector = scripted(
            id, type: SessionRequest.self, json: script.request.jsonString(), rules: rules, comment: comment
        ) {
            $0.expectedSteps = script.expected
        }
        let request: SessionRequest
        do {
            request = try SessionEvaluation.sessionRequest(of: vector)
        } catch {
            preconditionFailure("\(id): the request does not read back from its JSON: \(error)")
        }
        precondition(
            request.steps == script.request.steps,
            "\(id): the request's JSON loses something: \(script.request.jsonString()) reads back as \(request)")
        let problem = SessionEvaluation.judge(vector, request, BuiltinTestee().run(request))
        check(id, problem)
        add(vector)
    }

    /// A ledger vector: batches for a server, with the acks and keys the spec requires, held to the reference
    /// server engine.
    mutating func ledger(
        _ id: String, rules: [String], _ comment: String, _ request: LedgerRequest, acks: [ExpectedAck],
        installations: [ExpectedInstallation]
    ) {
        let vector = scripted(id, type: LedgerRequest.self, json: request.jsonString(), rules: rules, comment: comment)
        {
            $0.expectedAcks = acks
            $0.expectedInstallations = installations
        }
        let readBack: LedgerRequest
        do {
            readBack = try SessionEvaluation.ledgerRequest(of: vector)
        } catch {
            preconditionFailure("\(id): the request does not read back from its JSON: \(error)")
        }
        precondition(readBack.batches == request.batches, "\(id): the request's JSON loses something")
        precondition(acks.count == request.batches.count, "\(id): one expected ack per batch")
        check(id, SessionEvaluation.judge(vector, readBack, BuiltinTestee().run(readBack)))
        add(vector)
    }

    private func scripted(
        _ id: String, type: any LocationWireMessage.Type, json: String, rules: [String], comment: String,
        _ configure: (inout Vector) -> Void
    ) -> Vector {
        precondition(!rules.isEmpty, "\(id): a vector names the rules it checks")
        for rule in rules { precondition(SpecRules.known.contains(rule), "\(id): unknown rule \(rule)") }
        let request: JSONValue
        do {
            request = try JSONValue.parse(json)
        } catch {
            preconditionFailure("\(id): the request's JSON does not parse: \(error)")
        }
        let disagreement = EngineDisagreements.ids[id] != nil
        var vector = Vector(
            id: id, messageType: type.fullMessageName, result: .valid, request: request, rules: rules,
            flags: disagreement ? [family, "reference-disagrees"] : [family], comment: comment)
        configure(&vector)
        return vector
    }

    /// Stops the generation when the reference engine does not do what the vector says, unless the vector is a
    /// listed disagreement (which must then still disagree).
    private func check(_ id: String, _ problem: String?) {
        if let reason = EngineDisagreements.ids[id] {
            precondition(problem != nil, "\(id) is listed in EngineDisagreements (\(reason)) but the engine passes it")
        } else if let problem {
            preconditionFailure("\(id): the reference engine disagrees with the vector:\n\(problem)")
        }
    }
}
