import LocationWireFuzzing

// Decodes a BatchAck, then checks FuzzOracle's properties (round trip, fixed point, JSON);
// a violation traps, so that libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchAck(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOracle.libFuzzerEntry(.batchAck, data, size)
}
