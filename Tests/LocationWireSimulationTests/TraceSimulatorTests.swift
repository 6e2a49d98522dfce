import LocationWire
import LocationWireSimulation
import Testing

/// The trace simulator: what a phone's positioning provider delivers once a second, the same from the same seed.
@Suite struct TraceSimulatorTests {
    @Test("The same seed gives the same trace, another seed another; one fix a second, numbered from the first")
    func tracesAreReproducibleFromTheSeed() {
        for scenario in TraceSimulator.Scenario.allCases {
            var first = TraceSimulator(scenario: scenario, seed: 21, firstSequence: 5)
            var second = TraceSimulator(scenario: scenario, seed: 21, firstSequence: 5)
            var other = TraceSimulator(scenario: scenario, seed: 22, firstSequence: 5)
            let trace = first.fixes(120)
            #expect(trace == second.fixes(120), "\(scenario)")
            #expect(trace != other.fixes(120), "\(scenario)")
            #expect(trace.map(\.sequence) == Array(5..<125), "\(scenario)")
            let elapsed = trace.compactMap(\.elapsedRealtimeMs)
            #expect(elapsed.count == trace.count, "\(scenario)")
            #expect(zip(elapsed, elapsed.dropFirst()).allSatisfy { $1 - $0 == 1_000 }, "\(scenario)")
        }
    }
}
