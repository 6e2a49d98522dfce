import Foundation
import LocationWireTestSupport
import Testing

/// proto/README.md "Stability": every message and enum of `proto/` says whether it is stable (`§stability`), and
/// every stable item of the newest release image in `proto/released/` is still in `proto/` as it was
/// (`§stability-promise`), judged on protoc's descriptor set (Tests/Goldens/) without buf. CI's schema-compat step
/// runs buf's check (scripts/schema/breaking-check.sh), which also judges the JSON forms, and proves it on
/// mutations; this one keeps a stable field's declared type exactly, where buf lets an int32 become a uint32.
@Suite struct StabilityTests {
    static let proto = RepositoryData.repository.appendingPathComponent("proto")
    static var marker: Regex<(Substring, Substring)> { /\s*\/\/ Stability: (stable|experimental)\./ }

    @Test func everyMessageAndEnumSaysItsStability() throws {
        var files: [URL] = []
        for case let file as URL in FileManager.default.enumerator(at: Self.proto, includingPropertiesForKeys: nil)!
        where file.pathExtension == "proto" {
            files.append(file)
        }
        var problems: [String] = []
        var declarations = 0
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            let name = file.path.replacing(Self.proto.path + "/", with: "proto/")
            for (index, line) in lines.enumerated() {
                if line.contains("Stability:") {
                    if let match = line.wholeMatch(of: Self.marker) {
                        if line.hasPrefix(" ") && match.output.1 == "stable" {
                            problems.append("\(name):\(index + 1): a member is stable unless marked experimental")
                        }
                    } else {
                        problems.append("\(name):\(index + 1): not a marker: \(line)")
                    }
                }
                guard line.hasPrefix("message ") || line.hasPrefix("enum ") else { continue }
                declarations += 1
                // The leading comment: the `//` lines right above the declaration.
                var markers = 0
                var above = index - 1
                while above >= 0 && lines[above].hasPrefix("//") {
                    if lines[above].wholeMatch(of: Self.marker) != nil { markers += 1 }
                    above -= 1
                }
                if markers != 1 {
                    problems.append(
                        "\(name):\(index + 1): \(line) has \(markers) stability lines in its comment, not 1")
                }
            }
        }
        #expect(declarations > 80, "the declarations were found (\(declarations))")
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func everyStableItemOfTheReleaseIsKept() throws {
        let released = try #require(try Self.newestRelease(), "no image in proto/released/")
        let image = try [UInt8](Data(contentsOf: released))
        let before = try DescriptorSet(serialized: image)
        let experimental = try Self.experimentalItems(in: image)
        let now = try DescriptorSet(
            serialized: [UInt8](
                Data(contentsOf: RepositoryData.goldens.appendingPathComponent("locationwire.descriptors.binpb"))))
        var problems: [String] = []
        var checked = 0
        for message in before.messages where !experimental.contains(message.fullName) {
            guard let current = now.message(named: message.fullName) else {
                problems.append("message \(message.fullName) is gone")
                continue
            }
            for field in message.fields where !experimental.contains("\(message.fullName).\(field.name)") {
                checked += 1
                let name = "\(message.fullName).\(field.name) (\(field.number))"
                guard let kept = current.field(number: field.number) else {
                    let reserved = current.reservedNumbers.contains { $0.contains(Int64(field.number)) }
                    if !reserved || !current.reservedNames.contains(field.name) {
                        problems.append("\(name) is gone without its number and name reserved")
                    }
                    continue
                }
                if (kept.name, kept.jsonName) != (field.name, field.jsonName) {
                    problems.append("\(name) is now \(kept.name), JSON \(kept.jsonName)")
                }
                if (kept.protoTypeName, kept.label) != (field.protoTypeName, field.label) {
                    problems.append(
                        "\(name) was \(field.protoTypeName), label \(field.label); now \(kept.protoTypeName)")
                }
                let oneofBefore = field.oneofIndex.map { message.oneofNames[$0] }
                let oneofNow = kept.oneofIndex.map { current.oneofNames[$0] }
                if oneofBefore != oneofNow {
                    problems.append("\(name) was in oneof \(oneofBefore ?? "none"), now in \(oneofNow ?? "none")")
                }
            }
        }
        for enumeration in before.enums where !experimental.contains(enumeration.fullName) {
            guard let current = now.enums.first(where: { $0.fullName == enumeration.fullName }) else {
                problems.append("enum \(enumeration.fullName) is gone")
                continue
            }
            for value in enumeration.values where !experimental.contains("\(enumeration.fullName).\(value.name)") {
                checked += 1
                if let kept = current.values.first(where: { $0.number == value.number }) {
                    if kept.name != value.name {
                        problems.append("\(value.name) (\(value.number)) is now \(kept.name)")
                    }
                } else if !current.reservedNumbers.contains(where: { $0.contains(Int64(value.number)) })
                    || !current.reservedNames.contains(value.name)
                {
                    problems.append("\(value.name) (\(value.number)) is gone without its number and name reserved")
                }
            }
        }
        #expect(checked > 600, "the release's items were read (\(checked))")
        #expect(problems.isEmpty, "stable items of \(released.lastPathComponent) changed: \(problems)")
    }

