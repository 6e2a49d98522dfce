import Foundation
import LocationWire
import LocationWireFiles

/// Where a writer's text goes, piece by piece, so that an export of a million fixes is never held whole: a file
/// (`FileAccess.Writer`) or memory (``MemorySink``).
public protocol TextSink: AnyObject {
    func write(_ text: String) throws
}

extension FileAccess.Writer: TextSink {}

/// Text kept in memory, for callers that want the bytes.
public final class MemorySink: TextSink {
    public private(set) var data = Data()
    public init() {}
    public func write(_ text: String) { data.append(contentsOf: text.utf8) }
}

/// The fixes an export writes: a batch's backlog (rows, or compact expanded) and its live fix, in that order,
/// without copying the backlog.
public struct ExportedFixes: RandomAccessCollection, Sendable {
    let backlog: [LocationFix]
    let live: LocationFix?

    public init(backlog: [LocationFix], live: LocationFix?) {
        self.backlog = backlog
        self.live = live
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { backlog.count + (live == nil ? 0 : 1) }
    public subscript(position: Int) -> LocationFix { position < backlog.count ? backlog[position] : live! }
}

/// JSON text for the writers: strings escaped as RFC 8259 requires, numbers as exact decimals of the proto's
/// integers (so `latitude_e7` 458130987 is written 45.8130987, never a binary approximation).
enum JSONText {
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"key":value,...}` with the keys in the order given; `members` hold JSON text already.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
