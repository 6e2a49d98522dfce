import LocationWire
import LocationWireConformance
import LocationWireInspection
import LocationWireJSON

/// Collects the vectors of one family. Each vector states the outcome its author intends; the builder computes
/// the expected outputs with the reference codec and stops the generation if the codec disagrees with the
/// intention, so a vector file never records an accident of the implementation as the spec.
struct VectorBuilder {
    enum Intended {
        case valid
        case invalid(ErrorCategory)
        /// Implementations may accept or reject; the comment says why (usually: C++ and upb disagree).
        case acceptable
    }

    let family: String
    /// The files the vectors are built from (the real traces).
    let inputs: VectorInputs
    private(set) var vectors: [Vector] = []
    private var ids: Set<String> = []

    init(family: String, inputs: VectorInputs) {
        self.family = family
        self.inputs = inputs
    }

    mutating func add(_ vector: Vector) {
        precondition(ids.insert(vector.id).inserted, "duplicate vector id \(vector.id)")
        precondition(
            vector.id.hasPrefix(family + "."),
            "vector \(vector.id) is not in family \(family) (regression vectors go in the wire family)")
        for flag in vector.flags { precondition(VectorFlags.all[flag] != nil, "flag \(flag) is not documented") }
        vectors.append(vector)
    }

    static func fullName(_ type: String) -> String {
        MessageRegistry.type(named: type)!.fullMessageName
    }

    /// A vector with binary input.
    mutating func binary(
        _ id: String, _ type: String, _ input: [UInt8], _ intended: Intended, flags: [String], _ comment: String
    ) {
        let codec = AnyMessageCodec(typeName: type)!
        let vector = Vector(
            id: id, messageType: Self.fullName(type), inputHex: Hex.encode(input), result: .valid, flags: flags,
            comment: comment)
        let outcome = Result { () throws(DecodingError) in try codec.decodeBinary(input) }
        add(vector, intended, outcome) { BuiltinTestee.category(of: $0.code) }
    }

    /// A vector with JSON input.
    mutating func json(
        _ id: String, _ type: String, _ input: String, _ intended: Intended, flags: [String], _ comment: String
    ) {
        let codec = AnyMessageCodec(typeName: type)!
        let vector = Vector(
            id: id, messageType: Self.fullName(type), inputJSON: input, result: .valid, flags: flags, comment: comment)
        let outcome = Result { () throws(JSONError) in try codec.decodeJSON(Array(input.utf8)) }
        add(vector, intended, outcome) { $0.code.isSyntaxError ? .jsonSyntax : .jsonSchema }
    }

    /// Completes a vector from what the reference codec did with its input (`outcome`) and adds it; stops the
    /// generation when that is not what the author intended. `category` classifies the codec's error.
    private mutating func add<Failure: Error>(
        _ vector: Vector, _ intended: Intended, _ outcome: Result<any LocationWireMessage, Failure>,
        category: (Failure) -> ErrorCategory
    ) {
        var vector = vector
        let id = vector.id
        switch (intended, outcome) {
        case (.valid, .success(let message)):
            vector.canonicalHex = Hex.encode(AnyMessageCodec.encodeBinary(message))
            vector.canonicalJSON = AnyMessageCodec.encodeJSON(message)
        case (.invalid(let intendedCategory), .failure(let error)):
            let actual = category(error)
            precondition(
                actual == intendedCategory,
                "\(id): intended \(intendedCategory.vectorName), the codec says \(actual.vectorName) (\(error))")
            vector.result = .invalid
            vector.errorCategory = intendedCategory.vectorName
        case (.acceptable, _):
            vector.result = .acceptable
        case (.valid, .failure(let error)):
            preconditionFailure("\(id): intended valid, the codec rejects it: \(error)")
        case (.invalid, .success):
            preconditionFailure("\(id): intended invalid, the codec accepts it")
        }
        add(vector)
    }

    /// A regression vector from conformance/regressions/: its expectation is rechecked like an authored one.
    mutating func regression(_ vector: Vector) {
        let type = String(vector.messageType.split(separator: ".").last ?? "")
        let intended: Intended
        switch vector.result {
        case .valid: intended = .valid
        case .acceptable: intended = .acceptable
        case .invalid:
            guard let category = vector.errorCategory.flatMap(ErrorCategory.init(vectorName:)) else {
                preconditionFailure("regression \(vector.id): an invalid vector needs a known errorCategory")
            }
            intended = .invalid(category)
        }
        if let hex = vector.inputHex, let bytes = Hex.decode(hex) {
            binary(vector.id, type, bytes, intended, flags: vector.flags, vector.comment)
        } else if let json = vector.inputJSON {
            self.json(vector.id, type, json, intended, flags: vector.flags, vector.comment)
        } else {
            preconditionFailure("regression \(vector.id): no input")
        }
    }
}

