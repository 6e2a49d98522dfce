/// Where in a message something is: the message type, then field names and element indices, printed as
/// `LocationBatch.fixes[3].horizontal_accuracy_cm`.
///
/// Field names are the `.proto` names (snake_case), so a path reads the same in every language. A field the
/// schema does not know is printed by number, as `#99`.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// The message type the path starts from, by its short name (`LocationBatch`).
        case message(String)
        /// A field, by its `.proto` name.
        case field(String)
        /// A field the schema does not know, by number.
        case unknownField(UInt32)
        /// An element of a repeated field, counted from 0.
        case index(Int)
    }

    /// The components, outermost first.
    public private(set) var components: [Component]

    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// A path that starts at a message type.
    public init(message name: String) {
        self.components = [.message(name)]
    }

    /// This path extended by one component.
    public func appending(_ component: Component) -> FieldPath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    /// This path extended by a field name.
    public func appending(field name: String) -> FieldPath {
        appending(.field(name))
    }

    /// This path extended by an element index.
    public func appending(index: Int) -> FieldPath {
        appending(.index(index))
    }

    /// Puts `component` in front: decoders build paths from the inside out while an error unwinds.
    mutating func prepend(_ component: Component) {
        components.insert(component, at: 0)
    }

    public var isEmpty: Bool { components.isEmpty }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .message(let name):
                text += name
            case .field(let name):
                if !text.isEmpty { text += "." }
                text += name
            case .unknownField(let number):
                if !text.isEmpty { text += "." }
                text += "#\(number)"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
