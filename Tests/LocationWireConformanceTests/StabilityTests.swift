import Foundation
import LocationWireTestSupport
import Testing

/// proto/README.md "Stability": every message and enum of `proto/` says whether it is stable (`§stability`).
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
}
