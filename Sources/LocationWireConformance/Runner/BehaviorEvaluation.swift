import LocationWire
import LocationWireJSON

/// Judges behaviour vectors (families `recording`, `fences`, `planning`, `arming`). The rules of
/// proto/BEHAVIOR.md fix every output exactly, so a vector states the whole response and the testee's must equal
/// it, field for field.
public enum BehaviorEvaluation {
    /// The request a behaviour vector sends, with its vector id.
    public static func request<Request: BehaviorRequest>(_ type: Request.Type, of vector: Vector) throws -> Request {
        var request = try Request(jsonString: vector.request?.text ?? "{}")
        request.vectorId = vector.id
        return request
    }

    /// The response the vector expects, with its vector id.
    public static func expectedResponse<Request: BehaviorRequest>(
        _ type: Request.Type, of vector: Vector
    ) throws -> Request.Response {
        var response = try Request.Response(jsonString: vector.expectedResponse?.text ?? "{}")
        response.vectorId = vector.id
        return response
    }

    /// What is wrong with `actual`, or nil when it equals `expected`.
    public static func judge<Response: BehaviorResponse>(
        _ vector: Vector, expected: Response, actual: Response
    )
        -> String?
    {
        if let problem = SessionEvaluation.notRun(vector, actual.vectorId, actual.failure) { return problem }
        guard actual != expected else { return nil }
        return difference(expected: expected.jsonString(), actual: actual.jsonString())
    }

    /// The first place two JSON texts differ, with some context: enough to see which event or fix it is.
    static func difference(expected: String, actual: String) -> String {
        let expectedBytes = Array(expected.utf8)
        let actualBytes = Array(actual.utf8)
        let common = zip(expectedBytes, actualBytes).prefix { $0 == $1 }.count
        // Back up to the start of the object that differs, so the excerpt names its fields.
        var start = common
        var depth = 0
        while start > 0 {
            start -= 1
            if expectedBytes[start] == UInt8(ascii: "}") { depth += 1 }
            if expectedBytes[start] == UInt8(ascii: "{") {
                if depth == 0 { break }
                depth -= 1
            }
        }
        start = max(start, common - 200)
        func excerpt(_ bytes: [UInt8]) -> String {
            let end = min(bytes.count, common + 160)
            return String(decoding: bytes[min(start, bytes.count)..<end], as: UTF8.self)
        }
        return "responses differ at byte \(common) of the JSON: expected …\(excerpt(expectedBytes))…, got …"
            + "\(excerpt(actualBytes))…"
    }
}
