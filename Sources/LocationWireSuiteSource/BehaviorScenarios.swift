import Foundation
import LocationWire
import LocationWireBehavior
import LocationWireConformance
import LocationWireGeometry
import LocationWireJSON
import LocationWireRandom

/// A trace being written for a behaviour vector: fixes as an OS would deliver them, by walking, driving,
/// standing, jittering, losing the signal, rebooting. Positions move on the spec's sphere; every fix has a wall
/// clock (`time_ms`), a monotonic clock (`elapsed_realtime_ms`) and a boot.
struct TraceWriter {
    /// 2026-03-01T08:00:00Z: the wall clock of the first fix.
    static let start: Int64 = 1_772_352_000_000
    static let bootA: UInt64 = 0xB007_0A0A
    static let bootB: UInt64 = 0xB007_0B0B

    var fixes: [LocationFix] = []
    /// Where the device is now, degrees.
    var latitude: Double
    var longitude: Double
    var timeMs: Int64 = TraceWriter.start
    var elapsedMs: UInt64 = 5_000_000
    var bootId: UInt64 = TraceWriter.bootA
    var accuracyCm: UInt32 = 500
    var random: SeededRandom

    init(latitude: Double = 45.380, longitude: Double = 14.145, seed: UInt64 = 1) {
        self.latitude = latitude
        self.longitude = longitude
        random = SeededRandom(seed: seed)
    }

    /// The point `metres` from (latitude, longitude) along `bearing` degrees, on the spec's sphere.
    static func destination(latitude: Double, longitude: Double, bearing: Double, metres: Double) -> (Double, Double) {
        let delta = metres / Sphere.radiusM
        let theta = bearing * .pi / 180
        let phi1 = latitude * .pi / 180
        let lambda1 = longitude * .pi / 180
        let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
        var longitude2 = lambda2 * 180 / .pi
        if longitude2 > 180 { longitude2 -= 360 } else if longitude2 < -180 { longitude2 += 360 }
        return (phi2 * 180 / .pi, longitude2)
    }

    static func e7(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }

    /// One fix at the current place and time, optionally offset `offsetM` metres along `offsetBearing` (GPS
    /// error), then the clocks advance by `stepMs`.
    @discardableResult
    mutating func fix(
        stepMs: UInt64 = 1_000, speedCmS: UInt32? = nil, accuracyCm: UInt32? = nil, offsetM: Double = 0,
        offsetBearing: Double = 0, reason: FixReason = .unspecified
    ) -> Int {
        var (lat, lon) = (latitude, longitude)
        if offsetM != 0 {
            (lat, lon) = Self.destination(latitude: lat, longitude: lon, bearing: offsetBearing, metres: offsetM)
        }
        var fix = LocationFix()
        fix.timeMs = timeMs
        fix.elapsedRealtimeMs = elapsedMs
        fix.bootId = bootId
        fix.latitudeE7 = Self.e7(lat)
        fix.longitudeE7 = Self.e7(lon)
        fix.horizontalAccuracyCm = accuracyCm ?? self.accuracyCm
        fix.speedCmS = speedCmS
        fix.reason = reason
        fixes.append(fix)
        timeMs += Int64(stepMs)
        elapsedMs += stepMs
        return fixes.count - 1
    }

    /// Moves `count` steps of `metres` each along `bearing`, one fix per step every `stepMs`; the fix carries the
    /// speed when `withSpeed`.
    mutating func move(
        bearing: Double, metres: Double, count: Int, stepMs: UInt64 = 1_000, withSpeed: Bool = true,
        jitterM: Double = 0
    ) {
        let speed = UInt32((metres / Double(stepMs) * 100_000).rounded())
        for _ in 0..<count {
            (latitude, longitude) = Self.destination(
                latitude: latitude, longitude: longitude, bearing: bearing, metres: metres)
            let jitter = jitterM > 0 ? random.uniform(0, jitterM) : 0
            fix(
                stepMs: stepMs, speedCmS: withSpeed ? speed : nil, offsetM: jitter,
                offsetBearing: random.uniform(0, 360))
        }
    }

