import Foundation
import LocationWire
import LocationWireConformance
import LocationWireJSON

/// Pictures of behaviour vectors: the trace of a `fences` or `recording` vector, with what the vector expects
/// against what an implementation answered, so a failure can be seen where it happens.
public enum ScenarioPicture {
    /// Who answers a vector's request: the reference engines in this process, or a testee.
    public enum Answerer {
        case builtin
        case testee(TesteeProcess, timeoutMilliseconds: Int)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether ``picture(of:answer:)`` can draw this vector.
    public static func canDraw(_ vector: Vector) -> Bool {
        vector.messageType == FenceRequest.schema.fullName || vector.messageType == RecordingRequest.schema.fullName
    }

    /// The picture of `vector` with `answerer`'s response beside the expected one.
    public static func picture(of vector: Vector, answerer: Answerer, implementation: String) throws -> TrackPicture {
        switch vector.messageType {
        case FenceRequest.schema.fullName:
            let request = try BehaviorEvaluation.request(FenceRequest.self, of: vector)
            let actual = try answer(request, answerer)
            return fences(vector, request, actual: actual, implementation: implementation)
        case RecordingRequest.schema.fullName:
            let request = try BehaviorEvaluation.request(RecordingRequest.self, of: vector)
            let actual = try answer(request, answerer)
            return recording(vector, request, actual: actual, implementation: implementation)
        default:
            throw Failure(
                description:
                    "vector \(vector.id) is a \(vector.messageType); only fences and recording vectors have a trace to draw"
            )
        }
    }

    /// The expected and the actual response of any behaviour vector (recording, fences, planning, arming), each
    /// as proto3 JSON pretty-printed with sorted keys, one field a line, ready for ``LineDiff``; nil for a vector of
    /// another kind.
    public static func responses(of vector: Vector, answerer: Answerer) throws -> (expected: String, actual: String)? {
        func pair<Request: BehaviorRequest>(_ type: Request.Type) throws -> (String, String) {
            let expected = try BehaviorEvaluation.expectedResponse(type, of: vector)
            let actual = try answer(try BehaviorEvaluation.request(type, of: vector), answerer)
            return (pretty(expected.jsonString()), pretty(actual.jsonString()))
        }
        switch vector.messageType {
        case FenceRequest.schema.fullName: return try pair(FenceRequest.self)
        case RecordingRequest.schema.fullName: return try pair(RecordingRequest.self)
        case PlanningRequest.schema.fullName: return try pair(PlanningRequest.self)
        case ArmingRequest.schema.fullName: return try pair(ArmingRequest.self)
        default: return nil
        }
    }

    static func pretty(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return json }
        return String(decoding: data, as: UTF8.self)
    }

    static func answer<Request: BehaviorRequest>(_ request: Request, _ answerer: Answerer) throws -> Request.Response {
        switch answerer {
        case .builtin:
            let testee = BuiltinTestee()
            let response: (any BehaviorResponse)? =
                switch request {
                case let request as FenceRequest: testee.run(request)
                case let request as RecordingRequest: testee.run(request)
                case let request as PlanningRequest: testee.run(request)
                case let request as ArmingRequest: testee.run(request)
                default: nil
                }
            guard var response = response as? Request.Response else {
                throw Failure(description: "the built-in engines do not answer \(Request.schema.fullName)")
            }
            response.vectorId = request.vectorId
            return response
        case .testee(let process, let timeout):
            switch process.run(request, timeoutMilliseconds: timeout) {
            case .response(let response): return response
            case .crashed(let how): throw Failure(description: "the testee crashed: \(how)")
            case .timedOut: throw Failure(description: "the testee did not answer within \(timeout) ms")
            }
        }
    }

    /// A fence vector: its fix steps as the track, every region armed at the start or later, expected events
    /// (outlined) and the implementation's (filled); an event with no equal on the other side is ringed.
    public static func fences(
        _ vector: Vector, _ request: FenceRequest, actual: FenceResponse?, implementation: String
    ) -> TrackPicture {
        var picture = TrackPicture(title: vector.id)
        picture.setTrack(request.steps.compactMap { if case .fix(let fix) = $0.step { fix } else { nil } })
        let armedLater = request.steps.flatMap { step -> [Region] in
            if case .arm(let arming) = step.step { arming.regions } else { [] }
        }
        var regions: [Region] = []
        for region in request.regions + armedLater
        where !regions.contains(where: { $0.id == region.id }) {
            regions.append(region)
        }
        picture.regions = regions
        let expected = (try? BehaviorEvaluation.expectedResponse(FenceRequest.self, of: vector))?.events ?? []
        let got = actual?.events ?? []
        picture.addEvents(expected, layer: .expected, differing: unmatched(expected, in: got))
        picture.addEvents(got, layer: .actual, differing: unmatched(got, in: expected))
        picture.caption = [vector.comment] + picture.caption
        picture.caption.append(
            "expected \(expected.count) events (outlined), \(implementation) reported \(got.count) (filled)"
                + (actual?.failure.map { "; \(implementation) did not run it: \($0)" } ?? ""))
        return picture
    }

    /// A recording vector: the delivered fixes as the track, the fixes the vector expects recorded (outlined,
    /// with their reasons) and those the implementation recorded (filled).
    public static func recording(
        _ vector: Vector, _ request: RecordingRequest, actual: RecordingResponse?, implementation: String
    ) -> TrackPicture {
        var picture = TrackPicture(title: vector.id)
        picture.setTrack(request.fixes)
        let expected = (try? BehaviorEvaluation.expectedResponse(RecordingRequest.self, of: vector))?.recorded ?? []
        let got = actual?.recorded ?? []
        func add(_ recorded: [RecordedFix], _ other: [RecordedFix], _ layer: TrackPicture.Layer) {
            let differing = unmatched(recorded, in: other)
            for (number, fix) in recorded.enumerated() {
                let index = Int(fix.index)
                guard request.fixes.indices.contains(index), let latitude = request.fixes[index].latitudeE7,
                    let longitude = request.fixes[index].longitudeE7
                else { continue }
                var details = ["\(layer.rawValue): fix \(index + 1) recorded", "reason \(Palette.label(fix.reason))"]
                if differing.contains(number) { details.append("not on the other side") }
                picture.markers.append(
                    TrackPicture.Marker(
                        latitude: Double(latitude) * 1e-7, longitude: Double(longitude) * 1e-7, kind: .recorded,
                        layer: layer, differs: differing.contains(number), details: details))
            }
        }
        add(expected, got, .expected)
        add(got, expected, .actual)
        picture.caption = [vector.comment] + picture.caption
        picture.caption.append(
            "\(request.fixes.count) fixes delivered; expected \(expected.count) recorded (outlined), "
                + "\(implementation) recorded \(got.count) (filled)"
                + (actual?.failure.map { "; \(implementation) did not run it: \($0)" } ?? ""))
        return picture
    }

    /// The positions in `items` whose value `other` lacks, counting repeats.
    static func unmatched<Item: Equatable>(_ items: [Item], in other: [Item]) -> Set<Int> {
        var remaining = other
        var result: Set<Int> = []
        for (number, item) in items.enumerated() {
            if let found = remaining.firstIndex(of: item) {
                remaining.remove(at: found)
            } else {
                result.insert(number)
            }
        }
        return result
    }
}
