import Foundation
import LocationWireGeometry
import LocationWireRandom
import Testing

@testable import LocationWireValidation

/// The distance rules' fast bound (`Geodesy.Cap`) against the reference computation it stands in front of
/// (`Geodesy.chordBeyondLimitByExactMath`): the same verdict and the same chord for every point, many of them placed
/// within millimetres of the edge, around the poles, across the antimeridian and out of range.
@Suite struct ValidationGeodesyTests {
    /// The error bound the proof assumes, measured against libm (itself within one unit in the last place).
    @Test func sinesAreWithinTheAssumedBound() {
        var random = SeededRandom(seed: 14)
        var fastWorst = 0.0
        var referenceWorst = 0.0
        for _ in 0..<20_000 {
            let x = random.uniform(-.pi / 2, .pi / 2)
            fastWorst = max(fastWorst, abs(Geodesy.boundedSin(x) - sin(x)))
            // Every angle a coordinate in 1e-7 degree can give, as the reference converts it.
            let e7 = Int32(truncatingIfNeeded: Int64(random.next() >> 32) - (1 << 31))
            let angle = Double(e7) * 1e-7 * .pi / 180
            let (sine, cosine) = Sphere.sinCos(angle)
            referenceWorst = max(referenceWorst, abs(sine - sin(angle)), abs(cosine - cos(angle)))
        }
        #expect(fastWorst <= Geodesy.Cap.sineError / 4, "boundedSin is off by \(fastWorst)")
        #expect(referenceWorst <= Geodesy.Cap.sineError / 4, "Sphere.sinCos is off by \(referenceWorst)")
    }

    enum Centre: CaseIterable {
        case anywhere, nearPole, acrossAntimeridian, outOfRange
    }

