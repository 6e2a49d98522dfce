/// A file that is not what its format says: where (a line, an element, an array index) and what is wrong. The
/// command line turns it into exit status 1.
public struct InterchangeError: Error, CustomStringConvertible, Equatable {
    /// "line 12", "locations[3].properties.speed", "features[2]".
    public var location: String
    public var message: String
    /// A point `--strict` refused, in a file that is otherwise the format: not a reason to suggest another one.
    public var refusedByStrict = false
    /// The field or column the error is about, when the location does not end in it ("line 3, column Lat").
    public var field: String?

    public init(_ location: String, _ message: String, refusedByStrict: Bool = false, field: String? = nil) {
        self.location = location
        self.message = message
        self.refusedByStrict = refusedByStrict
        self.field = field
    }

    public var description: String { location.isEmpty ? message : "\(location): \(message)" }
}
