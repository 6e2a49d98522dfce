import Foundation
import LocationWireJSON

/// Reading JSON with LocationWire's own strict reader (`JSONValue`), with the location of each value kept for
/// messages. A value of the wrong type is an error naming it (`locations[3].properties.speed: expected a number,
/// found "fast"`); an absent key or `null` is an absent value.
public struct JSONInput {
    /// Parses a whole document (an object or an array, or a single value: one member of a streamed document). A
    /// syntax error, a number beyond a double or nesting deeper than `JSONValue.defaultMaxDepth` is an error
    /// saying what and where.
    public static func document(_ data: Data, _ location: String) throws(InterchangeError) -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch {
            // A document that is one value cut out of a file already has its line.
            let line = data.prefix(error.offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let place = location.isEmpty ? "line \(line)" : location
            throw InterchangeError(place, "not valid JSON: \(error.message) (byte \(error.offset))")
        }
    }

    let object: JSONObject
    let location: String

    init(_ value: JSONValue, _ location: String) throws(InterchangeError) {
        guard let object = value.object else {
            throw InterchangeError(location, "expected an object, found \(value.summary)")
        }
        self.object = object
        self.location = location
    }

    init(_ object: JSONObject, _ location: String) {
        self.object = object
        self.location = location
    }

    func path(_ key: String) -> String { location.isEmpty ? key : "\(location).\(key)" }

    /// The member named `key`, nil when it is absent or `null`.
    func present(_ key: String) -> JSONValue? { object[key]?.nonNull }

    func number(_ key: String) throws(InterchangeError) -> Double? {
        guard let value = present(key) else { return nil }
        return try Self.number(value, path(key))
    }

    /// A JSON number; with `allowingText`, also a string that holds one ("15.97"), as some tools write
    /// coordinates.
    static func number(
        _ value: JSONValue, _ location: String, allowingText: Bool = false
    ) throws(InterchangeError)
        -> Double
    {
        switch value {
        case .number(let number): return number
        case .string(let text) where allowingText:
            if let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite { return number }
        default: break
        }
        throw InterchangeError(location, "expected a number, found \(value.summary)")
    }

    func string(_ key: String) throws(InterchangeError) -> String? {
        guard let value = present(key) else { return nil }
        guard let string = value.string else {
            throw InterchangeError(path(key), "expected a string, found \(value.summary)")
        }
        return string
    }

    func array(_ key: String) throws(InterchangeError) -> [JSONValue]? {
        guard let value = present(key) else { return nil }
        guard let array = value.array else {
            throw InterchangeError(path(key), "expected an array, found \(value.summary)")
        }
        return array
    }

    /// Sets each of a format's numeric keys that is present on `point`, multiplied into the proto's unit.
    func read(_ keys: NumberKeys, into point: inout TrackPoint) throws(InterchangeError) {
        for (key, value, scale) in keys {
            if let number = try number(key) { point[keyPath: value] = number * scale }
        }
    }

    func object(_ key: String) throws(InterchangeError) -> JSONInput? {
        guard let value = present(key) else { return nil }
        return try JSONInput(value, path(key))
    }
}

/// A format's numeric keys as a table: the key, the ``TrackPoint`` value it sets, and the factor from the
/// format's unit to the proto's (metres to centimetres: 100).
typealias NumberKeys = [(key: String, value: any WritableKeyPath<TrackPoint, Double?> & Sendable, scale: Double)]

extension Array {
    /// The element at `index`, or nil when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension Double {
    /// A value in a proto unit written in the format's unit: `Double(cm) / 100`. Division of an integer by a
    /// power of ten gives the double nearest the decimal, which reads back (× 100, rounded) to the same integer.
    init(_ value: some BinaryInteger, per divisor: Double) {
        self = Double(value) / divisor
    }
}