    @Test(arguments: Centre.allCases)
    func capDecidesAsTheExactMath(centres: Centre) {
        var random = SeededRandom(seed: 1400 + UInt64(Centre.allCases.firstIndex(of: centres)!))
        var points = 0
        var decidedByBound = 0
        var outside = 0
        var nearestDecidedM = Double.infinity
        var withinMillimetre = 0
        for _ in 0..<400 {
            let near = Self.centre(centres, &random)
            // Out of range: the same place with its latitude beyond the pole (spec rules judge it all the same).
            let centre = centres == .outOfRange ? Self.beyondThePole(near) : near
            let radiusM = Self.radius(&random)
            let spanM = Double(radiusM) + 1
            var cap = Geodesy.Cap(centreLatitudeE7: centre.latitude, centreLongitudeE7: centre.longitude, spanM: spanM)
            let limit = Geodesy.chordLength(spanning: spanM)
            for _ in 0..<100 {
                var point = Self.point(around: near, spanM: spanM, &random)
                if centres == .outOfRange, random.index(2) == 0 { point = Self.beyondThePole(point) }
                let exact = Geodesy.chordBeyondLimitByExactMath(
                    centreLatitudeE7: centre.latitude, centreLongitudeE7: centre.longitude, spanM: spanM,
                    latitudeE7: point.latitude, longitudeE7: point.longitude)
                let fast = cap.chordBeyondLimit(latitudeE7: point.latitude, longitudeE7: point.longitude)
                #expect(
                    fast == exact,
                    "centre \(centre), radius \(radiusM) m, point \(point): \(String(describing: fast)) against \(String(describing: exact))"
                )
                points += 1
                if exact != nil { outside += 1 }
                // How far inside the edge, by the reference's own chord, in metres of the unit sphere's scale.
                let chord = Geodesy.chord(
                    SpherePoint(latitudeE7: centre.latitude, longitudeE7: centre.longitude),
                    SpherePoint(latitudeE7: point.latitude, longitudeE7: point.longitude))
                let insideM = (limit - chord) * Geodesy.earthRadiusM
                if abs(insideM) < 1e-3 { withinMillimetre += 1 }
                if cap.isCertainlyWithin(latitudeE7: point.latitude, longitudeE7: point.longitude) {
                    decidedByBound += 1
                    #expect(exact == nil)
                    nearestDecidedM = min(nearestDecidedM, insideM)
                }
            }
        }
        // Both sides of the edge and both paths are exercised, and points near the edge are common.
        #expect(outside > points / 10)
        #expect(withinMillimetre > points / 100, "\(withinMillimetre) of \(points) within 1 mm of the edge")
        if centres == .outOfRange {
            #expect(decidedByBound == 0)
        } else {
            #expect(decidedByBound > points / 4, "\(decidedByBound) of \(points) decided by the bound")
            // The bound decides points down to a few micrometres of the edge, not a coarse band.
            #expect(nearestDecidedM < 1e-4, "nearest point the bound decided: \(nearestDecidedM) m inside")
        }
    }

    /// A spec region: 1 m to 1000 km, log-uniform, with a few beyond the spec's range (judged all the same).
    static func radius(_ random: inout SeededRandom) -> UInt32 {
        random.index(20) == 0
            ? UInt32(random.uniform(1e6, 2.5e7)) : UInt32(exp(random.uniform(0, log(1e6))).rounded())
    }

    static func centre(_ kind: Centre, _ random: inout SeededRandom) -> (latitude: Int32, longitude: Int32) {
        func e7(_ degrees: Double) -> Int32 { Int32((degrees * 1e7).rounded()) }
        switch kind {
        case .nearPole:
            let latitude = 90 - exp(random.uniform(log(1e-7), log(0.5)))
            return (e7(random.index(2) == 0 ? latitude : -latitude), e7(random.uniform(-180, 180)))
        case .acrossAntimeridian:
            let longitude = 180 - exp(random.uniform(log(1e-7), log(0.5)))
            return (e7(random.uniform(-80, 80)), e7(random.index(2) == 0 ? longitude : -longitude))
        case .anywhere, .outOfRange:
            return (e7(asin(random.uniform(-1, 1)) * 180 / .pi), e7(random.uniform(-180, 180)))
        }
    }

    /// The same point on the sphere with a latitude beyond ±90°: φ → ±180° − φ on the opposite meridian.
    static func beyondThePole(_ point: (latitude: Int32, longitude: Int32)) -> (latitude: Int32, longitude: Int32) {
        let latitude = (point.latitude >= 0 ? 1_800_000_000 : -1_800_000_000) - point.latitude
        let longitude = point.longitude > 0 ? point.longitude - 1_800_000_000 : point.longitude + 1_800_000_000
        return (latitude, longitude)
    }

    /// A point at a random bearing: mostly within 2 cm of the edge (coordinates are 1.1 cm apart), some farther
    /// on either side; its longitude sometimes a turn off (within Int32), as an untrusted message may give it.
    static func point(
        around centre: (latitude: Int32, longitude: Int32), spanM: Double, _ random: inout SeededRandom
    ) -> (latitude: Int32, longitude: Int32) {
        let distanceM: Double
        switch random.index(4) {
        case 0, 1: distanceM = spanM + random.uniform(-0.02, 0.02)
        case 2: distanceM = spanM * random.uniform(0, 1)
        default: distanceM = spanM + random.uniform(-1, 1) * min(spanM, 1000)
        }
        let angle = min(max(distanceM, 0) / Geodesy.earthRadiusM, .pi)
        let bearing = random.uniform(0, 2 * .pi)
        let phi = Double(centre.latitude) * 1e-7 * .pi / 180
        let lambda = Double(centre.longitude) * 1e-7 * .pi / 180
        let phi2 = asin(min(max(sin(phi) * cos(angle) + cos(phi) * sin(angle) * cos(bearing), -1), 1))
        let lambda2 = lambda + atan2(sin(bearing) * sin(angle) * cos(phi), cos(angle) - sin(phi) * sin(phi2))
        var longitude = remainder(lambda2 * 180 / .pi, 360)
        if random.index(4) == 0, abs(longitude) > 150 { longitude += longitude < 0 ? 360 : -360 }
        return (Int32((phi2 * 180 / .pi * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }
}
