import LocationWireFuzzing

// The first byte picks one of the message types (MessageRegistry.allTypes[byte % allTypes.count]); parses the
// rest as that type's proto3 JSON, then checks FuzzOracle's properties (round trip, fixed point, JSON);
// a violation traps, so that libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOracle.libFuzzerEntry(.json, data, size)
}
