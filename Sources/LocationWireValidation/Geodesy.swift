import LocationWireGeometry

/// The distance rules' geometry. The spec (proto/README.md) defines distances for validation as great-circle
/// distances on the spec's sphere (``Sphere``, in LocationWireGeometry, which behaviour measures on too), so every
/// implementation reaches the same verdict; the rules allow 1 m of slack for rounding.
enum Geodesy {
    static let earthRadiusM = Sphere.radiusM

    /// The chord of the unit sphere that spans a great-circle distance of `meters`. Comparing chords needs no
    /// inverse trigonometry: for arcs up to half the globe the chord grows with the arc.
    static func chordLength(spanning meters: Double) -> Double {
        Sphere.squaredChord(spanning: meters).squareRoot()
    }

    /// The straight-line distance through the unit sphere between two points.
    static func chord(_ a: SpherePoint, _ b: SpherePoint) -> Double {
        a.squaredChord(to: b).squareRoot()
    }

    /// A chord in metres on the earth's sphere: a close under-estimate of the great-circle distance at region
    /// scales; used in messages only.
    static func approximateDistanceM(chord: Double) -> Double {
        chord * earthRadiusM
    }
}

extension Geodesy {
    /// The reference verdict of the distance rules (`polygon-outside-circle`, `child-outside-parent`): the chord
    /// from the centre to the point when it exceeds the chord of `spanM` metres, nil when the point is within.
    /// Four trigonometric calls per point; ``Cap`` reaches the same verdict, bit for bit, mostly without them.
    static func chordBeyondLimitByExactMath(
        centreLatitudeE7: Int32, centreLongitudeE7: Int32, spanM: Double, latitudeE7: Int32, longitudeE7: Int32
    ) -> Double? {
        let centre = SpherePoint(latitudeE7: centreLatitudeE7, longitudeE7: centreLongitudeE7)
        let chord = chord(centre, SpherePoint(latitudeE7: latitudeE7, longitudeE7: longitudeE7))
        return chord > chordLength(spanning: spanM) ? chord : nil
    }

    /// The points within `spanM` metres of great circle from a centre, as ``chordBeyondLimitByExactMath`` decides,
    /// with a conservative bound in front that needs no trigonometry per point.
    ///
    /// The bound is an upper bound U on the true squared chord between the centre (φc, λc) and a point
    /// (φc + d, λc + l), from the haversine identity chord² = 4 sin²(d/2) + 4 cos φc cos(φc + d) sin²(l/2). A
    /// coarse one first (the comment in `isCertainlyWithin`), then, for the points it leaves, a tight one:
    /// - 4 sin²(x/2) = x² − x⁴/12 + x⁶/360 − …; for x² ≤ 12 the terms shrink, so stopping after x⁶/360 bounds it
    ///   from above (`upperSquaredChordSine`); l is the longitude difference wrapped into [−π, π].
    /// - cos(φc + d) = c cos d − s sin d (c = cos φc ≥ 0, s = sin φc) is at most c(1 − d²/2 + d⁴/24) −
    ///   s(d − d³/6) + |s||d|⁵/120, by the same argument for |d| ≤ 0.5; and it is ≥ 0 since both latitudes are
    ///   within ±90°. c and s come from ``boundedSin``, within `sineError`; as the coefficients of c and s sum to
    ///   at most 1.5 for |d| ≤ 0.5, the bound adds twice that (`padding`, three times `sineError`).
    /// This bound overshoots by about d⁸/20160 and l⁸/20160 relative to d² and l² (nanometres for a 150 m region,
    /// about a millimetre for a 1000 km one, more near a pole, where l reaches π).
    ///
    /// Then chord_true ≤ √U, and the reference's chord (``Geodesy/chord(_:_:)``) is within `referenceChordError`
    /// of chord_true; its limit (``chordLength(spanning:)``) is within `limitError` of the same expression with
    /// ``boundedSin``. A point with U ≤ (limit − limitError − referenceChordError)², shrunk by 1e-12 for the
    /// rounding of U and of that threshold (at most about 40 roundings of 1.1e-16 each, relative, since every
    /// term of U is non-negative), is therefore within by the reference as well. Every other point (within about
    /// 1.5 µm of the edge, or near a pole, out of range or more than 28° of latitude away) gets the reference
    /// computation itself, so the verdicts, the chords in messages and hence the codes and paths are identical.
    struct Cap {
        private let centreLatitudeE7: Int32
        private let centreLongitudeE7: Int32
        private let spanM: Double
        /// With ĉ and ŝ, cos φc and sin φc by ``boundedSin``, and cU = ĉ + sineError (an upper bound of the
        /// true cos φc), the products with cU that the bound on cos φc · cos(φc + d) takes: cU ĉ, cU ŝ, cU |ŝ|/120
        /// and cU times the padding. Rounding them costs at most 1.1e-16 cU each, inside the padding's spare.
        private let cosProduct: Double
        private let sinProduct: Double
        private let sinRemainderProduct: Double
        private let padding: Double
        /// Squared chords at most this are within; negative when the bound decides nothing.
        private let threshold: Double
        /// The reference's centre and limit, computed on the first point the bound leaves undecided.
        private var exact: (centre: SpherePoint, limit: Double)?

