import LocationWireFuzzing

// The first byte picks one of the message types (MessageRegistry.allTypes[byte % allTypes.count]); decodes the
// rest as protobuf binary of that type and validates it, then checks FuzzOracle's properties (round trip, fixed point, JSON);
// a violation traps, so that libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValidation(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOracle.libFuzzerEntry(.validation, data, size)
}
