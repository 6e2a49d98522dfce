import LocationWire

// The ledger persists as `locationwire.session.v1.IngestLedger` and each installation as an InstallationRecord
// (proto/locationwire/session/v1/ingest_ledger.proto, the format's specification; the reference server stores the
// records one by one). Like the queue's, the format is the reference engine's own. The policy is configuration
// and is not persisted.

extension IngestLedger: TableCodedMessage {
    public static let fieldTable = FieldTable<IngestLedger>(
        "locationwire.session.v1.IngestLedger",
        [
            .repeated(1, "installations", .message, \.sortedInstallations)
        ])

    /// ``installations`` as stored: sorted by key. Setting it replaces them all; of two records with one key,
    /// the later wins.
    var sortedInstallations: [InstallationRecord] {
        get { installations.keys.sorted().map { installations[$0]! } }
        set {
            installations = [:]
            for record in newValue {
                installations[InstallationKey(deviceId: record.deviceId, installId: record.installId)] = record
            }
        }
    }
}

extension InstallationRecord: TableCodedMessage {
    public static let fieldTable = FieldTable<InstallationRecord>(
        "locationwire.session.v1.InstallationRecord",
        [
            .alwaysWritten(1, "device_id", .string, \.deviceId),
            .alwaysWritten(2, "install_id", .fixed64, \.installId),
            .sequenceSet(3, "stored_fixes", \.storedFixes),
            .sequenceSet(4, "rejected_fixes", \.rejectedFixes),
            .sequenceSet(5, "stored_events", \.storedEvents),
            .sequenceSet(6, "rejected_events", \.rejectedEvents),
            .singular(7, "fix_floor", .uint64, \.fixFloor),
            .singular(8, "event_floor", .uint64, \.eventFloor),
            .repeated(9, "lifecycle_kinds", .int32, \.lifecycleKinds),
            .repeated(10, "lifecycle_times", .int64, \.lifecycleTimes),
        ])
}

extension FieldTable<InstallationRecord>.Field {
    /// A ``SequenceSet`` stored as its ranges' bounds, `[first, last, first, last, ...]`: a repeated uint64,
    /// packed. Only the packed form is read (an unpacked bound would split a pair; the key of one is kept as an
    /// unknown field); bounds that are not sorted, disjoint ranges are refused as `invalid-persisted-state`.
    static func sequenceSet(
        _ number: UInt32, _ name: StaticString, _ property: FieldProperty<InstallationRecord, SequenceSet>
    ) -> Self {
        let bounds = FieldKind<UInt64>.uint64
        let declaration = FieldDeclaration(number, name, bounds.type, .repeated)
        let packedKey = declaration.key
        return Self(
            declaration, keys: [packedKey],
            decode: { record, key, reader throws(DecodingError) in
                var list = record[keyPath: property].flattened
                try bounds.readElements(&list, key, &reader)
                guard let set = SequenceSet(flattened: list) else {
                    throw DecodingError(
                        code: .invalidPersistedState, offset: reader.offset,
                        message: "a sequence set that is not sorted, disjoint ranges")
                }
                record[keyPath: property] = set
            },
            encode: { record, writer in
                bounds.writeElements(record[keyPath: property].flattened, packedKey, &writer)
            })
    }
}