        /// Radians per 1e-7 degree.
        private static let radiansPerE7 = 1e-7 * .pi / 180
        /// Bound on the error of ``boundedSin``, of `Sphere.sinCos` and of libm's `sin` for the arguments used
        /// here, including the rounding of the argument: the Taylor sums' own error is below 4e-15 (the terms'
        /// relative errors weighted by their size sum to about 3 units in the last place of 1, each of at most 15
        /// additions rounds by half a unit of a partial sum below 1.6), the reductions and the degree-to-radian
        /// conversion add below 2e-15. ValidationGeodesyTests measures them against libm.
        static let sineError = 1e-14
        /// Bound on |reference chord − true chord| on the unit sphere: each component of a `SpherePoint` is a
        /// product of two values within `sineError`, so within 2.1e-14; a vector is within √3 times that, two
        /// within 7.3e-14, plus under 1e-15 for the subtraction, squares and root. Taken with a factor of 2.7 to
        /// spare: 2e-13 of the unit sphere is 1.3 µm.
        static let referenceChordError = 2e-13
        /// |2 boundedSin(x) − 2 sin(x)| for the same argument x, both within `sineError` of the true sine.
        static let limitError = 4 * sineError

        init(centreLatitudeE7: Int32, centreLongitudeE7: Int32, spanM: Double) {
            self.centreLatitudeE7 = centreLatitudeE7
            self.centreLongitudeE7 = centreLongitudeE7
            self.spanM = spanM
            let latitude = Double(centreLatitudeE7) * 1e-7 * .pi / 180
            let inRange = (-900_000_000...900_000_000).contains(centreLatitudeE7) && spanM >= 0
            let cosCentre = inRange ? Geodesy.boundedSin(.pi / 2 - abs(latitude)) : 0
            let sinCentre = inRange ? Geodesy.boundedSin(latitude) : 0
            let cosCentreUpper = cosCentre + Self.sineError
            cosProduct = cosCentreUpper * cosCentre
            sinProduct = cosCentreUpper * sinCentre
            sinRemainderProduct = cosCentreUpper * abs(sinCentre) * (1.0 / 120)
            padding = cosCentreUpper * 3 * Self.sineError
            // The same argument as chordLength(spanning:), so the two limits differ only by their sines.
            let limit = 2 * Geodesy.boundedSin(min(max(spanM, 0) / earthRadiusM, .pi) / 2)
            let margin = limit - Self.limitError - Self.referenceChordError
            threshold = inRange && margin > 0 ? margin * margin * (1 - 1e-12) : -1
        }

