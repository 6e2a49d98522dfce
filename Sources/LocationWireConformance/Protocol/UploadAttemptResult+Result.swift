import LocationWire

extension UploadAttemptResult {
    /// How the attempt ends: the oneof `result`, whose two bool members are flags (scripts/codegen/overrides.py,
    /// HAND_WRITTEN_ONEOFS). A flag set to false is held as no result, which succeeds too, so only true is ever
    /// written.
    public enum Result: Hashable, Sendable {
        /// `succeeded`: stored, the fixes are deleted.
        case succeeded
        /// `transport_failed`: the device backs off.
        case transportFailed
        /// `held_retry_after_ms`: nothing stored, wait this long.
        case held(retryAfterMs: UInt32)

        var heldRetryAfterMs: UInt32? { if case .held(let retryAfterMs) = self { retryAfterMs } else { nil } }

        /// The rows of the oneof's three members.
        static func oneofMembers<Message>(
            succeeded: UInt32, transportFailed: UInt32, heldRetryAfterMs: UInt32,
            in result: FieldProperty<Message, Result?>
        ) -> [FieldTable<Message>.Field] {
            [
                flag(succeeded, "succeeded", .succeeded, in: result),
                flag(transportFailed, "transport_failed", .transportFailed, in: result),
                .oneofMember(
                    heldRetryAfterMs, "held_retry_after_ms", .uint32, in: result, Result.held, \.heldRetryAfterMs),
            ]
        }

        /// The row of a flag member: true reads as `flag`, false as no result; only `flag` is written, as true.
        private static func flag<Message>(
            _ number: UInt32, _ name: StaticString, _ flag: Result, in result: FieldProperty<Message, Result?>
        ) -> FieldTable<Message>.Field {
            .oneofMember(number, name, .bool, in: result, { $0 ? flag : nil }, { $0 == flag ? true : nil })
        }
    }
}
