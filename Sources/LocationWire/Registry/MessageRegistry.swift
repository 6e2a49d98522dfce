/// Every LocationWire message type, for tools that pick a type by name (the CLI, the conformance testee).
public enum MessageRegistry {
    /// All message types in `proto/locationwire/v1/`, top-level messages first.
    public static let allTypes: [any LocationWireMessage.Type] = [
        LocationBatch.self, BatchAck.self, RegionAssignment.self, RegionRequest.self, FenceEvent.self,
        TrackingPolicy.self, LocationFix.self, CompactFixes.self, FixColumn.self, DeviceStatus.self,
        LifecycleEvent.self, ArmedRegions.self, AckRange.self, Region.self, Circle.self, Polygon.self,
        RefreshPolicy.self, DeviceCommand.self,
    ]

    /// The messages a peer sends on its own: the ones exchanged between device and server.
    public static let topLevelTypes: [any LocationWireMessage.Type] = [
        LocationBatch.self, BatchAck.self, RegionAssignment.self, RegionRequest.self, FenceEvent.self,
        TrackingPolicy.self,
    ]

    /// Finds a type by short name (`LocationBatch`) or full name (`locationwire.v1.LocationBatch`).
    public static func type(named name: String) -> (any LocationWireMessage.Type)? {
        allTypes.first { $0.schema.name == name || $0.schema.fullName == name }
    }

    /// Every message schema, for schema-driven tools.
    public static var allSchemas: [MessageSchema] { allTypes.map { $0.schema } }
}
