import Foundation
import LocationWire
import LocationWireFiles
import LocationWireGeometry
import LocationWireJSON

/// Region catalogues and assignments for `locwire plan`, `locwire simulate fences` and the reference server: a
/// RegionAssignment in protobuf binary or proto3 JSON, or a GeoJSON FeatureCollection (README.md, "Region
/// catalogues in GeoJSON", is the definition). Every error is a ``RegionCatalogueError`` that names the file and
/// the line or field.
public enum RegionCatalogueFile {
    /// The catalogue's regions, each with an id, a circle centre and a radius of 1 to 1000000 m, ids unique.
    public static func read(_ path: String) throws -> [Region] {
        let bytes = try readBytes(path)
        let regions: [Region]
        let fieldPrefix: String
        if startsLikeJSON(bytes), let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            root["type"] as? String == "FeatureCollection"
        {
            regions = try GeoJSONCatalogue(path: path).regions(root)
            fieldPrefix = "features"
        } else {
            regions = try decodeAssignment(bytes, path: path).regions
            fieldPrefix = "regions"
        }
        var seen: [String: Int] = [:]
        for (number, region) in regions.enumerated() {
            let place = "\(path): \(fieldPrefix)[\(number)]"
            guard !region.id.isEmpty else { throw RegionCatalogueError(message: "\(place): the region has no id") }
            if let first = seen.updateValue(number, forKey: region.id) {
                throw RegionCatalogueError(message: "\(place): id \"\(region.id)\" is also \(fieldPrefix)[\(first)]'s")
            }
            guard let circle = region.circle, circle.centerLatitudeE7 != nil, circle.centerLongitudeE7 != nil else {
                throw RegionCatalogueError(message: "\(place) (\(region.id)): the region has no circle centre")
            }
            guard (1...1_000_000).contains(circle.radiusM) else {
                throw RegionCatalogueError(
                    message: "\(place) (\(region.id)): radius_m \(circle.radiusM) is not 1 to 1000000")
            }
        }
        return regions
    }

    /// A RegionAssignment file, binary or proto3 JSON.
    public static func readAssignment(_ path: String) throws -> RegionAssignment {
        try decodeAssignment(try readBytes(path), path: path)
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        do {
            return try FileAccess.read(path)
        } catch {
            throw RegionCatalogueError(kind: .unreadable, message: error.description)
        }
    }

    /// Binary unless the first byte that is not white space is `{` or `[` (a binary RegionAssignment starts with
    /// neither: they would be fields 15 and 11 with wire types it never uses), so a JSON array gets a JSON error.
    static func startsLikeJSON(_ bytes: [UInt8]) -> Bool {
        let first = bytes.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    static func decodeAssignment(_ bytes: [UInt8], path: String) throws -> RegionAssignment {
        if startsLikeJSON(bytes) {
            do {
                return try RegionAssignment(jsonUTF8: bytes)
            } catch {
                let (line, column) = lineAndColumn(of: error.offset, in: bytes)
                let field = error.fieldPath.isEmpty ? "" : " (\(error.fieldPath))"
                if error.code.isSyntaxError {
                    throw RegionCatalogueError(message: "\(path):\(line):\(column): not valid JSON: \(error.message)")
                }
                throw RegionCatalogueError(
                    message:
                        "\(path):\(line):\(column)\(field): not a RegionAssignment in proto3 JSON: \(error.message)")
            }
        }
        do {
            return try RegionAssignment(serializedBytes: bytes)
        } catch {
            let field = error.fieldPath.isEmpty ? "" : " (\(error.fieldPath))"
            throw RegionCatalogueError(
                message: "\(path): byte \(error.offset)\(field): not a binary RegionAssignment: \(error.message)")
        }
    }

    /// 1-based line and column (in bytes) of a byte offset.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(max(offset, 0), bytes.count) where bytes[index] == 0x0a {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}

/// Why a catalogue or assignment file could not be used. The message names the file and the line, column or
/// field; `kind` tells a command line which exit status it is (a file it could not read is a usage error, a file
/// it read and refused is rejected input).
public struct RegionCatalogueError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The file could not be read at all.
        case unreadable
        /// The file was read and is not a valid catalogue or assignment.
        case rejected
    }

