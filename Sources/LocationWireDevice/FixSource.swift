import Foundation
import LocationWire

/// Where the device's fixes come from: the OS's delivery, one fix at a time, each with its monotonic time
/// (`elapsed_realtime_ms`) and boot id. An app's adapter wraps CoreLocation or the fused location provider; a
/// test or `locwire device run` replays a trace with ``TraceReplay``.
public protocol FixSource {
    /// The next fix the OS delivers, waiting for it as long as the OS would; nil when the source has ended.
    mutating func nextFix() throws -> LocationFix?
}

extension LocationDevice {
    /// Delivers every fix of `source` (``deliver(_:)``), calling `progress` after each, until the source ends;
    /// then closes the recording window (``finish()``).
    public func run<Source: FixSource>(_ source: inout Source, progress: (LocationDevice) -> Void = { _ in }) throws {
        while let fix = try source.nextFix() {
            try deliver(fix)
            progress(self)
        }
        try finish()
    }
}

/// A recorded trace delivered as the OS delivered it: on the fixes' own monotonic clock, `speed` times faster
/// than real time (0: without waiting), from fix number `start` on (a relaunched device goes on at
/// ``LocationDevice/delivered``), and stopping after `limit` fixes when one is given.
public struct TraceReplay: FixSource {
    public let fixes: [LocationFix]
    public let speed: Double
    public private(set) var position: Int
    private let end: Int
    /// The first fix delivered with a monotonic time, and when: the origin of the pacing.
    private var origin: (elapsedMs: UInt64, uptimeNs: UInt64)?

    public init(_ fixes: [LocationFix], speed: Double = 0, start: Int = 0, limit: Int? = nil) {
        self.fixes = fixes
        self.speed = speed
        let first = min(max(start, 0), fixes.count)
        position = first
        end = limit.map { min(fixes.count, first + max($0, 0)) } ?? fixes.count
    }

    /// Whether every fix of the trace has been delivered (not only those up to `limit`).
    public var reachedTheEnd: Bool { position == fixes.count }

    public mutating func nextFix() throws -> LocationFix? {
        guard position < end else { return nil }
        let fix = fixes[position]
        position += 1
        wait(for: fix)
        return fix
    }

    /// Sleeps until `fix` is due; a fix of a new boot (its clock went back) restarts the pacing.
    private mutating func wait(for fix: LocationFix) {
        guard speed > 0, let elapsed = fix.elapsedRealtimeMs else { return }
        let nowNs = DispatchTime.now().uptimeNanoseconds
        guard let origin, elapsed >= origin.elapsedMs else {
            origin = (elapsed, nowNs)
            return
        }
        let dueNs = origin.uptimeNs + UInt64(Double(elapsed - origin.elapsedMs) * 1e6 / speed)
        if dueNs > nowNs { usleep(useconds_t(min((dueNs - nowNs) / 1000, UInt64(UInt32.max)))) }
    }
}
