import Foundation
import LocationWire
import LocationWireInterchange
import LocationWireJSON
import LocationWireTestSupport
import Testing

/// Waypoints and routes are imported only on request, as what they are (issue 25): places as a region catalogue,
/// plans as lines; without the request they are counted as records that are not points, and the fixes are the
/// same either way.
@Suite struct MarkedPlacesTests {
    static let folder = RepositoryData.repository.appendingPathComponent("conformance/data/interchange")

    func data(_ name: String) throws -> Data { try Data(contentsOf: Self.folder.appendingPathComponent(name)) }

    /// How many times `tag` opens in the file's text: the count a reader must find, taken without any XML reader.
    func occurrences(of tag: String, in data: Data) -> Int {
        String(decoding: data, as: UTF8.self).components(separatedBy: "<\(tag)").count - 1
    }

    func importing(_ format: ImportFormat, _ data: Data, keep: MarkedKinds) throws -> ImportFormat.Imported {
        try format.importFile(ImportInput(data), deviceId: "marks", options: ImportOptions(keep: keep))
    }

    @Test func gpxWaypointsAndRoutesAreKeptOnRequestAndTheFixesStayTheSame() throws {
        let file = try data("expertgps-wpt-rte-trk.gpx")
        let plain = try importing(.gpx, file, keep: [])
        let kept = try importing(.gpx, file, keep: [.waypoints, .routes])
        #expect(kept.batches.map(\.batch) == plain.batches.map(\.batch))
        #expect(kept.summary.pointsRead == plain.summary.pointsRead)
        #expect(kept.summary.imported == plain.summary.imported)
        let waypoints = kept.marked.filter { $0.kind == .waypoint }
        let routePoints = kept.marked.filter { $0.kind == .routePoint }
        #expect(waypoints.count == occurrences(of: "wpt ", in: file))
        #expect(routePoints.count == occurrences(of: "rtept ", in: file))
        #expect(kept.summary.marked == ["waypoint": waypoints.count, "route point": routePoints.count])
        // Without the request they are the records that are not points.
        let notPoints = plain.summary.skipped.filter { $0.key.code == "not-a-point" }.map(\.value.count)
        #expect(notPoints.reduce(0, +) == waypoints.count + routePoints.count)
        #expect(plain.marked.isEmpty)
        // ExpertGPS names its waypoints; every one keeps its name and a position in range.
        #expect(waypoints.allSatisfy { $0.name?.isEmpty == false && abs($0.latitude) <= 90 })
    }

    @Test func waypointsBecomeARegionCatalogueWithUniqueIds() throws {
        let points = [
            MarkedPoint(kind: .waypoint, name: "Cabin", latitude: 46.1, longitude: 14.2, location: "line 1"),
            MarkedPoint(kind: .waypoint, name: " Cabin ", latitude: 46.2, longitude: 14.3, location: "line 2"),
            MarkedPoint(kind: .waypoint, name: nil, latitude: -33.8688, longitude: 151.2093, location: "line 3"),
            MarkedPoint(kind: .routePoint, name: "turn", latitude: 1, longitude: 2, location: "line 4"),
        ]
        let catalogue = try JSONValue.parse(MarkedPlaces.regionCatalogue(points, radiusM: 250))
        let features = try #require(catalogue["features"]?.array)
        #expect(features.count == 3)
        #expect(
            features.map { $0["properties"]?["id"]?.string } == ["waypoint:Cabin", "waypoint:Cabin-2", "waypoint:3"])
        #expect(features.allSatisfy { $0["properties"]?["radius_m"] == .number(250) })
        #expect(features.allSatisfy { $0["properties"]?["level"] == .string("site") })
        #expect(features[2]["geometry"]?["coordinates"] == .array([.number(151.2093), .number(-33.8688)]))
        #expect(features[2]["properties"]?["name"] == nil)
        #expect(MarkedPlaces.localId("Café au lait, 2nd") == "Caf__au_lait__2nd")
    }

    @Test func aTcxCourseIsARouteAndItsCoursePointsAreWaypoints() throws {
        let file = try data("tcx-course.tcx")
        let kept = try importing(.tcx, file, keep: [.waypoints, .routes])
        #expect(kept.batches.isEmpty)
        #expect(
            kept.marked.count == occurrences(of: "Trackpoint>", in: file) + occurrences(of: "CoursePoint>", in: file))
        let routes = try JSONValue.parse(MarkedPlaces.routeLines(kept.marked))
        let lines = try #require(routes["features"]?.array)
        #expect(lines.count == 1)
        #expect(lines[0]["properties"]?["name"] == .string("Test TCX Route"))
        #expect(lines[0]["geometry"]?["coordinates"]?.array?.count == occurrences(of: "Trackpoint>", in: file))
        // Without the request a course is no fix at all: refused, and the summary says why.
        #expect(throws: InterchangeError.self) { try importing(.tcx, file, keep: []) }

        // A course point (TCX 2's schema: Name, Time, Position, PointType) is a marked place.
        let withPoint = Data(
            """
            <?xml version="1.0"?>
            <TrainingCenterDatabase><Courses><Course><Name>Loop</Name><Track>
            <Trackpoint><Time>2024-05-04T08:00:00Z</Time><Position><LatitudeDegrees>46.05</LatitudeDegrees>\
            <LongitudeDegrees>14.50</LongitudeDegrees></Position></Trackpoint>
            </Track><CoursePoint><Name>Summit</Name><Time>2024-05-04T08:30:00Z</Time><Position>\
            <LatitudeDegrees>46.06</LatitudeDegrees><LongitudeDegrees>14.51</LongitudeDegrees></Position>\
            <PointType>Summit</PointType></CoursePoint></Course></Courses></TrainingCenterDatabase>
            """.utf8)
        let course = try importing(.tcx, withPoint, keep: .waypoints)
        #expect(
            course.marked == [
                MarkedPoint(
                    kind: .waypoint, name: "Summit", latitude: 46.06, longitude: 14.51, routeName: "Loop",
                    location: "line 4")
            ])
        #expect(course.summary.skipped.keys.map(\.code) == ["not-a-point"])
    }

    @Test func untimedGeoJSONPointsAndKMLWaypointMarkersAreWaypointsOnRequest() throws {
        let geojson = Data(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[15.97,45.81]},"properties":{"name":"Zagreb"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[15.98,45.82]},"properties":{"time":"2024-05-04T08:10:00Z"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[15.98,95]},"properties":{}}
            ]}
            """.utf8)
        let kept = try importing(.geojson, geojson, keep: .waypoints)
        #expect(kept.marked.map(\.name) == ["Zagreb"])
        #expect(kept.summary.imported == 1)
        #expect(kept.summary.skipped.keys.map(\.code) == ["unreadable"])
        let plain = try importing(.geojson, geojson, keep: [])
        #expect(plain.marked.isEmpty)
        #expect(Set(plain.summary.skipped.keys.map(\.code)) == ["no-time"])

        // OpenTracks: start and end markers are decorations, never kept; its waypoint marker here has latitude
        // 100, so asking for it skips it as unreadable rather than dropping it quietly.
        let kml = try data("opentracks-gxmultitrack-arraydata.kml")
        let markers = try importing(.kml, kml, keep: .waypoints)
        #expect(markers.marked.isEmpty)
        #expect(
            markers.summary.skipped.contains {
                $0.key.code == "unreadable"
                    && $0.value.first == ["line 86: \"180.0,100.0\" is not longitude,latitude[,altitude] in range"]
            })
        #expect(try importing(.kml, kml, keep: []).summary.skipped.keys.contains { $0.text.contains("#waypoint") })
    }
}
