import LocationWire

/// A message of the testee protocol (`proto/locationwire/conformance/v1/testee.proto`). Each declares its fields
/// once, in its ``TableCodedMessage/fieldTable``, from which its decoder, encoder and schema derive.
public protocol ProtocolMessage: TableCodedMessage {}
