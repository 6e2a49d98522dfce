import Foundation

/// A point a file marks rather than records: a waypoint (GPX `<wpt>`, a KML marker placemark, a TCX course point),
/// or a point of a planned route (GPX `<rtept>`). Neither is a fix: nobody was there at a time. They are imported
/// only on request, as what they are: waypoints as places (a region catalogue `locwire plan` reads), routes as
/// lines (GeoJSON LineStrings).
public struct MarkedPoint: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case waypoint
        case routePoint = "route point"
    }

    public var kind: Kind
    /// The point's own name (`<name>`), when it has one.
    public var name: String?
    /// Degrees, WGS 84.
    public var latitude: Double
    public var longitude: Double
    /// For a route point, its route's number in the file (from 0) and name.
    public var route = 0
    public var routeName: String?
    /// Where it is in the file ("line 12").
    public var location: String

    public init(
        kind: Kind, name: String?, latitude: Double, longitude: Double, route: Int = 0, routeName: String? = nil,
        location: String
    ) {
        self.kind = kind
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.route = route
        self.routeName = routeName
        self.location = location
    }
}

/// Which marked points an import keeps (``ImportOptions/keep``); the others are counted as records that are not
/// points.
public struct MarkedKinds: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let waypoints = MarkedKinds(rawValue: 1)
    public static let routes = MarkedKinds(rawValue: 2)

    func contains(_ kind: MarkedPoint.Kind) -> Bool {
        contains(kind == .waypoint ? .waypoints : .routes)
    }
}

/// Writing the marked points an import kept.
public enum MarkedPlaces {
    /// The waypoints as a region catalogue in GeoJSON (README, "Region catalogues in GeoJSON"): a circle of
    /// `radiusM` metres around each, level `site`, notifying on entry and exit. The id is `waypoint:` and the
    /// waypoint's name (``localId(_:)``; made unique with `-2`, `-3`, ...), or `waypoint:N` for one without a
    /// name (N counted from 1 in file order); the name itself is kept as `name`.
    public static func regionCatalogue(_ points: [MarkedPoint], radiusM: Int) -> String {
        var used = Set<String>()
        var features: [String] = []
        for (index, point) in points.enumerated() where point.kind == .waypoint {
            let base = "waypoint:" + (point.name.map(localId) ?? "\(index + 1)")
            var id = base
            var suffix = 2
            while !used.insert(id).inserted {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            var properties: [(String, String)] = [
                ("id", JSONText.string(id)), ("level", "\"site\""), ("radius_m", "\(radiusM)"),
                ("notify_on_entry", "true"), ("notify_on_exit", "true"),
            ]
            if let name = point.name { properties.append(("name", JSONText.string(name))) }
            features.append(feature(geometry: "Point", coordinates: position(point), properties: properties))
        }
        return collection(features)
    }

    /// The routes as GeoJSON: one LineString feature a route, in file order, with its `name` when it has one and
    /// each point's name in `point_names` (null for a point without one).
    public static func routeLines(_ points: [MarkedPoint]) -> String {
        let routePoints = points.filter { $0.kind == .routePoint }
        var features: [String] = []
        var start = routePoints.startIndex
        while start < routePoints.endIndex {
            let route = routePoints[start].route
            let end = routePoints[start...].firstIndex { $0.route != route } ?? routePoints.endIndex
            let line = routePoints[start..<end]
            var properties: [(String, String)] = [
                ("point_names", "[" + line.map { $0.name.map(JSONText.string) ?? "null" }.joined(separator: ",") + "]")
            ]
            if let name = line.first?.routeName { properties.insert(("name", JSONText.string(name)), at: 0) }
            features.append(
                feature(
                    geometry: "LineString", coordinates: "[" + line.map(position).joined(separator: ",") + "]",
                    properties: properties))
            start = end
        }
        return collection(features)
    }

    /// A name as a region id's local part (proto/README.md, Regions, Identity: `[A-Za-z0-9_.:/-]`, at most 95 characters): each
    /// other character becomes `_`, and the name is cut to 88 characters, leaving room for a `-N` suffix.
    public static func localId(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/-")
        return String(name.trimmingASCIIWhitespace().prefix(88).map { allowed.contains($0) ? $0 : "_" })
    }

    private static func position(_ point: MarkedPoint) -> String {
        "[\(decimal(point.longitude)),\(decimal(point.latitude))]"
    }

    /// Degrees to 1e-7 (about a centimetre), as the fixes carry them.
    private static func decimal(_ degrees: Double) -> String {
        GPXFormat.decimal(Int64((degrees * 1e7).rounded()), places: 7)
    }

    private static func feature(geometry: String, coordinates: String, properties: [(String, String)]) -> String {
        JSONText.object([
            ("geometry", JSONText.object([("coordinates", coordinates), ("type", JSONText.string(geometry))])),
            ("properties", JSONText.object(properties)), ("type", "\"Feature\""),
        ])
    }

    private static func collection(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }
}
