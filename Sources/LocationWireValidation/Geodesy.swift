/// Just enough spherical geometry for validation, without Foundation. The spec (proto/README.md) defines
/// distances for validation as great-circle distances on a sphere of the earth's mean radius, 6371008.8 m, so
/// every implementation reaches the same verdict; the rules allow 1 m of slack for rounding.
enum Geodesy {
    static let earthRadiusM = 6_371_008.8

    /// A point on the unit sphere; converting a coordinate costs four trigonometric calls, so a rule that
    /// compares many points with one centre converts the centre once.
    struct UnitVector {
        let x: Double
        let y: Double
        let z: Double

        init(latitudeE7: Int32, longitudeE7: Int32) {
            let latitude = Double(latitudeE7) * 1e-7 * .pi / 180
            let longitude = Double(longitudeE7) * 1e-7 * .pi / 180
            let cosLatitude = Geodesy.cos(latitude)
            x = cosLatitude * Geodesy.cos(longitude)
            y = cosLatitude * Geodesy.sin(longitude)
            z = Geodesy.sin(latitude)
        }

        /// The straight-line distance through the unit sphere to `other`.
        func chord(to other: UnitVector) -> Double {
            let dx = x - other.x
            let dy = y - other.y
            let dz = z - other.z
            return (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }

    /// The chord of the unit sphere that spans a great-circle distance of `meters`. Comparing chords needs no
    /// inverse trigonometry: for arcs up to half the globe the chord grows with the arc.
    static func chordLength(spanning meters: Double) -> Double {
        2 * sin(min(meters / earthRadiusM, .pi) / 2)
    }

    /// A chord in metres on the earth's sphere: a close under-estimate of the great-circle distance at region
    /// scales; used in messages only.
    static func approximateDistanceM(chord: Double) -> Double {
        chord * earthRadiusM
    }

    /// sin by Taylor series after reduction to [-pi/2, pi/2]; error below 1e-15 there.
    static func sin(_ x: Double) -> Double {
        var angle = x.truncatingRemainder(dividingBy: 2 * .pi)
        if angle > .pi { angle -= 2 * .pi } else if angle < -.pi { angle += 2 * .pi }
        if angle > .pi / 2 { angle = .pi - angle } else if angle < -.pi / 2 { angle = -.pi - angle }
        let square = angle * angle
        var term = angle
        var sum = angle
        for n in stride(from: 2.0, through: 30.0, by: 2.0) {
            term *= -square / (n * (n + 1))
            sum += term
        }
        return sum
    }

    static func cos(_ x: Double) -> Double { sin(x + .pi / 2) }
}
