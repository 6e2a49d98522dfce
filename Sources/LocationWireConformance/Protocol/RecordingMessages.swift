import LocationWire

/// `locationwire.conformance.v1.RecordingRequest`: fixes as the OS delivers them, under one policy, through the
/// recording engine and the upload timer (`FEATURE_RECORDING`).
public struct RecordingRequest: BehaviorRequest {
    public typealias Response = RecordingResponse
    public var vectorId: String = ""
    /// The policy in force; nil is the default policy.
    public var policy: TrackingPolicy?
    public var fixes: [LocationFix] = []
    /// The answer to each upload attempt, in order; attempts beyond the list succeed.
    public var uploadResults: [UploadAttemptResult] = []
    public var unknownFields = UnknownFields()

    public init() {}

    public static let feature = TesteeFeature.recording
    public var envelopeKind: TesteeRequest.Kind { .recording(self) }
    public static func response(in kind: TesteeResponse.Kind) -> RecordingResponse? { kind.recording }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.policy.key: policy = try reader.readMessage(merging: policy)
        case Field.fixes.key: try reader.readMessage(appendingTo: &fixes)
        case Field.uploadResults.key: try reader.readMessage(appendingTo: &uploadResults)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        if let policy { writer.writeMessageField(Field.policy.key, policy) }
        writer.writeRepeatedMessageField(Field.fixes.key, fixes)
        writer.writeRepeatedMessageField(Field.uploadResults.key, uploadResults)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.RecordingRequest`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, policy, fixes, uploadResults

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .policy: FieldDeclaration(2, "policy", .message(TrackingPolicy.self))
            case .fixes: FieldDeclaration(3, "fixes", .message(LocationFix.self), .repeated)
            case .uploadResults: FieldDeclaration(4, "upload_results", .message(UploadAttemptResult.self), .repeated)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.RecordingRequest", fields: Field.self)
}

/// `locationwire.conformance.v1.UploadAttemptResult`: how one upload attempt ends (a oneof).
public struct UploadAttemptResult: ProtocolMessage {
    public enum Result: Hashable, Sendable {
        case succeeded
        case transportFailed
        case held(retryAfterMs: UInt32)
    }

    public var result: Result?
    public var unknownFields = UnknownFields()

    public init() {}

    public init(_ result: Result) {
        self.result = result
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.succeeded.key: result = try reader.readBool() ? .succeeded : nil
        case Field.transportFailed.key: result = try reader.readBool() ? .transportFailed : nil
        case Field.heldRetryAfterMs.key: result = .held(retryAfterMs: try reader.readUInt32())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        switch result {
        case .succeeded: writer.writeBoolField(Field.succeeded.key, true)
        case .transportFailed: writer.writeBoolField(Field.transportFailed.key, true)
        case .held(let retryAfterMs): writer.writeVarintField(Field.heldRetryAfterMs.key, UInt64(retryAfterMs))
        case nil: break
        }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.UploadAttemptResult`, as `proto/` declares them.
    public enum Field: MessageFields {
        case succeeded, transportFailed, heldRetryAfterMs

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .succeeded: FieldDeclaration(1, "succeeded", .bool, .optional)
            case .transportFailed: FieldDeclaration(2, "transport_failed", .bool, .optional)
            case .heldRetryAfterMs: FieldDeclaration(3, "held_retry_after_ms", .uint32, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.UploadAttemptResult", fields: Field.self)
}

/// `locationwire.conformance.v1.RecordingResponse`: what was recorded, dropped and uploaded.
public struct RecordingResponse: BehaviorResponse {
    public var vectorId: String = ""
    public var recorded: [RecordedFix] = []
    public var dropped: [DroppedFix] = []
    public var uploads: [UploadAttempt] = []
    public var failure: TesteeFailure?
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.vectorId.key: vectorId = try reader.readString()
        case Field.recorded.key: try reader.readMessage(appendingTo: &recorded)
        case Field.dropped.key: try reader.readMessage(appendingTo: &dropped)
        case Field.uploads.key: try reader.readMessage(appendingTo: &uploads)
        case Field.skipped.key, Field.runtimeError.key:
            failure = try TesteeFailure.read(skipped: key == Field.skipped.key, from: &reader)
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if !vectorId.isEmpty { writer.writeStringField(Field.vectorId.key, vectorId) }
        writer.writeRepeatedMessageField(Field.recorded.key, recorded)
        writer.writeRepeatedMessageField(Field.dropped.key, dropped)
        writer.writeRepeatedMessageField(Field.uploads.key, uploads)
        failure?.write(to: &writer, skipped: Field.skipped.key, runtimeError: Field.runtimeError.key)
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.RecordingResponse`, as `proto/` declares them.
    public enum Field: MessageFields {
        case vectorId, recorded, dropped, uploads, skipped, runtimeError

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .vectorId: FieldDeclaration(1, "vector_id", .string)
            case .recorded: FieldDeclaration(2, "recorded", .message(RecordedFix.self), .repeated)
            case .dropped: FieldDeclaration(3, "dropped", .message(DroppedFix.self), .repeated)
            case .uploads: FieldDeclaration(4, "uploads", .message(UploadAttempt.self), .repeated)
            case .skipped: FieldDeclaration(5, "skipped", .string, .optional)
            case .runtimeError: FieldDeclaration(6, "runtime_error", .string, .optional)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.RecordingResponse", fields: Field.self)
}

/// `locationwire.conformance.v1.RecordedFix`: a delivered fix's index and the reason it was recorded with.
public struct RecordedFix: ProtocolMessage {
    public var index: UInt32 = 0
    public var reason: FixReason = .unspecified
    public var unknownFields = UnknownFields()

    public init() {}

    public init(index: UInt32, reason: FixReason) {
        self.index = index
        self.reason = reason
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.index.key: index = try reader.readUInt32()
        case Field.reason.key: reason = FixReason(rawValue: try reader.readInt32())
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if index != 0 { writer.writeVarintField(Field.index.key, UInt64(index)) }
        if reason.rawValue != 0 { writer.writeInt32Field(Field.reason.key, reason.rawValue) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.RecordedFix`, as `proto/` declares them.
    public enum Field: MessageFields {
        case index, reason

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .index: FieldDeclaration(1, "index", .uint32)
            case .reason: FieldDeclaration(2, "reason", .enumeration(FixReason.self))
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.RecordedFix", fields: Field.self)
}

/// `locationwire.conformance.v1.DroppedFix`: a delivered fix's index and the drop code of its stage.
public struct DroppedFix: ProtocolMessage {
    public var index: UInt32 = 0
    public var code: String = ""
    public var unknownFields = UnknownFields()

