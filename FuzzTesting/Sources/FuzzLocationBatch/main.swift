import LocationWireFuzzing

// Decodes a LocationBatch, then checks FuzzOracle's properties (round trip, fixed point, JSON);
// a violation traps, so that libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocationBatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOracle.libFuzzerEntry(.locationBatch, data, size)
}
