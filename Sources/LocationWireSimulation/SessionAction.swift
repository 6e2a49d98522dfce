/// One step of a simulated session. A schedule is a list of these, drawn from a seed; it replays exactly, and a
/// step that does not apply (delivering from an empty network) does nothing, so that any sub-list of a schedule
/// is a schedule too (which is what minimization needs).
public enum SessionAction: Hashable, Sendable, CustomStringConvertible {
    /// Feed this many trace fixes through the recorder; the ones it keeps are queued.
    case record(Int)
    /// Queue one fix with a permanent defect (latitude beyond 90°): the server must refuse it, not block on it.
    case recordDefective
    /// Queue one fence event, and one lifecycle event.
    case recordEvent
    case recordLifecycle
    /// The device builds and sends a batch, if its queue, hold and in-flight limit allow.
    case send
    /// The network hands the server a request, or the device a response. `pick` chooses which one when the
    /// network reorders; otherwise the oldest goes.
    case deliverRequest(pick: Int)
    case deliverResponse(pick: Int)
    /// The network loses, or duplicates, one request or response.
    case loseRequest(pick: Int)
    case loseResponse(pick: Int)
    case duplicateRequest(pick: Int)
    case duplicateResponse(pick: Int)
    /// The device gives up waiting for its oldest batch in flight.
    case timeout
    /// Time passes, ms.
    case advance(Int)
    /// The OS kills the app: it restarts from what it persisted; responses on their way to it are lost.
    case killApp
    /// The device reboots: an app kill, a new boot id and a monotonic clock from 0.
    case reboot
    /// The server restarts from its persisted ledger.
    case restartServer
    /// The app is deleted and installed again: its storage is gone, device_id survives, install_id is new.
    case reinstall
    /// The server hands out a new tracking policy (variant picks batch size, in-flight limit, compact, bytes).
    case changePolicy(Int)
    /// The server starts or stops holding every batch (busy, quota, unknown device: the variant picks).
    case holdServer(Int)
    case releaseServer
    /// The server lowers its batch byte limit, so large batches come back TOO_LARGE.
    case limitServerBytes
    /// The device runs out of storage and discards its oldest fixes: a real loss the ledger must report.
    case storageFull(Int)

    public var description: String {
        switch self {
        case .record(let count): "record \(count)"
        case .recordDefective: "record-defective"
        case .recordEvent: "record-event"
        case .recordLifecycle: "record-lifecycle"
        case .send: "send"
        case .deliverRequest(let pick): "deliver-request \(pick)"
        case .deliverResponse(let pick): "deliver-response \(pick)"
        case .loseRequest(let pick): "lose-request \(pick)"
        case .loseResponse(let pick): "lose-response \(pick)"
        case .duplicateRequest(let pick): "duplicate-request \(pick)"
        case .duplicateResponse(let pick): "duplicate-response \(pick)"
        case .timeout: "timeout"
        case .advance(let ms): "advance \(ms)"
        case .killApp: "kill-app"
        case .reboot: "reboot"
        case .restartServer: "restart-server"
        case .reinstall: "reinstall"
        case .changePolicy(let variant): "change-policy \(variant)"
        case .holdServer(let variant): "hold-server \(variant)"
        case .releaseServer: "release-server"
        case .limitServerBytes: "limit-server-bytes"
        case .storageFull(let count): "storage-full \(count)"
        }
    }

    /// Parses ``description``; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let words = text.split(separator: " ")
        guard let name = words.first, words.count <= 2 else { return nil }
        let number = words.count == 2 ? Int(words[1]) : nil
        if words.count == 2, number == nil { return nil }
        switch (String(name), number) {
        case ("record", let count?): self = .record(count)
        case ("record-defective", nil): self = .recordDefective
        case ("record-event", nil): self = .recordEvent
        case ("record-lifecycle", nil): self = .recordLifecycle
        case ("send", nil): self = .send
        case ("deliver-request", let pick?): self = .deliverRequest(pick: pick)
        case ("deliver-response", let pick?): self = .deliverResponse(pick: pick)
        case ("lose-request", let pick?): self = .loseRequest(pick: pick)
        case ("lose-response", let pick?): self = .loseResponse(pick: pick)
        case ("duplicate-request", let pick?): self = .duplicateRequest(pick: pick)
        case ("duplicate-response", let pick?): self = .duplicateResponse(pick: pick)
        case ("timeout", nil): self = .timeout
        case ("advance", let ms?): self = .advance(ms)
        case ("kill-app", nil): self = .killApp
        case ("reboot", nil): self = .reboot
        case ("restart-server", nil): self = .restartServer
        case ("reinstall", nil): self = .reinstall
        case ("change-policy", let variant?): self = .changePolicy(variant)
        case ("hold-server", let variant?): self = .holdServer(variant)
        case ("release-server", nil): self = .releaseServer
        case ("limit-server-bytes", nil): self = .limitServerBytes
        case ("storage-full", let count?): self = .storageFull(count)
        default: return nil
        }
    }
}

/// The kinds of fault a simulation may inject.
public struct SessionFaults: OptionSet, Hashable, Sendable, CaseIterable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let loss = SessionFaults(rawValue: 1 << 0)
    public static let duplication = SessionFaults(rawValue: 1 << 1)
    public static let reordering = SessionFaults(rawValue: 1 << 2)
    public static let delay = SessionFaults(rawValue: 1 << 3)
    public static let appKill = SessionFaults(rawValue: 1 << 4)
    public static let reboot = SessionFaults(rawValue: 1 << 5)
    public static let serverRestart = SessionFaults(rawValue: 1 << 6)
    public static let policyChange = SessionFaults(rawValue: 1 << 7)
    public static let reinstall = SessionFaults(rawValue: 1 << 8)
    public static let serverHold = SessionFaults(rawValue: 1 << 9)
    public static let tooLarge = SessionFaults(rawValue: 1 << 10)
    public static let defectiveFixes = SessionFaults(rawValue: 1 << 11)
    public static let storageFull = SessionFaults(rawValue: 1 << 12)

    public static let allCases: [SessionFaults] = [
        .loss, .duplication, .reordering, .delay, .appKill, .reboot, .serverRestart, .policyChange, .reinstall,
        .serverHold, .tooLarge, .defectiveFixes, .storageFull,
    ]
    public static let all = SessionFaults(allCases)

    /// The command-line names, in ``allCases`` order.
    public static let names = [
        "loss", "duplication", "reordering", "delay", "app-kill", "reboot", "server-restart", "policy-change",
        "reinstall", "server-hold", "too-large", "defective-fixes", "storage-full",
    ]

    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self = Self.allCases[index]
    }

    public var names: [String] { zip(Self.allCases, Self.names).filter { contains($0.0) }.map(\.1) }
}