    public init() {}

    public init(index: UInt32, code: String) {
        self.index = index
        self.code = code
    }

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.index.key: index = try reader.readUInt32()
        case Field.code.key: code = try reader.readString()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if index != 0 { writer.writeVarintField(Field.index.key, UInt64(index)) }
        if !code.isEmpty { writer.writeStringField(Field.code.key, code) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.DroppedFix`, as `proto/` declares them.
    public enum Field: MessageFields {
        case index, code

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .index: FieldDeclaration(1, "index", .uint32)
            case .code: FieldDeclaration(2, "code", .string)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.DroppedFix", fields: Field.self)
}

/// `locationwire.conformance.v1.UploadAttempt`: when an upload went, and which recorded fixes it carried.
public struct UploadAttempt: ProtocolMessage {
    public var bootId: UInt64 = 0
    public var elapsedRealtimeMs: UInt64 = 0
    /// Places in RecordingResponse.recorded: the backlog, oldest first, then the live fix.
    public var recorded: [UInt32] = []
    public var succeeded = false
    public var unknownFields = UnknownFields()

    public init() {}

    public mutating func decodeField(_ key: FieldKey, from reader: inout WireReader) throws(DecodingError) -> Bool {
        switch key {
        case Field.bootId.key: bootId = try reader.readFixed64()
        case Field.elapsedRealtimeMs.key: elapsedRealtimeMs = try reader.readVarint()
        case Field.recorded.key, Field.recorded.unpackedKey:
            var values: [UInt64] = []
            try reader.readVarints(key, appendingTo: &values)
            recorded += values.map { UInt32(truncatingIfNeeded: $0) }
        case Field.succeeded.key: succeeded = try reader.readBool()
        default: return false
        }
        return true
    }

    public func encodeFields(to writer: inout WireWriter) {
        if bootId != 0 { writer.writeFixed64Field(Field.bootId.key, bootId) }
        if elapsedRealtimeMs != 0 { writer.writeVarintField(Field.elapsedRealtimeMs.key, elapsedRealtimeMs) }
        writer.writePackedVarints(Field.recorded.key, recorded) { UInt64($0) }
        if succeeded { writer.writeBoolField(Field.succeeded.key, true) }
        writer.writeUnknownFields(unknownFields)
    }

    /// The fields of `locationwire.conformance.v1.UploadAttempt`, as `proto/` declares them.
    public enum Field: MessageFields {
        case bootId, elapsedRealtimeMs, recorded, succeeded

        @inline(__always)
        public var declaration: FieldDeclaration {
            switch self {
            case .bootId: FieldDeclaration(1, "boot_id", .fixed64)
            case .elapsedRealtimeMs: FieldDeclaration(2, "elapsed_realtime_ms", .uint64)
            case .recorded: FieldDeclaration(3, "recorded", .uint32, .repeated)
            case .succeeded: FieldDeclaration(5, "succeeded", .bool)
            }
        }
    }

    public static let schema = MessageSchema("locationwire.conformance.v1.UploadAttempt", fields: Field.self)
}
