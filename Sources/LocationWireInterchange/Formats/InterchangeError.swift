/// A file that is not what its format says: where (a line, an element, an array index) and what is wrong. The
/// command line turns it into exit status 1.
public struct InterchangeError: Error, CustomStringConvertible, Equatable {
    /// "line 12", "locations[3].properties.speed", "features[2]".
    public var location: String
    public var message: String

    public init(_ location: String, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}
