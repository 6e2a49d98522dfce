// swift-tools-version:6.1
// LocationWire's benchmarks: the hand-written codec next to swift-protobuf in process, and next to C++ protobuf,
// protobuf-c and upb (Benchmarks/peers/) through their own harnesses, on the same bytes in the same run.
// `Benchmarks/run.sh` builds everything and writes Benchmarks/RESULTS.md.
import PackageDescription

let package = Package(
    name: "LocationWireBenchmarks",
    dependencies: [
        .package(name: "LocationWire", path: ".."),
        .package(path: "../conformance/testees/swift-protobuf/SwiftProtobufTestee"),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Counts malloc, calloc, realloc and the aligned allocators by interposing them in the executable.
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "locwire-bench",
            dependencies: [
                "CMallocCounter",
                .product(name: "LocationWire", package: "LocationWire"),
                .product(name: "_LocationWireRandom", package: "LocationWire"),
                .product(name: "_LocationWireInspection", package: "LocationWire"),
                .product(name: "_LocationWireInterchange", package: "LocationWire"),
                .product(name: "_LocationWireCatalogues", package: "LocationWire"),
                .product(name: "_LocationWireSimulation", package: "LocationWire"),
                .product(name: "_LocationWireConformance", package: "LocationWire"),
                .product(name: "_LocationWireBehavior", package: "LocationWire"),
                .product(name: "_LocationWireSession", package: "LocationWire"),
                .product(name: "LocationWireDevice", package: "LocationWire"),
                .product(name: "LocationWireSwiftProtobuf", package: "SwiftProtobufTestee"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/BenchmarkDriver"
        ),
    ],
    swiftLanguageModes: [.v6]
)