    public let kind: Kind
    public let message: String
    public var description: String { message }

    init(kind: Kind = .rejected, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// GeoJSON features to regions. Point features take their circle from `radius_m`; Polygon features get the
/// circle around the normalized mean of their vertices that encloses every vertex with 1 m to spare
/// (`§polygon-in-circle`).
struct GeoJSONCatalogue {
    let path: String

    func regions(_ root: [String: Any]) throws -> [Region] {
        guard let features = root["features"] as? [Any] else {
            throw RegionCatalogueError(message: "\(path): features: a FeatureCollection needs a features array")
        }
        return try features.enumerated().map { number, feature in try region(feature, at: "features[\(number)]") }
    }

    func fail(_ field: String, _ message: String) -> RegionCatalogueError {
        RegionCatalogueError(message: "\(path): \(field): \(message)")
    }

    func region(_ value: Any, at place: String) throws -> Region {
        guard let feature = value as? [String: Any], feature["type"] as? String == "Feature" else {
            throw fail(place, "not a GeoJSON Feature object")
        }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        let at = "\(place).properties"
        var region = Region()
        guard let id = try string(properties["id"], "\(at).id") ?? (feature["id"] as? String) else {
            throw fail("\(at).id", "required: the region id, e.g. \"shop:1234\"")
        }
        region.id = id
        region.version = try integer(properties["version"], "\(at).version", 1...Int64(Int64.max)).map(UInt64.init) ?? 1
        region.parentId = try string(properties["parent_id"], "\(at).parent_id") ?? ""
        region.level = try level(properties["level"], "\(at).level")
        region.priority =
            try integer(properties["priority"], "\(at).priority", 0...Int64(UInt32.max)).map(UInt32.init) ?? 0
        region.notifyOnEntry = try bool(properties["notify_on_entry"], "\(at).notify_on_entry") ?? false
        region.notifyOnExit = try bool(properties["notify_on_exit"], "\(at).notify_on_exit") ?? false
        region.notifyOnDwell = try bool(properties["notify_on_dwell"], "\(at).notify_on_dwell") ?? false
        region.loiteringDelayMs =
            try integer(properties["loitering_delay_ms"], "\(at).loitering_delay_ms", 0...86_400_000).map(UInt32.init)
            ?? 0
        region.expiresAtMs = try integer(properties["expires_at_ms"], "\(at).expires_at_ms", Int64.min...Int64.max) ?? 0
        region.refineOnEntry = try bool(properties["refine_on_entry"], "\(at).refine_on_entry") ?? false
        region.name = try string(properties["name"], "\(at).name") ?? ""

        guard let geometry = feature["geometry"] as? [String: Any] else {
            throw fail("\(place).geometry", "required: a Point or Polygon geometry")
        }
        switch geometry["type"] as? String {
        case "Point":
            let (latitude, longitude) = try coordinate(geometry["coordinates"], "\(place).geometry.coordinates")
            guard
                let radius = try integer(properties["radius_m"], "\(at).radius_m", 1...1_000_000)
            else { throw fail("\(at).radius_m", "required for a Point feature: the circle's radius, 1 to 1000000 m") }
            region.circle = Circle(latitudeE7: latitude, longitudeE7: longitude, radiusM: UInt32(radius))
        case "Polygon":
            if properties["radius_m"] != nil {
                throw fail("\(at).radius_m", "only for Point features: a Polygon's circle is computed to enclose it")
            }
            region.polygon = try polygon(geometry["coordinates"], "\(place).geometry.coordinates")
            region.circle = try enclosingCircle(region.polygon!, "\(place).geometry.coordinates")
        default:
            throw fail("\(place).geometry.type", "must be \"Point\" or \"Polygon\"")
        }
        return region
    }

    // MARK: Values

    func string(_ value: Any?, _ field: String) throws -> String? {
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw fail(field, "must be a string") }
        return text
    }

    func bool(_ value: Any?, _ field: String) throws -> Bool? {
        guard let value, !(value is NSNull) else { return nil }
        guard let flag = value as? Bool else { throw fail(field, "must be true or false") }
        return flag
    }

    func integer(_ value: Any?, _ field: String, _ range: ClosedRange<Int64>) throws -> Int64? {
        guard let value, !(value is NSNull) else { return nil }
        guard !(value is String), let number = value as? NSNumber, let whole = Int64(exactly: number.doubleValue) else {
            throw fail(field, "must be an integer")
        }
        guard range.contains(whole) else {
            throw fail(field, "\(whole) is not in \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }

    /// A level by name (`site`, `REGION_LEVEL_SITE`) or number (1 to 5).
    func level(_ value: Any?, _ field: String) throws -> RegionLevel {
        guard let value, !(value is NSNull) else {
            throw fail(field, "required: country, province, city, district or site")
        }
        let names = ["country", "province", "city", "district", "site"]
        if let name = value as? String {
            let short = name.lowercased().replacingOccurrences(of: "region_level_", with: "")
            if let position = names.firstIndex(of: short) { return RegionLevel(rawValue: Int32(position + 1)) }
            throw fail(field, "\"\(name)\" is not country, province, city, district or site")
        }
        let number = try integer(value, field, 1...5)!
        return RegionLevel(rawValue: Int32(number))
    }

    /// A GeoJSON position [longitude, latitude] in degrees, as 1e-7 degree.
    func coordinate(_ value: Any?, _ field: String) throws -> (latitudeE7: Int32, longitudeE7: Int32) {
        guard let pair = value as? [Any], pair.count >= 2, let longitude = (pair[0] as? NSNumber)?.doubleValue,
            let latitude = (pair[1] as? NSNumber)?.doubleValue, !(pair[0] is String), !(pair[1] is String)
        else { throw fail(field, "a position must be [longitude, latitude] in degrees") }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw fail(field, "[\(longitude), \(latitude)] is out of range (longitude -180 to 180, latitude -90 to 90)")
        }
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    /// The outer ring; the closing position, which GeoJSON repeats, is dropped. Holes are not supported.
    func polygon(_ value: Any?, _ field: String) throws -> Polygon {
        guard let rings = value as? [Any], let ring = rings.first as? [Any] else {
            throw fail(field, "a Polygon needs an array of rings")
        }
        guard rings.count == 1 else { throw fail(field, "holes are not supported: give only the outer ring") }
        var positions = try ring.enumerated().map { index, position in try coordinate(position, "\(field)[0][\(index)]")
        }
        if positions.count > 1, positions.first! == positions.last! { positions.removeLast() }
        guard (3...1000).contains(positions.count) else {
            throw fail(field, "a polygon needs 3 to 1000 distinct vertices, this one has \(positions.count)")
        }
        var polygon = Polygon()
        polygon.latitudesE7 = CoordinateList(positions.map(\.latitudeE7))
        polygon.longitudesE7 = CoordinateList(positions.map(\.longitudeE7))
        return polygon
    }

    /// The centre is the normalized mean of the vertices' unit vectors (no seam at the antimeridian); the radius
    /// the farthest vertex, rounded up, plus 1 m.
    func enclosingCircle(_ polygon: Polygon, _ field: String) throws -> Circle {
        let vertices = zip(polygon.latitudesE7, polygon.longitudesE7).map {
            SpherePoint(latitudeE7: $0, longitudeE7: $1)
        }
        let sum = vertices.reduce((0.0, 0.0, 0.0)) { ($0.0 + $1.x, $0.1 + $1.y, $0.2 + $1.z) }
        let length = (sum.0 * sum.0 + sum.1 * sum.1 + sum.2 * sum.2).squareRoot()
        guard length > 1e-6 else { throw fail(field, "the polygon surrounds no point: its vertices balance out") }
        let latitude = atan2(sum.2, (sum.0 * sum.0 + sum.1 * sum.1).squareRoot()) * 180 / .pi
        let longitude = atan2(sum.1, sum.0) * 180 / .pi
        let center = SpherePoint(
            latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
        let farthest = vertices.map { center.distanceM(to: $0) }.max()!
        let radius = farthest.rounded(.up) + 1
        guard radius <= 1_000_000 else {
            throw fail(field, "the polygon needs a circle of \(Int(radius)) m, more than 1000000 m")
        }
        return Circle(latitudeE7: center.latitudeE7, longitudeE7: center.longitudeE7, radiusM: UInt32(radius))
    }
}