    /// Stays put for `count` fixes every `stepMs`, each off by up to `driftM` metres (stationary drift).
    mutating func stay(count: Int, stepMs: UInt64 = 1_000, driftM: Double = 0, withSpeed: Bool = true) {
        for _ in 0..<count {
            fix(
                stepMs: stepMs, speedCmS: withSpeed ? 0 : nil, offsetM: driftM > 0 ? random.uniform(0, driftM) : 0,
                offsetBearing: random.uniform(0, 360))
        }
    }

    /// No fixes for `ms` (a tunnel, a receiver switched off).
    mutating func gap(_ ms: UInt64) {
        timeMs += Int64(ms)
        elapsedMs += ms
    }

    /// The wall clock jumps by `ms` (NTP, the user); the monotonic clock does not.
    mutating func jumpWallClock(_ ms: Int64) {
        timeMs += ms
    }

    /// The phone reboots: a new boot id, the monotonic clock starts again near 0, the wall clock goes on.
    mutating func reboot(after ms: UInt64 = 60_000, bootId: UInt64 = TraceWriter.bootB) {
        timeMs += Int64(ms)
        elapsedMs = 20_000
        self.bootId = bootId
    }

    /// Moves the position without a fix.
    mutating func teleport(bearing: Double, metres: Double) {
        (latitude, longitude) = Self.destination(
            latitude: latitude, longitude: longitude, bearing: bearing, metres: metres)
    }
}

/// The real traces the behaviour vectors replay, from `conformance/data/` (its README gives each file's origin and
/// licence). The vectors carry the fixes derived from them, with the source named in their comments.
enum RealTraces {
    /// korita-zbevnica.gpx (tkrajina/gpxpy test files, Apache-2.0): a GPS logger's hike near Rijeka, Croatia,
    /// its 513 timed points about 11 s apart.
    static let koritaFile = "korita-zbevnica.gpx"

    static let koritaSource =
        "conformance/data/korita-zbevnica.gpx (a real hike recorded by a GPS logger; tkrajina/gpxpy test files, "
        + "Apache-2.0)"
}

/// Regions for behaviour vectors.
enum RegionWriter {
    static func circle(
        _ id: String, latitude: Double, longitude: Double, radiusM: UInt32, version: UInt64 = 1,
        level: RegionLevel = .site, entry: Bool = true, exit: Bool = true, dwellMs: UInt32? = nil,
        priority: UInt32 = 0, parent: String = "", expiresAtMs: Int64 = 0
    ) -> Region {
        var region = Region()
        region.id = id
        region.version = version
        var circle = Circle()
        circle.centerLatitudeE7 = TraceWriter.e7(latitude)
        circle.centerLongitudeE7 = TraceWriter.e7(longitude)
        circle.radiusM = radiusM
        region.circle = circle
        region.level = level
        region.parentId = parent
        region.notifyOnEntry = entry
        region.notifyOnExit = exit
        if let dwellMs {
            region.notifyOnDwell = true
            region.loiteringDelayMs = dwellMs
        }
        region.priority = priority
        region.expiresAtMs = expiresAtMs
        return region
    }

    /// A polygon region: `vertices` as (latitude, longitude) degrees, with the smallest circle around its
    /// centroid that holds every vertex (plus 2 m).
    static func polygon(
        _ id: String, _ vertices: [(Double, Double)], level: RegionLevel = .site, entry: Bool = true,
        exit: Bool = true, dwellMs: UInt32? = nil, priority: UInt32 = 0, parent: String = ""
    ) -> Region {
        let centerLatitude = vertices.map(\.0).reduce(0, +) / Double(vertices.count)
        // Average longitudes across the antimeridian by unwrapping them around the first vertex.
        let first = vertices[0].1
        let unwrapped = vertices.map { $0.1 - first > 180 ? $0.1 - 360 : ($0.1 - first < -180 ? $0.1 + 360 : $0.1) }
        var centerLongitude = unwrapped.reduce(0, +) / Double(vertices.count)
        if centerLongitude > 180 { centerLongitude -= 360 } else if centerLongitude < -180 { centerLongitude += 360 }
        let center = SpherePoint(
            latitudeE7: TraceWriter.e7(centerLatitude), longitudeE7: TraceWriter.e7(centerLongitude))
        let radius = vertices.map {
            center.distanceM(to: SpherePoint(latitudeE7: TraceWriter.e7($0.0), longitudeE7: TraceWriter.e7($0.1)))
        }.max()!
        var region = circle(
            id, latitude: centerLatitude, longitude: centerLongitude, radiusM: UInt32(radius.rounded(.up)) + 2,
            level: level, entry: entry, exit: exit, dwellMs: dwellMs, priority: priority, parent: parent)
        var polygon = Polygon()
        polygon.latitudesE7 = CoordinateList(vertices.map { TraceWriter.e7($0.0) })
        polygon.longitudesE7 = CoordinateList(vertices.map { TraceWriter.e7($0.1) })
        region.polygon = polygon
        return region
    }