/// Every flag a vector may carry, with its meaning; written into each file's `flags` table.
enum VectorFlags {
    static let all: [String: String] = [
        "truncated": "The input ends early: inside a tag, a value, a length prefix or a length-delimited payload.",
        "bad-tag": "A field tag that is not allowed: field number 0, beyond 2^29-1, or longer than 5 bytes.",
        "bad-wire-type": "A tag with wire type 6 or 7.",
        "overlong-varint": "A varint (tag, value or length) written with more bytes than needed.",
        "varint-too-long": "A varint of more than 10 bytes.",
        "int64-to-int32": "A 64-bit varint in a 32-bit field; the low 32 bits are the value.",
        "bool-nonzero": "A bool written as a varint other than 0 or 1: any non-zero value is true.",
        "packed": "A repeated scalar field in packed form.",
        "unpacked": "A repeated scalar field in unpacked form.",
        "duplicate-field": "A singular field that occurs more than once: the last value wins.",
        "merge": "A singular sub-message that occurs more than once: the occurrences merge.",
        "unknown-fields": "Fields the schema does not know; they are kept and re-emitted after known fields, in order.",
        "wrong-wire-type": "A known field number with another wire type; it is an unknown field.",
        "group": "A group (wire types 3 and 4), which proto3 only meets as an unknown field.",
        "depth": "Nesting of sub-messages and groups near the limit of 100 levels.",
        "utf8": "A string field that is not valid UTF-8 (or a bytes field that need not be).",
        "huge-length": "A length prefix far beyond the input.",
        "enum-unknown": "An enum value the schema does not name; enums are open and keep it.",
        "explicit-presence": "A field with explicit presence set to zero: it is kept.",
        "implicit-default": "A field without presence set to zero: it is not written.",
        "field-order": "Fields out of field-number order; canonical output sorts them.",
        "float": "A float value whose bit pattern matters: NaN, infinities, -0.0, subnormals.",
        "empty": "An empty message or an empty sub-message.",
        "field-coverage": "One field of one message, to show each field decodes, encodes and maps to JSON.",
        "enum-value": "One named value of one enum field, alone: its number in binary, its name in JSON.",
        "peers-disagree": "Google's C++ protobuf and upb behave differently here, so the result is left open.",
        "stricter-than-peers": "LocationWire rejects what a peer accepts; other implementations may accept it.",
        "json-names": "JSON members under their .proto names instead of their JSON names.",
        "json-number": "Numbers in JSON: strings for 64-bit integers, exponents, fractions, ranges.",
        "json-syntax": "Text that is not well-formed JSON.",
        "json-null": "null in JSON: 'not set' for a field, an error inside an array.",
        "json-bytes": "base64 in JSON: standard and URL-safe alphabets, with and without padding.",
        "json-string": "String escapes and Unicode in JSON.",
        "semantic": "A spec rule beyond the wire format (validation); implementations may opt out.",
        "valid-message": "A message that breaks no rule.",
        "compact": "The compact, columnar form of fixes and its conversion to and from rows.",
        "run-length": "A compact column with run-length coded deltas.",
        "presence-bitmap": "A compact column with a presence bitmap.",
        "hostile": "Input crafted to make a careless implementation allocate or loop without bound.",
        "fuzz-finding": "Found by a fuzzer (libFuzzer or `locwire fuzz`) and kept as a regression vector.",
        "session": "A device's side of a session: a SessionRequest's steps and what each must do (FEATURE_SESSION).",
        "ledger":
            "A server's side: batches in a LedgerRequest, the ack each must get and the keys kept (FEATURE_LEDGER).",
        "recording":
            "A device's recording engine and upload timer over a trace (FEATURE_RECORDING, proto/BEHAVIOR.md).",
        "fences": "A device's fence engine over a trace and armed regions (FEATURE_FENCES, proto/BEHAVIOR.md).",
        "planning": "A server's region planner: catalogue, position, budget (FEATURE_PLANNING, proto/BEHAVIOR.md).",
        "arming": "A device's arming order under a slot limit (FEATURE_ARMING, proto/BEHAVIOR.md).",
        "http": "The HTTP binding (proto/HTTP.md).",
        "http-answer": "An answer to POST /v1/batches and what a device's queue does with it (FEATURE_HTTP_ANSWERS).",
        "http-request":
            "A request and the answers a server may give; locwire-server probe sends it (not a testee request).",
        "reference-disagrees":
            "LocationWire's reference engine does not do what the spec says here; the vector follows the spec.",
    ]
}

/// One part of a vector family: it adds its vectors to the family's builder.
typealias VectorFamilySection = (inout VectorBuilder) -> Void

/// A family of vectors, written to `conformance/vectors/<name>.json`.
protocol VectorFamily {
    /// The family's name: its file's name and the first component of its vector ids.
    static var name: String { get }
    /// What the family tests, for humans (the file's `description`).
    static var description: String { get }
    /// The family's parts, in the order their vectors appear in the file.
    static var sections: [VectorFamilySection] { get }
    /// What a server must be set up with for the family's request vectors (the file's `setup`), or nil.
    static var setup: [String: String]? { get }
}

extension VectorFamily {
    static var setup: [String: String]? { nil }

    /// Every vector of the family.
    static func build(_ inputs: VectorInputs) -> VectorBuilder {
        var builder = VectorBuilder(family: name, inputs: inputs)
        for section in sections { section(&builder) }
        return builder
    }
}