        /// True when the bound proves the point within; false when it cannot tell.
        func isCertainlyWithin(latitudeE7: Int32, longitudeE7: Int32) -> Bool {
            let latitudeDifference = Int(latitudeE7) - Int(centreLatitudeE7)
            // 28° keeps |d| ≤ 0.49 rad, where the bound on cos(φc + d) holds; beyond, the point is at least 28° away.
            guard (-900_000_000...900_000_000).contains(latitudeE7), abs(latitudeDifference) <= 280_000_000 else {
                return false
            }
            // Coordinates are Int32, so the difference is within ±429.5°: one turn brings it into [−180°, 180°].
            var longitudeDifference = Int(longitudeE7) - Int(centreLongitudeE7)
            if longitudeDifference > 1_800_000_000 {
                longitudeDifference -= 3_600_000_000
            } else if longitudeDifference < -1_800_000_000 {
                longitudeDifference += 3_600_000_000
            }
            let d = Double(latitudeDifference) * Self.radiansPerE7
            let l = Double(longitudeDifference) * Self.radiansPerE7
            let dSquared = d * d
            let lSquared = l * l
            // First the coarser bound: 4 sin²(x/2) ≤ x², and cos(φc + d) ≤ cos φc − d sin φc, the tangent of the
            // cosine, which is concave between the two latitudes. It decides a small region's vertices alone.
            if dSquared + (cosProduct - sinProduct * d + padding) * lSquared <= threshold { return true }
            let cosD = 1 + dSquared * (-0.5 + dSquared * (1.0 / 24))
            let sinD = d * (1 + dSquared * (-1.0 / 6))
            // cU times the upper bound of cos(φc + d) (the type's comment), distributed over its terms.
            let cosProductUpper =
                cosProduct * cosD - sinProduct * sinD + sinRemainderProduct * abs(d) * dSquared * dSquared + padding
            let bound = Self.upperSquaredChordSine(dSquared) + cosProductUpper * Self.upperSquaredChordSine(lSquared)
            return bound <= threshold
        }

        /// The reference chord when the point is beyond the limit, nil when it is within; bit for bit
        /// ``chordBeyondLimitByExactMath``.
        mutating func chordBeyondLimit(latitudeE7: Int32, longitudeE7: Int32) -> Double? {
            if isCertainlyWithin(latitudeE7: latitudeE7, longitudeE7: longitudeE7) { return nil }
            let exact =
                self.exact
                ?? (
                    SpherePoint(latitudeE7: centreLatitudeE7, longitudeE7: centreLongitudeE7),
                    chordLength(spanning: spanM)
                )
            self.exact = exact
            let chord = Geodesy.chord(exact.centre, SpherePoint(latitudeE7: latitudeE7, longitudeE7: longitudeE7))
            return chord > exact.limit ? chord : nil
        }

        /// x² − x⁴/12 + x⁶/360 for x² = `square` ≤ 12: at least 4 sin²(x/2) (see the type's comment).
        private static func upperSquaredChordSine(_ square: Double) -> Double {
            square * (1 + square * (-1.0 / 12 + square * (1.0 / 360)))
        }
    }

    /// sin x for |x| ≤ π/2 by its Taylor series to x²¹/21!, nested (x(1 − x²/6 (1 − x²/20 (1 − …)))) so that it
    /// takes multiplications only. The first term left out is below 1.2e-18; each level of the nesting is in
    /// [0.5, 1] and scales the error of the level inside it by x²/(n(n−1)) ≤ 0.42, so rounding adds less than 4
    /// units in the last place: within 1e-15 of sin x, far inside `Cap.sineError`.
    static func boundedSin(_ x: Double) -> Double {
        let square = x * x
        var nested = 1 - square * (1.0 / 420)
        nested = 1 - square * (1.0 / 342) * nested
        nested = 1 - square * (1.0 / 272) * nested
        nested = 1 - square * (1.0 / 210) * nested
        nested = 1 - square * (1.0 / 156) * nested
        nested = 1 - square * (1.0 / 110) * nested
        nested = 1 - square * (1.0 / 72) * nested
        nested = 1 - square * (1.0 / 42) * nested
        nested = 1 - square * (1.0 / 20) * nested
        nested = 1 - square * (1.0 / 6) * nested
        return x * nested
    }
}
