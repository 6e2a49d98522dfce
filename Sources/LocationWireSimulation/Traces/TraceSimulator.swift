import Foundation
import LocationWire
import LocationWireRandom

/// A deterministic generator of realistic raw location traces: what a phone's positioning provider delivers
/// once a second while someone walks, runs, cycles or drives, before any reporting policy thins it out.
///
/// The model: speed follows a mean-reverting random process with stops (crossings, traffic lights); heading
/// drifts and now and then turns; the reported position carries correlated GNSS error (errors of consecutive
/// fixes are close, as real receivers' are); accuracies take iOS-like discrete values that hold for several
/// seconds; altitude follows gentle terrain; course and speed are unknown while standing still. The same seed
/// always gives the same trace.
public struct TraceSimulator {
    /// The kinds of movement the simulator knows.
    public enum Scenario: String, CaseIterable, Sendable {
        case walk, run, bike, drive, stationary
        /// A long walk recorded without network, uploaded later in many batches.
        case offlineBacklog = "offline-backlog"
        /// Walking between tall buildings: large, jumping errors and accuracy spikes.
        case urbanCanyon = "urban-canyon"
        /// A walk during which the device's wall clock jumps (NTP correction, manual change).
        case clockJump = "clock-jump"
    }

    struct Motion {
        var meanSpeed: Double  // m/s
        var speedJitter: Double  // m/s, standard deviation of the speed process
        var turnEverySeconds: Double
        var stopEverySeconds: Double  // 0: never stops
        var stopSeconds: ClosedRange<Double>
        var noiseMeters: Double  // standard deviation of the correlated position error
        var accuracyLevelsCm: [UInt32]
        var activity: MotionActivity
    }

    static func motion(for scenario: Scenario) -> Motion {
        let iosLevels: [UInt32] = [353, 472, 472, 472, 618, 821, 999, 1414]
        switch scenario {
        case .walk, .offlineBacklog, .clockJump:
            return Motion(
                meanSpeed: 1.4, speedJitter: 0.15, turnEverySeconds: 45, stopEverySeconds: 240, stopSeconds: 10...40,
                noiseMeters: 2.0, accuracyLevelsCm: iosLevels, activity: .walking)
        case .run:
            return Motion(
                meanSpeed: 3.0, speedJitter: 0.3, turnEverySeconds: 60, stopEverySeconds: 600, stopSeconds: 5...20,
                noiseMeters: 2.0, accuracyLevelsCm: iosLevels, activity: .running)
        case .bike:
            return Motion(
                meanSpeed: 5.5, speedJitter: 0.6, turnEverySeconds: 50, stopEverySeconds: 300, stopSeconds: 10...45,
                noiseMeters: 2.5, accuracyLevelsCm: iosLevels, activity: .cycling)
        case .drive:
            return Motion(
                meanSpeed: 13, speedJitter: 2.5, turnEverySeconds: 90, stopEverySeconds: 180, stopSeconds: 15...60,
                noiseMeters: 3.0, accuracyLevelsCm: iosLevels, activity: .inVehicle)
        case .stationary:
            return Motion(
                meanSpeed: 0, speedJitter: 0, turnEverySeconds: 0, stopEverySeconds: 0, stopSeconds: 0...0,
                noiseMeters: 4.0, accuracyLevelsCm: [472, 618, 999, 1414, 1650], activity: .still)
        case .urbanCanyon:
            return Motion(
                meanSpeed: 1.3, speedJitter: 0.2, turnEverySeconds: 30, stopEverySeconds: 120, stopSeconds: 10...60,
                noiseMeters: 12, accuracyLevelsCm: [999, 1414, 2500, 3500, 6500, 12_000], activity: .walking)
        }
    }

    public let scenario: Scenario
    private var random: SeededRandom
    private let motion: Motion

