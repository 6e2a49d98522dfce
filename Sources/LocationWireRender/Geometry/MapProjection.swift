import Foundation
import LocationWireBehavior
import LocationWireGeometry

/// A Web-Mercator projection fitted to a box of coordinates and a plot rectangle in pixels: no tiles, no
/// network, just the maths. Pixels grow right and down, as SVG's do.
///
/// Invariants: `pixelsPerUnit` is finite and positive; a box of no extent (one point) is widened to
/// ``minimumSpanM`` so a single fix still gets a scale. Latitudes are clamped to ±85.05113°, where Mercator ends.
public struct MapProjection: Sendable, Equatable {
    /// The narrowest view, metres on the ground: one point, or fixes all at one place, show this much around them.
    public static let minimumSpanM = 200.0
    /// Web Mercator's latitude limit, degrees.
    public static let latitudeLimit = 85.051_128_78

    /// The plot rectangle, pixels.
    public let plot: Rect
    /// Pixels per Mercator unit (the unit is one metre at the equator: x = R·λ, y = R·ln tan(π/4 + φ/2)).
    public let pixelsPerUnit: Double
    /// The Mercator coordinates that land at the plot's centre.
    let centerX: Double
    let centerY: Double

    public struct Rect: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Fits `coordinates` (latitude, longitude in degrees) into `plot`, keeping the aspect ratio, centred.
    /// An empty list fits the point 0, 0.
    public init(fitting coordinates: [(latitude: Double, longitude: Double)], into plot: Rect) {
        self.plot = plot
        let points = coordinates.isEmpty ? [(latitude: 0.0, longitude: 0.0)] : coordinates
        let xs = points.map { Self.mercatorX($0.longitude) }
        let ys = points.map { Self.mercatorY($0.latitude) }
        var minX = xs.min()!
        var maxX = xs.max()!
        var minY = ys.min()!
        var maxY = ys.max()!
        // A Mercator unit is cos φ metres on the ground: widen a small box to the minimum span at its latitude.
        let middleLatitude = Self.latitude(fromMercatorY: (minY + maxY) / 2)
        let minimumUnits = Self.minimumSpanM / max(cos(middleLatitude * .pi / 180), 1e-6)
        if maxX - minX < minimumUnits {
            let middle = (minX + maxX) / 2
            (minX, maxX) = (middle - minimumUnits / 2, middle + minimumUnits / 2)
        }
        if maxY - minY < minimumUnits {
            let middle = (minY + maxY) / 2
            (minY, maxY) = (middle - minimumUnits / 2, middle + minimumUnits / 2)
        }
        let scale = min(max(plot.width, 1) / (maxX - minX), max(plot.height, 1) / (maxY - minY))
        pixelsPerUnit = scale.isFinite && scale > 0 ? scale : 1
        centerX = (minX + maxX) / 2
        centerY = (minY + maxY) / 2
    }

    /// The pixel where a coordinate (degrees) lands.
    public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let x = plot.x + plot.width / 2 + (Self.mercatorX(longitude) - centerX) * pixelsPerUnit
        let y = plot.y + plot.height / 2 - (Self.mercatorY(latitude) - centerY) * pixelsPerUnit
        return (x, y)
    }

    /// The coordinate (degrees) at a pixel: the inverse of ``project(latitude:longitude:)``.
    public func unproject(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        let mercatorX = centerX + (x - plot.x - plot.width / 2) / pixelsPerUnit
        let mercatorY = centerY - (y - plot.y - plot.height / 2) / pixelsPerUnit
        return (Self.latitude(fromMercatorY: mercatorY), mercatorX / Sphere.radiusM * 180 / .pi)
    }

    /// Ground metres one pixel spans at `latitude` (degrees): Mercator stretches by 1 / cos φ.
    public func metresPerPixel(atLatitude latitude: Double) -> Double {
        cos(Self.clamped(latitude) * .pi / 180) / pixelsPerUnit
    }

    /// The latitude (degrees) at the plot's vertical centre.
    public var centerLatitude: Double { Self.latitude(fromMercatorY: centerY) }

    /// A scale bar for the plot's centre latitude: the largest 1, 2 or 5 × 10ⁿ metres no longer than
    /// `maximumPixels`, and its length in pixels. At least 1 m.
    public func scaleBar(maximumPixels: Double) -> (metres: Double, pixels: Double) {
        let metresPerPixel = metresPerPixel(atLatitude: centerLatitude)
        let metres = Self.roundDistance(atMost: max(maximumPixels, 1) * metresPerPixel)
        return (metres, metres / metresPerPixel)
    }

    /// The largest 1, 2 or 5 × 10ⁿ (n ≥ 0) that is at most `limit`; 1 when `limit` is below 1.
    public static func roundDistance(atMost limit: Double) -> Double {
        guard limit.isFinite, limit >= 1 else { return 1 }
        let power = pow(10, floor(log10(limit)))
        for step in [5.0, 2, 1] where step * power <= limit { return step * power }
        return power
    }

    /// "500 m", "2 km", "20 km".
    public static func distanceLabel(_ metres: Double) -> String {
        metres >= 1000 ? "\(formatted(metres / 1000)) km" : "\(formatted(metres)) m"
    }

    static func formatted(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    static func clamped(_ latitude: Double) -> Double { min(max(latitude, -latitudeLimit), latitudeLimit) }

    static func mercatorX(_ longitude: Double) -> Double { Sphere.radiusM * longitude * .pi / 180 }

    static func mercatorY(_ latitude: Double) -> Double {
        Sphere.radiusM * log(tan(.pi / 4 + clamped(latitude) * .pi / 360))
    }

    static func latitude(fromMercatorY y: Double) -> Double {
        (2 * atan(exp(y / Sphere.radiusM)) - .pi / 2) * 180 / .pi
    }
}
