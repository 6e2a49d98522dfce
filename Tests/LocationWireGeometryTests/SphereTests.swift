import Foundation
import LocationWireGeometry
import LocationWireRandom
import Testing

/// The spec's sphere, checked against facts from outside it: known distances, the haversine it must equal, and
/// libm's sine and cosine.
@Suite struct SphereTests {
    @Test("§distance: a degree of latitude on the spec's sphere is π·R/180, and the equator's half is π·R")
    func knownDistances() {
        let degree = Sphere.distanceM(latitudeE7: 0, longitudeE7: 0, latitudeE7: 10_000_000, longitudeE7: 0)
        #expect(abs(degree - Double.pi * 6_371_008.8 / 180) < 1e-6)
        let half = Sphere.distanceM(latitudeE7: 0, longitudeE7: 0, latitudeE7: 0, longitudeE7: 1_800_000_000)
        #expect(abs(half - Double.pi * 6_371_008.8) < 1e-3)
        // Across the antimeridian: 0.002° of longitude at the equator, not 359.998°.
        let across = Sphere.distanceM(
            latitudeE7: 0, longitudeE7: 1_799_990_000, latitudeE7: 0, longitudeE7: -1_799_990_000)
        #expect(abs(across - 0.002 * Double.pi * 6_371_008.8 / 180) < 1e-6)
    }

    @Test("§distance-tolerance: the engines' chord comparisons equal the haversine within far less than 1 mm")
    func chordsMatchTheHaversine() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<20_000 {
            let latitude = Int32(random.uniform(-899_999_999, 899_999_999))
            let longitude = Int32(random.uniform(-1_799_999_999, 1_799_999_999))
            let reach = Int32(random.uniform(-2_000_000, 2_000_000))
            let other = (
                Int32(clamping: Int64(latitude) + Int64(reach)),
                Int32(clamping: Int64(longitude) + Int64(random.uniform(-2_000_000, 2_000_000)))
            )
            let haversine = Sphere.distanceM(
                latitudeE7: latitude, longitudeE7: longitude, latitudeE7: other.0, longitudeE7: other.1)
            let chord = SpherePoint(latitudeE7: latitude, longitudeE7: longitude)
                .distanceM(to: SpherePoint(latitudeE7: other.0, longitudeE7: other.1))
            #expect(abs(haversine - chord) < 1e-4, "\(latitude),\(longitude) to \(other)")
        }
    }

    @Test(
        "§distance-tolerance: the engines' sine and cosine are libm's within 4e-16, over every angle a coordinate gives"
    )
    func sinCosMatchesLibm() {
        var random = SeededRandom(seed: 5)
        var worst = 0.0
        for step in 0..<200_000 {
            let x = step < 16 ? Double(step - 8) * .pi / 4 : random.uniform(-3.8, 3.8)
            let (sine, cosine) = Sphere.sinCos(x)
            worst = max(worst, abs(sine - sin(x)), abs(cosine - cos(x)))
        }
        #expect(worst < 4e-16, "worst difference \(worst)")
    }
}
