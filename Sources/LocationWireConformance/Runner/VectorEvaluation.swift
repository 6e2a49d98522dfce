import LocationWire
import LocationWireInspection

/// What one vector asks of a testee, and how its answer is judged.
struct VectorEvaluation {
    let vector: Vector
    let features: Set<TesteeFeature>

    enum Plan {
        case send(VectorRequest)
        case unsupported(String)
    }

    var isSemantic: Bool { vector.violations != nil }
    var isCompact: Bool { vector.rowsHex != nil || vector.compactHex != nil || vector.compactError != nil }

    /// The request to send, or why this testee cannot run the vector.
    func plan() -> Plan {
        let input: VectorRequest.Input
        if let hex = vector.inputHex {
            guard features.contains(.binaryInput) else { return .unsupported("no binary input") }
            input = .binaryInput(Hex.decode(hex) ?? [])
        } else {
            guard features.contains(.jsonInput) else { return .unsupported("no JSON input") }
            input = .jsonInput(vector.inputJSON ?? "")
        }
        var checks: [TesteeCheck] = []
        if isSemantic {
            guard features.contains(.validation) else { return .unsupported("no validation") }
            checks = [.validate]
        } else if isCompact {
            guard features.contains(.compactFixes) else { return .unsupported("no compact fixes") }
            checks = [vector.messageType.hasSuffix("CompactFixes") ? .compactToRows : .rowsToCompact]
        } else if vector.result == .valid {
            if vector.canonicalHex != nil, features.contains(.binaryOutput) { checks.append(.binaryOutput) }
            if vector.canonicalJSON != nil, features.contains(.jsonOutput) { checks.append(.jsonOutput) }
        }
        return .send(VectorRequest(vectorId: vector.id, messageType: vector.messageType, input: input, checks: checks))
    }

    /// nil when the answer is right; otherwise what is wrong.
    func judge(_ response: VectorResponse) -> String? {
        if response.vectorId != vector.id {
            return "the response is for vector \"\(response.vectorId)\""
        }
        switch response.result {
        case nil:
            return "the response has no result"
        case .runtimeError(let message):
            return "runtime error: \(message)"
        case .skipped(let reason):
            return "skipped: \(reason)"
        case .parseError(let error):
            switch vector.result {
            case .acceptable:
                return nil
            case .valid:
                return "rejected valid input: \(error.code.isEmpty ? "" : error.code + ": ")\(error.message)"
            case .invalid:
                guard features.contains(.errorCategories), let expected = vector.errorCategory else { return nil }
                let actual = error.category.vectorName
                return actual == expected
                    ? nil : "rejected with category \(actual), expected \(expected) (\(error.message))"
            }
        case .decoded(let output):
            switch vector.result {
            case .acceptable:
                return nil
            case .invalid:
                let shown = output.binaryOutput.isEmpty ? "" : "; it re-encoded to \(Hex.encode(output.binaryOutput))"
                return "accepted invalid input (expected \(vector.errorCategory ?? "a parse error"))\(shown)"
            case .valid:
                return judgeOutputs(output)
            }
        }
    }

    private func judgeOutputs(_ output: DecodedOutput) -> String? {
        var problems: [String] = []
        if isSemantic {
            let expected = (vector.violations ?? []).sorted()
            let actual = output.violations.map {
                ExpectedViolation(code: $0.code, path: $0.path, severity: $0.severity)
            }.sorted()
            if expected != actual {
                let missing = expected.filter { !actual.contains($0) }.map(\.description)
                let extra = actual.filter { !expected.contains($0) }.map(\.description)
                problems.append(
                    "violations differ; missing: \(missing.isEmpty ? "none" : missing.joined(separator: ", ")); unexpected: \(extra.isEmpty ? "none" : extra.joined(separator: ", "))"
                )
            }
        } else if isCompact {
            if let expectedError = vector.compactError {
                if output.compactError != expectedError {
                    problems.append(
                        "expected compact error \(expectedError), got \(output.compactError.isEmpty ? "success" : output.compactError)"
                    )
                }
            } else if !output.compactError.isEmpty {
                problems.append("unexpected compact error \(output.compactError)")
            } else if let rows = vector.rowsHex {
                if let diff = Self.bytesDiff(expected: rows, actual: output.rowsOutput) {
                    problems.append("rows: " + diff)
                }
            } else if let compact = vector.compactHex {
                if let diff = Self.bytesDiff(expected: compact, actual: output.compactOutput) {
                    problems.append("compact form: " + diff)
                }
            }
        } else {
            if let expected = vector.canonicalHex, features.contains(.binaryOutput),
                let diff = Self.bytesDiff(expected: expected, actual: output.binaryOutput)
            {
                problems.append("canonical encoding: " + diff)
            }
            if let expected = vector.canonicalJSON, features.contains(.jsonOutput),
                let diff = jsonDiff(expected: expected, actual: output.jsonOutput)
            {
                problems.append("JSON: " + diff)
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }

    static func bytesDiff(expected: String, actual: [UInt8]) -> String? {
        let actualHex = Hex.encode(actual)
        guard actualHex != expected else { return nil }
        let expectedBytes = Hex.decode(expected) ?? []
        let firstDifference =
            zip(expectedBytes, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedBytes.count, actual.count)
        return "bytes differ at offset \(firstDifference)\n  expected: \(expected)\n    actual: \(actualHex)"
    }

    /// JSON is compared by meaning: both texts are read into the message type through the schema and their
    /// canonical encodings compared, so key order, whitespace, escapes and float spellings (C++ `1e+06`,
    /// Python `1000000.0`) do not matter, while every value does.
    func jsonDiff(expected: String, actual: String) -> String? {
        guard let codec = AnyMessageCodec(typeName: vector.messageType) else {
            return "unknown type \(vector.messageType)"
        }
        let expectedBytes: [UInt8]
        do {
            expectedBytes = AnyMessageCodec.encodeBinary(try codec.decodeJSON(Array(expected.utf8)))
        } catch {
            return "the vector's own JSON does not parse: \(error)"
        }
        do {
            let actualBytes = AnyMessageCodec.encodeBinary(try codec.decodeJSON(Array(actual.utf8)))
            if actualBytes == expectedBytes { return nil }
        } catch {
            return "the output is not valid proto3 JSON for \(vector.messageType): \(error)\n    actual: \(actual)"
        }
        return "the output means something else\n  expected: \(expected)\n    actual: \(actual)"
    }
}
