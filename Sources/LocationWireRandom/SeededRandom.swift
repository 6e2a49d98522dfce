#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SplitMix64: small, fast, and the same on every platform, so fixtures are reproducible from their seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [low, high).
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }

    public mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// Standard normal, by Box-Muller.
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(0, 1), 1e-300)
        let u2 = uniform(0, 1)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
