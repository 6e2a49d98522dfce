import LocationWire

/// Why a request did not run: the oneof `failure` (`string skipped`, `string runtime_error`) of every response but
/// the vector's, one type for all of them (scripts/codegen/overrides.py, HAND_WRITTEN_ONEOFS).
public enum TesteeFailure: Hashable, Sendable {
    /// The testee lacks the feature.
    case skipped(String)
    /// A bug, or a request the testee does not understand.
    case runtimeError(String)

    var skipped: String? { if case .skipped(let reason) = self { reason } else { nil } }
    var runtimeError: String? { if case .runtimeError(let message) = self { message } else { nil } }

    /// The rows of the oneof's two members, at the numbers the response gives them.
    static func oneofMembers<Message>(
        skipped: UInt32, runtimeError: UInt32, in failure: FieldProperty<Message, TesteeFailure?>
    ) -> [FieldTable<Message>.Field] {
        [
            .oneofMember(skipped, "skipped", .string, in: failure, TesteeFailure.skipped, \.skipped),
            .oneofMember(
                runtimeError, "runtime_error", .string, in: failure, TesteeFailure.runtimeError, \.runtimeError),
        ]
    }
}
