import LocationWire
import LocationWireBehavior
import LocationWireGeometry

/// The built-in testee's behaviour requests: each runs one scenario through the reference engines of
/// `LocationWireBehavior`, exactly as `locwire simulate record`, `simulate fences` and `plan` do.
extension BuiltinTestee {
    /// Answers a behaviour request, or refuses one with fields this testee does not know.
    func answer<Request: BehaviorRequest>(
        _ request: Request, requestHasUnknownFields: Bool, _ run: (Request) -> Request.Response
    ) -> Request.Response {
        if requestHasUnknownFields || !request.unknownFields.isEmpty {
            return Request.Response(
                vectorId: request.vectorId,
                failure: .runtimeError("the request has fields this testee does not know; update the testee"))
        }
        var response = run(request)
        response.vectorId = request.vectorId
        return response
    }

    /// `§rec-*` and `§upload-*`: the recording engine and the upload timer over the delivered fixes.
    public func run(_ request: RecordingRequest) -> RecordingResponse { run(request, slackM: 0) }

    /// With every distance threshold moved by `slackM` metres: the vector generator's edge check.
    package func run(_ request: RecordingRequest, slackM: Double) -> RecordingResponse {
        let results = request.uploadResults.map { answer -> UploadScheduler.AttemptResult in
            switch answer.result {
            case .transportFailed: .transportFailed
            case .held(let retryAfterMs): .held(retryAfterMs: retryAfterMs)
            case .succeeded, nil: .succeeded
            }
        }
        let run = RecordingRun(
            policy: request.policy ?? TrackingPolicy(), fixes: request.fixes, slackM: slackM,
            relaunchBefore: Set(request.relaunchBefore.map { Int($0) })
        ) { $0 < results.count ? results[$0] : .succeeded }
        var response = RecordingResponse()
        response.recorded = run.recorded.map { RecordedFix(index: UInt32($0.index), reason: $0.reason) }
        response.dropped = run.dropped.map { DroppedFix(index: UInt32($0.index), code: $0.code.rawValue) }
        response.uploads = run.uploads.map { attempt in
            var upload = UploadAttempt()
            upload.bootId = attempt.bootId
            upload.elapsedRealtimeMs = attempt.elapsedMs
            upload.recorded = attempt.recorded.map { UInt32($0) }
            upload.succeeded = attempt.succeeded
            return upload
        }
        return response
    }

    /// `§fence-*`: the fence engine over the steps.
    public func run(_ request: FenceRequest) -> FenceResponse { run(request, slackM: 0) }

    /// With every region edge and the hysteresis moved by `slackM` metres: the vector generator's edge check.
    package func run(_ request: FenceRequest, slackM: Double) -> FenceResponse {
        var settings = FenceEngine.Settings(request.policy ?? TrackingPolicy())
        settings.slackM = slackM
        var engine = FenceEngine(
            settings: settings, assignmentVersion: request.assignmentVersion,
            firstEventSequence: request.firstEventSequence)
        engine.arm(request.regions)
        var response = FenceResponse()
        let relaunchBefore = Set(request.relaunchBefore.map { Int($0) })
        for (index, step) in request.steps.enumerated() {
            if relaunchBefore.contains(index) { engine = Self.relaunched(engine, settings) }
            switch step.step {
            case .fix(let fix): engine.evaluate(fix, into: &response.events)
            case .arm(let arming):
                engine.disarm(arming.disarmRegionIds)
                engine.arm(arming.regions)
            case nil: break
            }
        }
        return response
    }

    /// `§fence-relaunch`: the app is killed and relaunched; only the engine's stored bytes survive. (A relaunch
    /// after the last step changes nothing a response shows, so it is not run.)
    private static func relaunched(_ engine: FenceEngine, _ settings: FenceEngine.Settings) -> FenceEngine {
        do {
            let bytes = engine.persistedState.serializedBytes()
            return FenceEngine(settings: settings, restoring: try FenceEngine.State(serializedBytes: bytes))
        } catch {
            preconditionFailure("the fence engine's persisted state does not decode: \(error)")
        }
    }

    /// `§plan-*`: the region planner, indexed as a server runs it.
    public func run(_ request: PlanningRequest) -> PlanningResponse {
        var response = PlanningResponse()
        response.assignment = RegionPlanner(catalogue: request.catalogue).plan(
            latitudeE7: request.latitudeE7, longitudeE7: request.longitudeE7, slotBudget: Int(request.slotBudget),
            nowMs: request.nowMs, previous: request.previous)
        return response
    }

    /// `§arm-order`: the arming order over the held set.
    public func run(_ request: ArmingRequest) -> ArmingResponse {
        var response = ArmingResponse()
        // The position is known when the request has one; a missing coordinate reads as 0, as everywhere.
        let position = request.position.map {
            SpherePoint(latitudeE7: $0.latitudeE7 ?? 0, longitudeE7: $0.longitudeE7 ?? 0)
        }
        response.armed = Arming.arm(
            request.assignment ?? RegionAssignment(), slots: Int(request.slots), position: position,
            nowMs: request.nowMs)
        return response
    }
}