    // True state.
    private var latitude: Double
    private var longitude: Double
    private var altitude: Double
    private var heading: Double  // radians, clockwise from north
    private var speed: Double
    private var stopRemaining: Double = 0
    private var nextTurn: Double
    // Correlated errors (metres) and slowly changing reported accuracies.
    private var errorNorth = 0.0
    private var errorEast = 0.0
    private var errorUp = 0.0
    private var horizontalAccuracy: Held<UInt32>
    private var verticalAccuracy: Held<UInt32>
    private var speedAccuracy: Held<UInt32>
    private var courseAccuracy: Held<UInt32>

    private var elapsedSeconds = 0
    private var sequence: UInt64
    private let startTimeMs: Int64
    private let bootOffsetMs: UInt64
    private var batteryPercent: Double
    /// Wall-clock offset applied to time_ms: the clock-jump scenario changes it half way.
    private var clockOffsetMs: Int64 = 0

    /// A simulator starting at `start` (degrees), at UTC `startTimeMs`, numbering fixes from `firstSequence`.
    public init(
        scenario: Scenario, seed: UInt64, start: (latitude: Double, longitude: Double) = (46.0511, 14.5051),
        startTimeMs: Int64 = 1_767_261_600_000, firstSequence: UInt64 = 1
    ) {
        self.scenario = scenario
        self.random = SeededRandom(seed: seed)
        self.motion = Self.motion(for: scenario)
        self.latitude = start.latitude
        self.longitude = start.longitude
        self.altitude = 295
        self.heading = random.uniform(0, 2 * .pi)
        self.speed = motion.meanSpeed
        self.nextTurn = motion.turnEverySeconds
        self.horizontalAccuracy = Held(levels: motion.accuracyLevelsCm, holdSeconds: 5...25, random: &random)
        self.verticalAccuracy = Held(levels: [300, 400, 400, 600, 800], holdSeconds: 8...40, random: &random)
        self.speedAccuracy = Held(levels: [30, 50, 50, 70, 100], holdSeconds: 5...30, random: &random)
        self.courseAccuracy = Held(levels: [500, 800, 1200, 1800, 2500], holdSeconds: 3...15, random: &random)
        self.sequence = firstSequence
        self.startTimeMs = startTimeMs
        self.bootOffsetMs = UInt64(random.uniform(3_600_000, 86_400_000))
        self.batteryPercent = random.uniform(55, 95)
    }

    /// The next `count` fixes, one a second.
    public mutating func fixes(_ count: Int) -> [LocationFix] {
        (0..<count).map { _ in nextFix() }
    }

    /// Advances one second and returns the fix the provider delivers.
    public mutating func nextFix() -> LocationFix {
        step()
        var fix = LocationFix()
        fix.sequence = sequence
        sequence += 1
        if scenario == .clockJump, elapsedSeconds == 900 { clockOffsetMs = -3_600_000 }  // the clock goes back 1 h
        fix.timeMs = startTimeMs + Int64(elapsedSeconds) * 1000 + clockOffsetMs
        fix.elapsedRealtimeMs = bootOffsetMs + UInt64(elapsedSeconds) * 1000

        let metresPerDegreeLatitude = 111_132.0
        let metresPerDegreeLongitude = 111_320.0 * cos(latitude * .pi / 180)
        let reportedLatitude = latitude + errorNorth / metresPerDegreeLatitude
        let reportedLongitude = longitude + errorEast / metresPerDegreeLongitude
        fix.latitudeE7 = Int32((reportedLatitude * 1e7).rounded())
        fix.longitudeE7 = Int32((reportedLongitude * 1e7).rounded())
        fix.horizontalAccuracyCm = horizontalAccuracy.value
        fix.altitudeCm = Int32(((altitude + errorUp) * 100).rounded())
        fix.verticalAccuracyCm = verticalAccuracy.value

        let moving = speed > 0.3
        let measuredSpeed = max(0, speed + random.gaussian() * 0.08)
        fix.speedCmS = UInt32((measuredSpeed * 100).rounded())
        fix.speedAccuracyCmS = speedAccuracy.value
        if moving {
            // Course is known only while moving; 0.01 degree units, wrapped into [0, 36000).
            var degrees = (heading * 180 / .pi + random.gaussian() * 2).truncatingRemainder(dividingBy: 360)
            if degrees < 0 { degrees += 360 }
            fix.courseCdeg = UInt32((degrees * 100).rounded()) % 36_000
            fix.courseAccuracyCdeg = courseAccuracy.value
        }
        fix.reason = .periodic
        fix.source = .gnss
        fix.batteryPercent = UInt32(batteryPercent.rounded(.down))
        fix.batteryState = .unplugged
        fix.motionActivity = moving ? motion.activity : .still
        fix.motionConfidencePct = 100
        return fix
    }

