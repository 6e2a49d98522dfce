import Foundation
import LocationWireJSON

/// A file of conformance vectors, one per family (`conformance/vectors/<family>.json`), as described by
/// `conformance/vectors.schema.json` (which rejects unknown keys).
///
/// 64-bit integers inside JSON inputs and outputs are strings, as proto3 JSON requires; binary inputs and
/// outputs are lower-case hex, so float bit patterns (NaN payloads, -0.0, subnormals) are exact.
public struct VectorFile: Codable, Sendable, Equatable {
    /// The format's identifier; a reader refuses files with another.
    public static let formatName = "locationwire-conformance-vectors/1"

    public var format: String = VectorFile.formatName
    /// The family: `wire`, `canonical`, `json`, `semantic`, `compact`, `session`, `ledger`.
    public var family: String
    /// What the family tests, for humans.
    public var description: String
    /// The generator and version that wrote the file.
    public var generator: String
    public var numberOfVectors: Int
    /// Every flag used in the file, with what it means.
    public var flags: [String: String]
    /// What a server must be set up with for the file's request vectors (`http` family): its limits, optional
    /// endpoints and credentials, each a sentence by name.
    public var setup: [String: String]?
    public var vectors: [Vector]

    public init(family: String, description: String, generator: String, flags: [String: String], vectors: [Vector]) {
        self.family = family
        self.description = description
        self.generator = generator
        self.numberOfVectors = vectors.count
        self.flags = flags
        self.vectors = vectors
    }

    /// The file as canonical JSON text: two-space indentation, sorted keys, a final newline. The generator
    /// writes exactly this, so a fresh generation compares byte for byte with the committed files.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    public static func decode(_ data: Data) throws -> VectorFile {
        let file = try JSONDecoder().decode(VectorFile.self, from: data)
        guard file.format == formatName else {
            throw VectorFileError(message: "unknown vector format \"\(file.format)\", expected \"\(formatName)\"")
        }
        guard file.numberOfVectors == file.vectors.count else {
            throw VectorFileError(
                message: "numberOfVectors is \(file.numberOfVectors) but the file holds \(file.vectors.count)")
        }
        return file
    }
}

public struct VectorFileError: Error, CustomStringConvertible {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One test vector.
public struct Vector: Codable, Sendable, Equatable {
    /// What an implementation must do with the input.
    public enum Expectation: String, Codable, Sendable {
        /// Accept it and produce the expected outputs.
        case valid
        /// Reject it (a parse error).
        case invalid
        /// Either; implementations differ and both are allowed. The comment says why.
        case acceptable
    }

    /// A stable, unique, dot-separated id: `<family>.<message>.<case>[.<n>]`.
    public var id: String
    /// The full message type name.
    public var messageType: String
    /// Binary input, hex. Exactly one of `inputHex` and `inputJSON`.
    public var inputHex: String?
    /// JSON input, as text.
    public var inputJSON: String?
    public var result: Expectation
    /// For valid input: the canonical re-encoding, hex.
    public var canonicalHex: String?
    /// For valid input: the canonical JSON (compared by meaning, not by text).
    public var canonicalJSON: String?
    /// For invalid input: the error category (`truncated`, `bad-tag`, `invalid-utf8`, `json-schema`, ...).
    public var errorCategory: String?
    /// Semantic family: the violations a validator must report, exactly; empty when the message is valid.
    public var violations: [ExpectedViolation]?
    /// Compact family, CompactFixes input: the rows, as a LocationBatch holding only `fixes`, hex.
    public var rowsHex: String?
    /// Compact family, LocationBatch input: the canonical CompactFixes of its fixes, hex.
    public var compactHex: String?
    /// Compact family: the conversion error code, when conversion must fail.
    public var compactError: String?
    /// Session and ledger families: the `SessionRequest` or `LedgerRequest` to send, in proto3 JSON, without
    /// its vector_id (the runner sets it).
    public var request: JSONValue?
    /// Session family: what the steps must have done.
    public var expectedSteps: [ExpectedStep]?
    /// Ledger family: the ack each batch must get, in order.
    public var expectedAcks: [ExpectedAck]?
    /// Ledger family: what the server must know of each installation at the end, all of them.
    public var expectedInstallations: [ExpectedInstallation]?
    /// Behaviour families: the whole response the testee must give, as proto3 JSON, without its vector id.
    public var expectedResponse: JSONValue?
    /// Http family, a server case: the request to send (the probe sends it).
    public var httpRequest: HTTPRequestCase?
    /// Http family, a server case: the answers allowed, any one of them (several where the binding lets a server
    /// choose).
    public var expectedAnswers: [HTTPAnswerExpectation]?
    /// Http family: what the server must offer for the case to apply (`policy`, `regions`, `read-back`, `ledger`,
    /// `operator-token`, `raw-connection`, `default-limits`); a probe reports the others not applicable.
    public var requires: [String]?
    /// Session and ledger families: the spec rules the vector checks, by their tags in proto/README.md
    /// (`§ack-scope`).
    public var rules: [String]?
    /// Named properties of the vector; the file's `flags` explains each.
    public var flags: [String]
    /// What the vector tests and why the expectation is what it is.
    public var comment: String

    public init(
        id: String, messageType: String, inputHex: String? = nil, inputJSON: String? = nil, result: Expectation,
        canonicalHex: String? = nil, canonicalJSON: String? = nil, errorCategory: String? = nil,
        violations: [ExpectedViolation]? = nil, rowsHex: String? = nil, compactHex: String? = nil,
        compactError: String? = nil, request: JSONValue? = nil, expectedSteps: [ExpectedStep]? = nil,
        expectedAcks: [ExpectedAck]? = nil, expectedInstallations: [ExpectedInstallation]? = nil,
        expectedResponse: JSONValue? = nil, httpRequest: HTTPRequestCase? = nil,
        expectedAnswers: [HTTPAnswerExpectation]? = nil, requires: [String]? = nil, rules: [String]? = nil,
        flags: [String], comment: String
    ) {
        self.id = id
        self.messageType = messageType
        self.inputHex = inputHex
        self.inputJSON = inputJSON
        self.result = result
        self.canonicalHex = canonicalHex
        self.canonicalJSON = canonicalJSON
        self.errorCategory = errorCategory
        self.violations = violations
        self.rowsHex = rowsHex
        self.compactHex = compactHex
        self.compactError = compactError
        self.request = request
        self.expectedSteps = expectedSteps
        self.expectedAcks = expectedAcks
        self.expectedInstallations = expectedInstallations
        self.expectedResponse = expectedResponse
        self.httpRequest = httpRequest
        self.expectedAnswers = expectedAnswers
        self.requires = requires
        self.rules = rules
        self.flags = flags
        self.comment = comment
    }
}

/// One violation a validator must report: the rule's code, the field path, and the rule's severity ("error" or
/// "warning", as proto/README.md's table states it).
public struct ExpectedViolation: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var code: String
    public var path: String
    public var severity: String

    public init(code: String, path: String, severity: String) {
        self.code = code
        self.path = path
        self.severity = severity
    }

    public static func < (lhs: ExpectedViolation, rhs: ExpectedViolation) -> Bool {
        (lhs.path, lhs.code, lhs.severity) < (rhs.path, rhs.code, rhs.severity)
    }

    public var description: String { "\(code) (\(severity)) at \(path)" }
}

/// Hex helpers for vector files.
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
