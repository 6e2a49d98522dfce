import LocationWire

/// The region set a device holds, and the reference rules for applying a RegionAssignment to it
/// (proto/README.md, "Assignment lifecycle" and "Versions and deltas": `§assignment-stale`, `§delta-base`,
/// `§delta-header`, `§delta-budget`, `§refine-parent`).
///
/// Applying is all or nothing: an assignment the device cannot apply leaves the set as it was.
public struct HeldAssignment: Hashable, Sendable {
    /// The version applied last; 0 before any.
    public private(set) var version: UInt64 = 0
    /// The header of the last assignment applied: a delta replaces these, it does not inherit them.
    public private(set) var expiresAtMs: Int64 = 0
    public private(set) var slotBudget: UInt32 = 0
    public private(set) var refresh: RefreshPolicy?
    public private(set) var datum: CoordinateDatum = .unspecified
    /// The global switch; a delta without it leaves it as it was.
    public private(set) var monitoringEnabled = true
    /// The regions held, by id.
    public private(set) var regions: [String: Region] = [:]

    public init() {}

    /// Why an assignment was not applied.
    public enum Refusal: String, Hashable, Sendable, CaseIterable {
        /// Its version is not above the one held: a stale or repeated answer, ignored (`§assignment-stale`).
        case stale = "assignment-stale"
        /// A delta whose base is not the version held: ask for a full assignment (`§delta-base`).
        case baseNotHeld = "delta-base-not-held"
        /// A delta in another datum than the base: ask for a full assignment (`§delta-header`).
        case datumChanged = "delta-datum-changed"
        /// A delta that would leave more regions than its slot budget: ask for a full one (`§delta-budget`).
        case overBudget = "delta-over-budget"
        /// A mode this revision does not know, or none.
        case modeUnknown = "assignment-mode-unknown"

        /// Whether the device answers with a RegionRequest, reason DELTA_REJECTED.
        public var requestsFullAssignment: Bool { self != .stale && self != .modeUnknown }
    }

    /// Applies `assignment`, or says why not and leaves the set unchanged.
    public mutating func apply(_ assignment: RegionAssignment) -> Refusal? {
        guard assignment.assignmentVersion > version else { return .stale }
        var next = self
        switch assignment.mode {
        case .fullReplacement:
            next.regions = [:]
            next.monitoringEnabled = assignment.monitoringEnabled ?? true
        case .delta:
            guard assignment.baseVersion == version, version != 0 else { return .baseNotHeld }
            guard assignment.datum == datum else { return .datumChanged }
            for id in assignment.removedRegionIds { next.regions[id] = nil }
            if let enabled = assignment.monitoringEnabled { next.monitoringEnabled = enabled }
        default:
            return .modeUnknown
        }
        for region in assignment.regions { next.regions[region.id] = region }
        if assignment.mode == .delta, next.regions.count > Int(assignment.slotBudget) { return .overBudget }
        next.version = assignment.assignmentVersion
        next.expiresAtMs = assignment.expiresAtMs
        next.slotBudget = assignment.slotBudget
        next.refresh = assignment.refresh
        next.datum = assignment.datum
        self = next
        return nil
    }
}

extension HeldAssignment {
    /// The set as one `FULL_REPLACEMENT` of the version held, regions by id (byte order): what a server keeps as
    /// the `previous` of its next plan, so that its deltas follow deltas (proto/HTTP.md `§http-regions-held`).
    /// `issued_at_ms` is not part of the set and stays 0.
    public var fullAssignment: RegionAssignment {
        var full = RegionAssignment()
        full.assignmentVersion = version
        full.mode = .fullReplacement
        full.expiresAtMs = expiresAtMs
        full.slotBudget = slotBudget
        full.refresh = refresh
        full.datum = datum
        if !monitoringEnabled { full.monitoringEnabled = false }
        full.regions = regions.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { regions[$0]! }
        return full
    }
}