    private mutating func step() {
        elapsedSeconds += 1
        // Speed: stops, then a mean-reverting process around the scenario's speed.
        if motion.meanSpeed > 0 {
            if stopRemaining > 0 {
                stopRemaining -= 1
                speed = max(0, speed - 1.5)
            } else if motion.stopEverySeconds > 0, random.uniform(0, 1) < 1 / motion.stopEverySeconds {
                stopRemaining = random.uniform(motion.stopSeconds.lowerBound, motion.stopSeconds.upperBound)
            } else {
                speed += 0.2 * (motion.meanSpeed - speed) + random.gaussian() * motion.speedJitter
                speed = max(0, speed)
            }
            // Heading: a slow drift, and now and then a turn at a corner.
            heading += random.gaussian() * 0.02
            nextTurn -= 1
            if nextTurn <= 0 {
                heading += (random.uniform(0, 1) < 0.5 ? -1 : 1) * random.uniform(0.8, 1.8)
                nextTurn = random.uniform(0.5, 1.5) * motion.turnEverySeconds
            }
        }
        let north = speed * cos(heading)
        let east = speed * sin(heading)
        latitude += north / 111_132.0
        longitude += east / (111_320.0 * cos(latitude * .pi / 180))
        altitude += random.gaussian() * 0.05 + (speed > 0 ? 0.02 * sin(Double(elapsedSeconds) / 120) : 0)

        // GNSS error: first-order autoregressive, so consecutive errors are close; the urban canyon adds jumps.
        let keep = 0.97
        let innovation = motion.noiseMeters * (1 - keep * keep).squareRoot()
        errorNorth = keep * errorNorth + innovation * random.gaussian()
        errorEast = keep * errorEast + innovation * random.gaussian()
        errorUp = keep * errorUp + 1.5 * innovation * random.gaussian()
        if scenario == .urbanCanyon, random.uniform(0, 1) < 0.02 {
            errorNorth += random.gaussian() * 30
            errorEast += random.gaussian() * 30
        }
        horizontalAccuracy.advance(&random)
        verticalAccuracy.advance(&random)
        speedAccuracy.advance(&random)
        courseAccuracy.advance(&random)
        batteryPercent = max(1, batteryPercent - 1.0 / 600)
    }
}

/// A reported value that holds for a random number of seconds, then switches to another level, as iOS's
/// accuracy estimates do.
struct Held<Value> {
    let levels: [Value]
    let holdSeconds: ClosedRange<Double>
    private(set) var value: Value
    private var remaining: Double

    init(levels: [Value], holdSeconds: ClosedRange<Double>, random: inout SeededRandom) {
        self.levels = levels
        self.holdSeconds = holdSeconds
        self.value = levels[random.index(levels.count)]
        self.remaining = random.uniform(holdSeconds.lowerBound, holdSeconds.upperBound)
    }

    mutating func advance(_ random: inout SeededRandom) {
        remaining -= 1
        if remaining <= 0 {
            value = levels[random.index(levels.count)]
            remaining = random.uniform(holdSeconds.lowerBound, holdSeconds.upperBound)
        }
    }
}