    /// A regular n-gon of `radiusM` around a centre, as a polygon region.
    static func regularPolygon(
        _ id: String, latitude: Double, longitude: Double, radiusM: Double, sides: Int, rotation: Double = 0,
        entry: Bool = true, exit: Bool = true, dwellMs: UInt32? = nil
    ) -> Region {
        let vertices = (0..<sides).map { side in
            TraceWriter.destination(
                latitude: latitude, longitude: longitude, bearing: rotation + Double(side) * 360 / Double(sides),
                metres: radiusM)
        }
        return polygon(id, vertices, entry: entry, exit: exit, dwellMs: dwellMs)
    }
}

extension VectorBuilder {
    /// A behaviour vector: the request and the whole response the reference engines give, which a testee must
    /// reproduce. The scenario is also run with every distance threshold moved by ±1 cm; a different output
    /// there means the scenario sits on an edge that floating-point noise could flip (`§distance-tolerance`),
    /// and the generation stops. `equivalent`, when given, is a request the rules say has the same response (the
    /// same scenario without its relaunches, `§rec-relaunch`); the generation stops when its response differs.
    mutating func behavior<Request: BehaviorRequest>(
        _ id: String, rules: [String], _ comment: String, _ request: Request,
        slackRun: ((Request, Double) -> Request.Response)? = nil, equivalent: Request? = nil
    ) {
        precondition(!rules.isEmpty, "\(id): a vector names the rules it checks")
        for rule in rules { precondition(SpecRules.behaviour.contains(rule), "\(id): unknown rule \(rule)") }
        var request = request
        request.vectorId = ""
        let expected = Self.reference(request)
        if case .some(let failure) = expected.failure { preconditionFailure("\(id): the reference failed: \(failure)") }
        if var equivalent {
            equivalent.vectorId = ""
            precondition(
                Self.reference(equivalent) == expected,
                "\(id): the response differs from the equivalent request's (a relaunch changed the outcome)")
        }
        if let slackRun {
            for slack in [-0.01, 0.01] {
                var nudged = slackRun(request, slack)
                nudged.vectorId = ""
                precondition(
                    nudged == expected,
                    "\(id): the outputs change when distance thresholds move by \(slack) m: the scenario sits on an "
                        + "edge; move it")
            }
        }
        let requestJSON: JSONValue
        let responseJSON: JSONValue
        do {
            requestJSON = try JSONValue.parse(request.jsonString())
            responseJSON = try JSONValue.parse(expected.jsonString())
        } catch {
            preconditionFailure("\(id): the JSON does not parse: \(error)")
        }
        let vector = Vector(
            id: id, messageType: Request.schema.fullName, result: .valid, request: requestJSON,
            expectedResponse: responseJSON, rules: rules, flags: [family], comment: comment)
        do {
            let readBack = try BehaviorEvaluation.request(Request.self, of: vector)
            var original = request
            original.vectorId = id
            precondition(readBack == original, "\(id): the request's JSON loses something")
            let judged = BehaviorEvaluation.judge(
                vector, expected: try BehaviorEvaluation.expectedResponse(Request.self, of: vector),
                actual: {
                    var response = expected
                    response.vectorId = id
                    return response
                }())
            precondition(judged == nil, "\(id): the response's JSON loses something: \(judged!)")
        } catch {
            preconditionFailure("\(id): the vector does not read back: \(error)")
        }
        add(vector)
    }

    /// The built-in testee's answer.
    static func reference<Request: BehaviorRequest>(_ request: Request) -> Request.Response {
        let response = BuiltinTestee().handle(TesteeRequest(request.envelopeKind))
        guard let kind = response.kind, let answer = Request.response(in: kind) else {
            preconditionFailure("the built-in testee answered \(Request.self) with something else")
        }
        return answer
    }
}
