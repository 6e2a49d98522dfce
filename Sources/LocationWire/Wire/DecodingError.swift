/// Why binary input was rejected, where (byte offset), and in which field.
///
/// `code` is stable: tools and the conformance suite compare it, so a code is never renamed or reused.
/// `offset` counts bytes from the start of the input given to the decoder and points at the first byte of the
/// offending item (a tag, a length, a value). `fieldPath` names the field being decoded, for instance
/// `LocationBatch.fixes[3].horizontal_accuracy_cm`; it is empty only for a path-less input (a bare truncated tag
/// at the top level still names the message type).
public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason. Compare codes, not messages.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as a kebab-case string, e.g. `invalid-utf8`.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The input ends inside a tag, a varint, a fixed-width value, a group, or before the end of a
        /// length-delimited payload (a length prefix claims more bytes than the input has).
        public static let truncated = Code("truncated")
        /// A varint runs over 10 bytes, or a length prefix over 5 (lengths are 32-bit varints).
        public static let varintTooLong = Code("varint-too-long")
        /// A tag with field number 0, a field number above 2^29 - 1, or a tag longer than 5 bytes.
        public static let invalidTag = Code("invalid-tag")
        /// A tag with wire type 6 or 7.
        public static let invalidWireType = Code("invalid-wire-type")
        /// An end-group tag without a matching start-group tag of the same field number.
        public static let unmatchedEndGroup = Code("unmatched-end-group")
        /// A group that is still open at the end of its enclosing message.
        public static let unterminatedGroup = Code("unterminated-group")
        /// A length prefix larger than the bytes left in its enclosing sub-message, though the input goes on.
        public static let lengthExceedsMessage = Code("length-exceeds-message")
        /// A packed fixed-width field whose length is not a multiple of the element size.
        public static let invalidPackedLength = Code("invalid-packed-length")
        /// A `string` field that is not valid UTF-8.
        public static let invalidUTF8 = Code("invalid-utf8")
        /// Sub-messages and groups nested deeper than ``DecodingLimits/maxDepth``.
        public static let depthLimitExceeded = Code("depth-limit-exceeded")
        /// More elements in one repeated field than ``DecodingLimits/maxRepeatedCount``.
        public static let tooManyElements = Code("too-many-elements")
        /// The input is larger than ``DecodingLimits/maxInputBytes``.
        public static let inputTooLarge = Code("input-too-large")

        /// A field the decoder does not recognise, when ``DecodingLimits/rejectsUnknownFields`` is set (never
        /// with the default limits, which keep unknown fields).
        package static let unknownField = Code("unknown-field")
        /// Persisted engine state (LocationWireSession) that decodes but breaks the state's own invariants.
        package static let invalidPersistedState = Code("invalid-persisted-state")

        /// Every code, for documentation and exhaustive tests.
        public static let all: [Code] = [
            .truncated, .varintTooLong, .invalidTag, .invalidWireType, .unmatchedEndGroup, .unterminatedGroup,
            .lengthExceedsMessage, .invalidPackedLength, .invalidUTF8, .depthLimitExceeded, .tooManyElements,
            .inputTooLarge,
        ]
    }

    /// What went wrong.
    public let code: Code
    /// Byte offset of the offending item from the start of the input.
    public let offset: Int
    /// The field being decoded when it went wrong.
    public internal(set) var fieldPath: FieldPath
    /// A sentence for humans; may change between versions.
    public let message: String

    public init(code: Code, offset: Int, fieldPath: FieldPath = FieldPath(), message: String) {
        self.code = code
        self.offset = offset
        self.fieldPath = fieldPath
        self.message = message
    }

    public var description: String {
        let path = fieldPath.isEmpty ? "" : " in \(fieldPath)"
        return "\(code) at byte \(offset)\(path): \(message)"
    }

    /// Names the field of `key` on the way out of a message decoder (no component when no tag was read yet).
    @inline(never)
    package func inField(_ key: FieldKey, of schema: MessageSchema) -> DecodingError {
        guard let component = schema.pathComponent(forKey: key) else { return self }
        return prefixed(with: component)
    }

    /// Adds a path component on the way out of a decoder.
    @inline(never)
    func prefixed(with component: FieldPath.Component) -> DecodingError {
        var copy = self
        copy.fieldPath.prepend(component)
        return copy
    }
}
