// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for LocationWire. This package lives apart from the main one because it is built with
// sanitizers (`swift build -c release --sanitize=fuzzer --sanitize=address`), which instrument every module,
// and because a fuzz target's `main` comes from libFuzzer rather than from Swift.
//
// One executable target per FuzzOracle.Target; each main.swift holds only the `LLVMFuzzerTestOneInput` entry
// point, which runs `FuzzOracle.check` and traps on a violation. See README.md and fuzz.sh. The targets link only
// the main package's lean LocationWireFuzzing module (and the codec below it): neither the conformance testee
// and runner nor the vector generator is compiled with sanitizers.
let fuzzTargets = [
    "FuzzLocationBatch",
    "FuzzBatchAck",
    "FuzzRegionAssignment",
    "FuzzRegionRequest",
    "FuzzFenceEvent",
    "FuzzTrackingPolicy",
    "FuzzValidation",
    "FuzzJSON",
]

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        // The main package, by path: `name:` pins the identity whatever the checkout's folder is called
        // (OSS-Fuzz clones it to $SRC/locationwire, a local checkout may be anything).
        .package(name: "LocationWire", path: "..")
    ],
    targets: fuzzTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [.product(name: "_LocationWireFuzzing", package: "LocationWire")]
        )
    },
    swiftLanguageModes: [.v6]
)
