import LocationWire
import LocationWireSession

extension SessionSimulation {
    /// The invariants that hold after every step, whatever the network does.
    mutating func checkSafety(step: Int) {
        for index in report.violations.indices where report.violations[index].step < 0 {
            report.violations[index].step = step
        }
        // No fix leaves the device before the server stored it or refused it (or it was really lost).
        for key in recorded where !lost.contains(key) && !stored.contains(key) && !refused.contains(key) {
            guard key.installId != queue.installId || !queueHolds(key.sequence) else { continue }
            fail(.deletedBeforeStored, "install \(key.installId) sequence \(key.sequence) is gone", step: step)
            return
        }
        let heldEvents = Set(queue.fenceEvents.map(\.eventSequence))
        for key in recordedEvents where !lostEvents.contains(key) && !storedEvents.contains(key) {
            guard key.installId != queue.installId || !heldEvents.contains(key.sequence) else { continue }
            fail(.deletedBeforeStored, "fence event \(key.sequence) of install \(key.installId) is gone", step: step)
            return
        }
        checkGaps(step: step)
    }

    /// Every number the ledger reports lost is one the device really lost (`§gap-report`).
    mutating func checkGaps(step: Int) {
        for installation in ledger.installations.keys {
            for range in ledger.lostFixes(of: installation) {
                for sequence in range
                where !lost.contains(FixKey(installId: installation.installId, sequence: sequence)) {
                    fail(.gapNotLost, "ledger reports sequence \(sequence) lost, but it is not", step: step)
                    return
                }
            }
        }
    }

    func queueHolds(_ sequence: UInt64) -> Bool {
        var low = 0
        var high = queue.fixes.count
        while low < high {
            let middle = (low + high) / 2
            if queue.fixes[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < queue.fixes.count && queue.fixes[low].sequence == sequence
    }

    /// The network heals and the server stops holding: the device drains its queue, then every recorded fix
    /// must be stored exactly once (or refused, if it was defective, or really lost).
    mutating func heal(step: Int) {
        ledger.policy.holdEverything = nil
        ledger.policy.maxBatchBytes = UploadQueue.defaultMaxBatchBytes
        // Enough rounds for a policy of one fix per batch and one batch in flight to drain the longest backlog.
        let roundLimit = 400 + 2 * report.counts.recordedFixes
        var rounds = 0
        while rounds < roundLimit {
            rounds += 1
            while !requests.isEmpty { serve(requests.removeFirst()) }
            while !responses.isEmpty { receive(responses.removeFirst()) }
            checkSafety(step: step)
            if !report.violations.isEmpty { return }
            if queue.isDrained { break }
            // Every message is delivered, so a batch still in flight has lost its request or its answer.
            for batch in queue.batches where !batch.givenUp { queue.giveUp(batchId: batch.batchId, nowMs: nowMs) }
            nowMs = max(nowMs + 1000, queue.holdUntilMs)
            while queue.maySend(nowMs: nowMs), queue.activeBatchCount < queue.maxBatchesInFlight {
                let before = report.counts.batchesSent
                send()
                if report.counts.batchesSent == before { break }
            }
        }
        report.healingSteps = rounds
        if !queue.isDrained {
            fail(
                .storedExactlyOnce, "the queue still holds \(queue.fixes.count) fixes after \(rounds) healed rounds",
                step: step)
            return
        }
        for key in recorded where !lost.contains(key) {
            if defective.contains(key) {
                if !refused.contains(key) {
                    fail(.storedExactlyOnce, "defective \(key.sequence) never refused", step: step)
                }
            } else if !stored.contains(key) {
                fail(.storedExactlyOnce, "install \(key.installId) sequence \(key.sequence) never stored", step: step)
            }
        }
        for key in recordedEvents where !lostEvents.contains(key) && !storedEvents.contains(key) {
            fail(.storedExactlyOnce, "fence event \(key.sequence) of install \(key.installId) never stored", step: step)
        }
        report.counts.storedFixes = stored.count
        report.counts.rejectedFixes = refused.count
        report.counts.lostFixes = lost.subtracting(stored).count
    }
}