    /// The parser of the release's comments: the markers it finds on a small image's source info.
    @Test func experimentalItemsAreReadFromTheComments() throws {
        func lengthDelimited(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
            var length: [UInt8] = []
            var count = payload.count
            repeat {
                length.append(UInt8(count & 0x7F) | (count >= 0x80 ? 0x80 : 0))
                count >>= 7
            } while count > 0
            return [number << 3 | 2] + length + payload
        }
        func string(_ number: UInt8, _ text: String) -> [UInt8] { lengthDelimited(number, Array(text.utf8)) }
        func location(_ path: [UInt8], _ comment: String) -> [UInt8] {
            lengthDelimited(1, lengthDelimited(1, path) + string(3, comment))
        }
        let field = lengthDelimited(2, string(1, "kept") + [3 << 3, 1])
        let tried = lengthDelimited(2, string(1, "tried") + [3 << 3, 2])
        let file =
            string(2, "p.v1") + lengthDelimited(4, string(1, "M") + field + tried)
            + lengthDelimited(5, string(1, "E") + lengthDelimited(2, string(1, "E_A")))
            + lengthDelimited(
                9,
                location([4, 0], " Stability: stable.\n")
                    + location([4, 0, 2, 1], " New.\n Stability: experimental.\n")
                    + location([5, 0], " Stability: experimental.\n"))
        let experimental = try Self.experimentalItems(in: lengthDelimited(1, file))
        #expect(experimental == ["p.v1.M.tried", "p.v1.E"])
    }

    /// The newest image in proto/released/, by its version (locationwire-v1.0.0.binpb).
    static func newestRelease() throws -> URL? {
        let folder = Self.proto.appendingPathComponent("released")
        func version(_ url: URL) -> [Int] {
            guard let match = url.lastPathComponent.wholeMatch(of: /locationwire-v(\d+)\.(\d+)\.(\d+)\.binpb/) else {
                return []
            }
            return [match.output.1, match.output.2, match.output.3].map { Int($0)! }
        }
        let images = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !version($0).isEmpty }
        return images.max { version($0).lexicographicallyPrecedes(version($1)) }
    }

    /// The full names of the messages, enums, fields and enum values an image's leading comments mark
    /// `Stability: experimental.` (FileDescriptorProto.source_code_info, 9: location, 1: path 1, leading comment 3).
    /// A member of one is experimental with it; the callers skip those through their parent.
    static func experimentalItems(in image: [UInt8]) throws -> Set<String> {
        var names: Set<String> = []
        for file in try WireFields.parse(image[...]) where file.number == 1 {
            let parts = try WireFields.parse(file.bytes())
            guard let info = parts.last(where: { $0.number == 9 }) else { continue }
            for location in try WireFields.parse(info.bytes()) where location.number == 1 {
                let fields = try WireFields.parse(location.bytes())
                guard WireFields.string(3, in: fields).contains("Stability: experimental.") else { continue }
                var path: [Int] = []
                for part in fields where part.number == 1 {
                    if part.wireType == 2 {
                        // Packed: a run of varints (every path component is below 128 in proto/, but read them all).
                        var rest = part.payload
                        while let value = Self.varint(&rest) { path.append(value) }
                    } else {
                        path.append(Int(part.varint))
                    }
                }
                names.formUnion(try Self.names(at: path, in: parts, scope: WireFields.string(2, in: parts)))
            }
        }
        return names
    }

    /// What a source-info path points at: a message (file 4, message 3), an enum (file 5, message 4), a field
    /// (message 2) or an enum value (enum 2); a oneof `optional_<name>` (message 8) carries its one field's comment.
    static func names(at path: [Int], in file: [WireFields.Field], scope package: String) throws -> [String] {
        enum Container { case file, message, enumeration }
        var container = Container.file
        var parts = file
        var scope = package
        var rest = path[...]
        while rest.count >= 2 {
            let kind = rest.removeFirst()
            let index = rest.removeFirst()
            let list = parts.filter { $0.number == UInt32(kind) }
            guard list.indices.contains(index) else { return [] }
            let element = try WireFields.parse(list[index].bytes())
            let name = "\(scope).\(WireFields.string(1, in: element))"
            switch (container, kind) {
            case (.file, 4), (.message, 3): container = .message
            case (.file, 5), (.message, 4): container = .enumeration
            case (.message, 2), (.enumeration, 2): return rest.isEmpty ? [name] : []
            case (.message, 8):
                guard rest.isEmpty else { return [] }
                let oneof = WireFields.string(1, in: element)
                let members = try parts.filter { $0.number == 2 }.map { try WireFields.parse($0.bytes()) }
                return members.filter {
                    $0.last(where: { $0.number == 9 })?.varint == UInt64(index)
                        && oneof == "optional_" + WireFields.string(1, in: $0)
                }.map { "\(scope).\(WireFields.string(1, in: $0))" }
            default: return []
            }
            parts = element
            scope = name
        }
        return rest.isEmpty ? [scope] : []
    }

    private static func varint(_ bytes: inout ArraySlice<UInt8>) -> Int? {
        var value = 0
        var shift = 0
        while let byte = bytes.popFirst() {
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
