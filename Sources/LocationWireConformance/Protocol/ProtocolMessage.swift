import LocationWire

/// A message of the testee protocol (`proto/locationwire/conformance/v1/testee.proto`). Each declares its fields
/// once, in its ``TableCodedMessage/fieldTable``, from which its decoder, encoder and schema derive. The structs,
/// their tables and the enums are generated from the `.proto` (`Generated/TesteeProtocol.swift`, by
/// scripts/regenerate.sh); this folder holds what is not mechanical: behaviour, helpers, and the oneof types
/// scripts/codegen/overrides.py declares hand-written.
public protocol ProtocolMessage: TableCodedMessage {}

extension TesteeResponse {
    /// The answer to a request the testee cannot read: a runtime error for no vector in particular.
    static func runtimeError(_ message: String) -> TesteeResponse {
        TesteeResponse(.vector(VectorResponse(vectorId: "", result: .runtimeError(message))))
    }
}

extension LedgerBatch {
    /// The bytes as they arrive.
    public var bytes: [UInt8] {
        switch form {
        case .batch(let batch): batch.serializedBytes()
        case .encoded(let bytes): bytes
        case nil: []
        }
    }
}

extension SequenceRange {
    /// The sequence numbers of `range`.
    public init(_ range: ClosedRange<UInt64>) {
        self.init()
        first = range.lowerBound
        last = range.upperBound
    }
}

extension ErrorCategory {
    /// The short name vector files use: "truncated", "bad-tag", ...
    public var vectorName: String {
        guard let name else { return String(rawValue) }
        return String(name.dropFirst("ERROR_CATEGORY_".count).lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// The category for a vector file's short name.
    public init?(vectorName: String) {
        guard
            let match = Self.schema.values.first(where: {
                ErrorCategory(rawValue: $0.number).vectorName == vectorName
            })
        else { return nil }
        self.init(rawValue: match.number)
    }
}
