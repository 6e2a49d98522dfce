import LocationWireFuzzing

// Decodes a TrackingPolicy, then checks FuzzOracle's properties (round trip, fixed point, JSON);
// a violation traps, so that libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrackingPolicy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOracle.libFuzzerEntry(.trackingPolicy, data, size)
}
