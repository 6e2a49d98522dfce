import LocationWireJSON

/// The answer of `GET /v1/devices/{device_id}/ledger` (`§http-ledger`): per installation, the floors and the
/// stored, refused and lost numbers as inclusive ranges, 64-bit numbers as decimal strings.
public struct LedgerDocument: Equatable, Sendable {
    public var deviceId: String
    /// Sorted by `installId`.
    public var installations: [Installation]

    public struct Installation: Equatable, Sendable {
        public var installId: UInt64
        public var fixSequenceFloor: UInt64
        public var eventSequenceFloor: UInt64
        /// Each list sorted, its ranges neither overlapping nor adjacent.
        public var storedFixes: [ClosedRange<UInt64>]
        public var rejectedFixes: [ClosedRange<UInt64>]
        public var lostFixes: [ClosedRange<UInt64>]
        public var storedEvents: [ClosedRange<UInt64>]
        public var rejectedEvents: [ClosedRange<UInt64>]
        public var lostEvents: [ClosedRange<UInt64>]

        public init(
            installId: UInt64, fixSequenceFloor: UInt64 = 0, eventSequenceFloor: UInt64 = 0,
            storedFixes: [ClosedRange<UInt64>] = [], rejectedFixes: [ClosedRange<UInt64>] = [],
            lostFixes: [ClosedRange<UInt64>] = [], storedEvents: [ClosedRange<UInt64>] = [],
            rejectedEvents: [ClosedRange<UInt64>] = [], lostEvents: [ClosedRange<UInt64>] = []
        ) {
            self.installId = installId
            self.fixSequenceFloor = fixSequenceFloor
            self.eventSequenceFloor = eventSequenceFloor
            self.storedFixes = storedFixes
            self.rejectedFixes = rejectedFixes
            self.lostFixes = lostFixes
            self.storedEvents = storedEvents
            self.rejectedEvents = rejectedEvents
            self.lostEvents = lostEvents
        }

        /// The members, named as the JSON names them, with each list.
        static var lists: [(name: String, path: WritableKeyPath<Installation, [ClosedRange<UInt64>]>)] {
            [
                ("storedFixes", \.storedFixes), ("rejectedFixes", \.rejectedFixes), ("lostFixes", \.lostFixes),
                ("storedEvents", \.storedEvents), ("rejectedEvents", \.rejectedEvents), ("lostEvents", \.lostEvents),
            ]
        }
    }

    public init(deviceId: String, installations: [Installation]) {
        self.deviceId = deviceId
        self.installations = installations
    }

    public var json: JSONValue {
        .object(
            JSONObject([
                .init(key: "deviceId", value: .string(deviceId)),
                .init(
                    key: "installations",
                    value: .array(
                        installations.map { installation in
                            var members: [JSONObject.Member] = [
                                .init(key: "installId", value: .string(String(installation.installId))),
                                .init(key: "fixSequenceFloor", value: .string(String(installation.fixSequenceFloor))),
                                .init(
                                    key: "eventSequenceFloor", value: .string(String(installation.eventSequenceFloor))),
                            ]
                            for (name, path) in Installation.lists {
                                let ranges = installation[keyPath: path].map { range in
                                    JSONValue.array([
                                        .string(String(range.lowerBound)), .string(String(range.upperBound)),
                                    ])
                                }
                                members.append(.init(key: name, value: .array(ranges)))
                            }
                            return .object(JSONObject(members))
                        })),
            ]))
    }

    /// Reads the document; nil when it is not one (a member missing or of the wrong form).
    public init?(json value: JSONValue) {
        guard let deviceId = value["deviceId"]?.string, let entries = value["installations"]?.array else { return nil }
        var installations: [Installation] = []
        for entry in entries {
            guard let installId = entry["installId"]?.string.flatMap({ UInt64($0) }),
                let fixFloor = entry["fixSequenceFloor"]?.string.flatMap({ UInt64($0) }),
                let eventFloor = entry["eventSequenceFloor"]?.string.flatMap({ UInt64($0) })
            else { return nil }
            var installation = Installation(
                installId: installId, fixSequenceFloor: fixFloor, eventSequenceFloor: eventFloor)
            for (name, path) in Installation.lists {
                guard let ranges = entry[name]?.array else { return nil }
                var parsed: [ClosedRange<UInt64>] = []
                for range in ranges {
                    guard let bounds = range.array, bounds.count == 2,
                        let first = bounds[0].string.flatMap({ UInt64($0) }),
                        let last = bounds[1].string.flatMap({ UInt64($0) }), first <= last
                    else { return nil }
                    parsed.append(first...last)
                }
                installation[keyPath: path] = parsed
            }
            installations.append(installation)
        }
        self.init(deviceId: deviceId, installations: installations)
    }
}

/// The answer of `DELETE /v1/devices/{device_id}` (`§http-erase`): what was removed, by kind.
public struct ErasureDocument: Equatable, Sendable {
    public var deviceId: String
    public var removed: Removed

    /// Counts of what an erasure removed.
    public struct Removed: Equatable, Sendable {
        public var fixes = 0
        public var fenceEvents = 0
        public var lifecycleEvents = 0
        public var deviceStatuses = 0
        /// Armed-region reports; 0 for a server that keeps none.
        public var armedRegions = 0
        public var assignments = 0
        /// Partitions dropped whole; always 0 for an erasure (retention drops them).
        public var partitionsDropped = 0

        public init() {}

        static var members: [(name: String, path: WritableKeyPath<Removed, Int>)] {
            [
                ("fixes", \.fixes), ("fenceEvents", \.fenceEvents), ("lifecycleEvents", \.lifecycleEvents),
                ("deviceStatuses", \.deviceStatuses), ("armedRegions", \.armedRegions),
                ("assignments", \.assignments), ("partitionsDropped", \.partitionsDropped),
            ]
        }
    }

    public init(deviceId: String, removed: Removed) {
        self.deviceId = deviceId
        self.removed = removed
    }

    public var json: JSONValue {
        .object(
            JSONObject([
                .init(key: "deviceId", value: .string(deviceId)),
                .init(
                    key: "removed",
                    value: .object(
                        JSONObject(
                            Removed.members.map { name, path in
                                .init(key: name, value: .number(Double(removed[keyPath: path])))
                            }))),
            ]))
    }

    /// Reads the document; nil when it is not one (every count is required).
    public init?(json value: JSONValue) {
        guard let deviceId = value["deviceId"]?.string, let counts = value["removed"] else { return nil }
        var removed = Removed()
        for (name, path) in Removed.members {
            guard let number = counts[name]?.number, number >= 0, number == number.rounded() else { return nil }
            removed[keyPath: path] = Int(number)
        }
        self.init(deviceId: deviceId, removed: removed)
    }
}
