// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way:
//   LocationWire (wire primitives, messages, schema; standard library only)
//     <- LocationWireValidation (spec rules; standard library only)
//     <- LocationWireJSON (proto3 JSON mapping; standard library only)
//     <- LocationWireTools (dump, type registry, trace simulator: shared by the CLI and tests)
//     <- LocationWireConformance (testee protocol, built-in testee, vectors, runner, matrix)
//     <- LocationWireFuzzing (fuzz oracle, wire-aware mutations, differential fuzzer)
//     <- locwire (command line, swift-argument-parser)
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "LocationWire",
    products: [
        .library(name: "LocationWire", targets: ["LocationWire", "LocationWireValidation", "LocationWireJSON"]),
        .executable(name: "locwire", targets: ["locwire"]),
        // For the packages that live apart: FuzzTesting/ (built with sanitizers) and Benchmarks/.
        .library(name: "LocationWireFuzzing", targets: ["LocationWireFuzzing"]),
        .library(name: "LocationWireTools", targets: ["LocationWireTools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .target(name: "LocationWire", swiftSettings: strictSettings),
        .target(name: "LocationWireValidation", dependencies: ["LocationWire"], swiftSettings: strictSettings),
        .target(name: "LocationWireJSON", dependencies: ["LocationWire"], swiftSettings: strictSettings),
        .target(
            name: "LocationWireTools",
            dependencies: ["LocationWire", "LocationWireValidation", "LocationWireJSON"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireConformance",
            dependencies: ["LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireTools"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireFuzzing",
            dependencies: ["LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireTools", "LocationWireConformance"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "locwire",
            dependencies: [
                "LocationWireTools",
                "LocationWireConformance",
                "LocationWireFuzzing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LocationWireTests",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireTools",
                "LocationWireConformance", "LocationWireFuzzing",
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
