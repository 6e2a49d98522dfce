import Foundation
import LocationWire
import LocationWireCatalogues
import LocationWireGeometry
import LocationWireJSON
import Testing

/// Region catalogues as `locwire plan`, `locwire simulate fences` and the reference server read them, and the
/// synthetic catalogues the planner's tests and benchmark make from a seed.
@Suite struct CatalogueTests {
    /// `contents` in a file of its own, removed when `body` returns.
    func withFile<Result>(_ name: String, _ contents: [UInt8], _ body: (String) throws -> Result) throws -> Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "catalogue-\(UUID().uuidString)-\(name)")
        try Data(contents).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    static let geoJSON = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "shop:1", "level": "site", "radius_m": 150, "priority": 2},
           "geometry": {"type": "Point", "coordinates": [8.54, 47.37]}},
          {"type": "Feature", "properties": {"id": "district:old-town", "level": "district", "version": 3},
           "geometry": {"type": "Polygon",
             "coordinates": [[[8.53, 47.36], [8.55, 47.36], [8.55, 47.38], [8.53, 47.38], [8.53, 47.36]]]}}
        ]}
        """

    @Test("A GeoJSON catalogue: a Point feature's circle as given, a Polygon's circle enclosing every vertex")
    func geoJSONCatalogue() throws {
        let regions = try withFile("regions.geojson", Array(Self.geoJSON.utf8)) { try RegionCatalogueFile.read($0) }
        #expect(regions.map(\.id) == ["shop:1", "district:old-town"])
        let shop = try #require(regions.first?.circle)
        #expect(shop.centerLatitudeE7 == 473_700_000 && shop.centerLongitudeE7 == 85_400_000 && shop.radiusM == 150)
        #expect(regions[0].level == .site && regions[0].priority == 2 && regions[0].version == 1)
        let district = regions[1]
        #expect(district.level == .district && district.version == 3)
        let polygon = try #require(district.polygon)
        #expect(polygon.latitudesE7.count == 4, "the closing position is dropped")
        let circle = try #require(district.circle)
        let center = SpherePoint(
            latitudeE7: try #require(circle.centerLatitudeE7), longitudeE7: try #require(circle.centerLongitudeE7))
        for (latitude, longitude) in zip(polygon.latitudesE7, polygon.longitudesE7) {
            #expect(
                center.distanceM(to: SpherePoint(latitudeE7: latitude, longitudeE7: longitude)) < Double(circle.radiusM)
            )
        }
    }

    @Test("A RegionAssignment file reads back as written, in binary and in proto3 JSON")
    func assignmentRoundTrip() throws {
        var assignment = RegionAssignment()
        assignment.assignmentVersion = 4
        assignment.regions = RegionCatalogues.flat(count: 5, seed: 11)
        for bytes in [assignment.serializedBytes(), Array(assignment.jsonString().utf8)] {
            let read = try withFile("assignment", bytes) { path in
                (try RegionCatalogueFile.readAssignment(path), try RegionCatalogueFile.read(path))
            }
            #expect(read.0 == assignment)
            #expect(read.1 == assignment.regions)
        }
    }

    @Test("A refused catalogue names the file and the feature; an unreadable one is told apart")
    func errorsNameTheFileAndField() throws {
        let duplicate = Self.geoJSON.replacingOccurrences(of: "district:old-town", with: "shop:1")
        let (path, refused) = try withFile("duplicate.geojson", Array(duplicate.utf8)) { path in
            (path, Self.error { try RegionCatalogueFile.read(path) })
        }
        #expect(refused?.kind == .rejected)
        #expect(refused?.message == "\(path): features[1]: id \"shop:1\" is also features[0]'s")
        let unreadable = Self.error { try RegionCatalogueFile.read("/nonexistent/catalogue.geojson") }
        #expect(unreadable?.kind == .unreadable)
    }

    /// The catalogue error `body` throws; nil when it throws none, or another error.
    static func error(_ body: () throws -> [Region]) -> RegionCatalogueError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? RegionCatalogueError
        }
    }

    @Test("Synthetic catalogues: the same seed gives the same regions, and every child lies inside its parent")
    func syntheticHierarchy() {
        let regions = RegionCatalogues.hierarchy(counts: [2, 3, 2, 2], seed: 5)
        #expect(regions == RegionCatalogues.hierarchy(counts: [2, 3, 2, 2], seed: 5))
        #expect(regions != RegionCatalogues.hierarchy(counts: [2, 3, 2, 2], seed: 6))
        #expect(regions.count == 2 + 6 + 12 + 24)
        let byId = Dictionary(uniqueKeysWithValues: regions.map { ($0.id, $0) })
        for child in regions where !child.parentId.isEmpty {
            guard let parent = byId[child.parentId]?.circle, let circle = child.circle,
                let parentLatitude = parent.centerLatitudeE7, let parentLongitude = parent.centerLongitudeE7,
                let latitude = circle.centerLatitudeE7, let longitude = circle.centerLongitudeE7
            else {
                Issue.record("\(child.id): no parent or circle")
                continue
            }
            let apart = SpherePoint(latitudeE7: latitude, longitudeE7: longitude).distanceM(
                to: SpherePoint(latitudeE7: parentLatitude, longitudeE7: parentLongitude))
            #expect(apart + Double(circle.radiusM) <= Double(parent.radiusM) + 1, "\(child.id)")
        }
    }
}
