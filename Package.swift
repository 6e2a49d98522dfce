// swift-tools-version:6.2
import PackageDescription

// Dependencies point one way: each module depends only on modules listed above it.
//   LocationWire                 wire primitives, messages, schema; standard library only
//   LocationWireGeometry         the spec's sphere: distances, chords, unit vectors; standard library and libm
//   LocationWireRandom           the seeded random generator (SplitMix64), the same numbers on every platform;
//                                standard library and libm
//   LocationWireValidation       spec rules; standard library and libm                (on LocationWire, Geometry)
//   LocationWireJSON             proto3 JSON mapping; standard library only                  (on LocationWire)
//   LocationWireBehavior         recording, upload timer, fences, planner, arming (proto/BEHAVIOR.md); standard
//                                library and libm only                             (on LocationWire, Geometry)
//   LocationWireSession          upload queue (over an item store), ingest ledger, held assignment; standard
//                                library only                                                (on LocationWire)
//   LocationWireHTTPBinding      proto/HTTP.md as code: endpoints, media types and codings, the error body and
//                                its codes, what each answer means to a device, Retry-After, the read-back query
//                                and the JSON documents, and how the upload queue takes each answer; standard
//                                library only                                                (on JSON, Session)
//   LocationWireInspection       messages inspected by type name: type lookup, wire bytes, the annotated dump,
//                                sample messages; standard library only                  (on Validation, JSON)
//   LocationWireFuzzing          fuzz oracle and wire-aware mutator: what the libFuzzer targets link, and the
//                                differential fuzzer's inputs; standard library only   (on Inspection, Random)
//   LocationWireFiles            whole-file reads and writes whose errors say what is wrong in words; Foundation
//                                only
//   LocationWireCatalogues       region catalogues: GeoJSON and RegionAssignment catalogue files read, and
//                                synthetic catalogues made from a seed; Foundation
//                                                                         (on Geometry, JSON, Random, Files)
//   LocationWireSimulation       simulated devices: the trace simulator and the fixture generator (Traces/), and
//                                the session fault simulator over their traces; Foundation
//                                                                               (on Session, Behavior, Random)
//   LocationWireInterchange      import and export of GPX, GeoJSON, OwnTracks, Overland and CSV tracks
//                                (Formats/), the one GPX reader and the times and segments of traces (Traces/),
//                                track statistics (Statistics/); Foundation, FoundationXML, CSV.swift,
//                                ZIPFoundation, zlib                    (on Validation, JSON, Behavior, Files)
//   LocationWireDevice           the reference device: the engines composed around a SQLite store and the HTTP
//                                binding; Foundation, FoundationNetworking, the system's SQLite
//                                                                     (on Behavior, Session, HTTPBinding)
//   LocationWireConformance      testee protocol, built-in testee, vector file format, runner, matrix, the
//                                differential fuzzer (Runner/)         (on Files, Simulation, Fuzzing, HTTPBinding)
//   LocationWireSuiteSource      the conformance suite's source: the vector generator (`VectorGenerator`, one
//                                builder per family), the semantic cases the unit tests share, and the inputs it
//                                reads (conformance/data/, conformance/regressions/)
//                                                                                 (on Interchange, Conformance)
//   LocationWireRender           SVG and HTML pictures of traces, regions and events, the HTML conformance
//                                report; Foundation, no network                  (on Interchange, Conformance)
//   locwire                      command line, swift-argument-parser
//                                        (on SuiteSource, Simulation, Interchange, Render, Device, Catalogues)
// "on X" names the highest modules depended upon; each also uses what X uses.
/// The project's own targets: a warning is an error here (and only here; dependencies keep their own settings).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

/// `LOCWIRE_STATIC_STDLIB=1` (scripts/release.sh, CI) links the release `locwire` with the Swift standard library and
/// Foundation statically, so that it runs where no Swift toolchain is installed. SwiftPM's `--static-swift-stdlib`
/// would compile every module again for the static resources (a second build of each folder, and none of the
/// tests: there is no static Testing); these flags change only the link. The objects name what the shared
/// libraries need, so what the static archives need beyond that is listed (Foundation's CoreFoundation, ICU, curl
/// and libxml2 parts; Synchronization). Release only: `locwireTests` links the executable's module, and a test
/// bundle cannot hold a static runtime beside the shared one Testing brings.
let staticStandardLibrary: [LinkerSetting] =
    Context.environment["LOCWIRE_STATIC_STDLIB"] == "1"
    ? [
        .unsafeFlags(
            [
                "-static-stdlib", "-lswiftSynchronization", "-lCoreFoundation", "-l_FoundationICU",
                "-l_FoundationCShims", "-l_FoundationCollections", "-l_CFURLSessionInterface", "-l_CFXMLInterface",
                "-lcurl", "-lxml2",
            ],
            .when(platforms: [.linux], configuration: .release)
        )
    ] : []

let package = Package(
    name: "LocationWire",
    products: [
        .library(name: "LocationWire", targets: ["LocationWire", "LocationWireValidation", "LocationWireJSON"]),
        .executable(name: "locwire", targets: ["locwire"]),
        // What an app embeds: the device, with the codec it speaks.
        .library(name: "LocationWireDevice", targets: ["LocationWireDevice"]),
        // For the packages that live apart, and for nothing else (hence the leading underscore, as NIO marks such
        // products; no promise of a stable API): FuzzTesting/ (built with sanitizers), Benchmarks/ and Server/ (the
        // HTTP binding's server, probe and mock server, which alone build Hummingbird, GRDB and postgres-nio).
        .library(name: "_LocationWireFuzzing", targets: ["LocationWireFuzzing"]),
        .library(name: "_LocationWireRandom", targets: ["LocationWireRandom"]),
        .library(name: "_LocationWireInspection", targets: ["LocationWireInspection"]),
        .library(name: "_LocationWireFiles", targets: ["LocationWireFiles"]),
        .library(name: "_LocationWireCatalogues", targets: ["LocationWireCatalogues"]),
        .library(name: "_LocationWireSimulation", targets: ["LocationWireSimulation"]),
        .library(name: "_LocationWireInterchange", targets: ["LocationWireInterchange"]),
        .library(name: "_LocationWireBehavior", targets: ["LocationWireBehavior"]),
        .library(name: "_LocationWireConformance", targets: ["LocationWireConformance"]),
        .library(name: "_LocationWireSession", targets: ["LocationWireSession"]),
        .library(name: "_LocationWireHTTPBinding", targets: ["LocationWireHTTPBinding"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only the `generate-documentation` plugin (scripts/build-docs.sh); no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // CSV tokenizing (RFC 4180 quoting) from a stream, for `locwire import`.
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        // ZIP archives: KMZ, for `locwire import`.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        .target(name: "LocationWire", swiftSettings: strictSettings),
        .target(name: "LocationWireGeometry", swiftSettings: strictSettings),
        .target(name: "LocationWireRandom", swiftSettings: strictSettings),
        .target(
            name: "LocationWireValidation", dependencies: ["LocationWire", "LocationWireGeometry"],
            swiftSettings: strictSettings),
        .target(name: "LocationWireJSON", dependencies: ["LocationWire"], swiftSettings: strictSettings),
        .target(
            name: "LocationWireBehavior", dependencies: ["LocationWire", "LocationWireGeometry"],
            swiftSettings: strictSettings),
        .target(name: "LocationWireSession", dependencies: ["LocationWire"], swiftSettings: strictSettings),
        .target(
            name: "LocationWireHTTPBinding", dependencies: ["LocationWire", "LocationWireJSON", "LocationWireSession"],
            swiftSettings: strictSettings),
        .target(
            name: "LocationWireInspection",
            dependencies: ["LocationWire", "LocationWireValidation", "LocationWireJSON"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireFuzzing",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireInspection",
                "LocationWireRandom",
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "LocationWireFiles", swiftSettings: strictSettings),
        .target(
            name: "LocationWireCatalogues",
            dependencies: [
                "LocationWire", "LocationWireGeometry", "LocationWireJSON", "LocationWireRandom", "LocationWireFiles",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireSimulation",
            dependencies: [
                "LocationWire", "LocationWireSession", "LocationWireRandom", "LocationWireBehavior",
            ],
            swiftSettings: strictSettings
        ),
        // The system's zlib, for the gzipped sizes `locwire stats` reports. Not named CZlib: ZIPFoundation has a
        // module of that name.
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "LocationWireInterchange",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireBehavior",
                "LocationWireFiles", "CSystemZlib", .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // The system's SQLite, the device's store.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "LocationWireDevice",
            dependencies: [
                "LocationWire", "LocationWireBehavior", "LocationWireSession", "LocationWireHTTPBinding", "CSQLite",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireConformance",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireInspection",
                "LocationWireRandom", "LocationWireFiles", "LocationWireSession", "LocationWireBehavior",
                "LocationWireSimulation", "LocationWireFuzzing", "LocationWireHTTPBinding",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireSuiteSource",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireInspection",
                "LocationWireRandom", "LocationWireFiles", "LocationWireSimulation", "LocationWireInterchange",
                "LocationWireConformance", "LocationWireSession", "LocationWireBehavior",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireRender",
            dependencies: [
                "LocationWire", "LocationWireJSON", "LocationWireBehavior", "LocationWireInterchange",
                "LocationWireConformance",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "locwire",
            dependencies: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireInspection",
                "LocationWireFiles", "LocationWireCatalogues", "LocationWireConformance", "LocationWireSuiteSource",
                "LocationWireFuzzing", "LocationWireSession", "LocationWireSimulation", "LocationWireBehavior",
                "LocationWireInterchange", "LocationWireRender", "LocationWireDevice",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: staticStandardLibrary
        ),
        // Tests: one target per module or group of modules, so that a change recompiles only the tests of what
        // depends on it; the shared helpers are a target of their own. `swift test` runs these.
        .target(
            name: "LocationWireTestSupport", dependencies: ["LocationWire", "LocationWireRandom"],
            path: "Tests/LocationWireTestSupport",
            swiftSettings: strictSettings
        ),
        tests(
            "LocationWireTests",
            on: [
                "LocationWire", "LocationWireValidation", "LocationWireJSON", "LocationWireInspection",
                "LocationWireRandom", "LocationWireSimulation",
            ]),
        tests("LocationWireJSONTests", on: ["LocationWire", "LocationWireJSON", "LocationWireRandom"]),
        tests("LocationWireFuzzingTests", on: ["LocationWireFuzzing"]),
        tests("LocationWireFilesTests", on: ["LocationWireFiles"]),
        tests("LocationWireGeometryTests", on: ["LocationWireGeometry", "LocationWireRandom"]),
        tests("LocationWireRandomTests", on: ["LocationWireRandom"]),
        tests("LocationWireInspectionTests", on: ["LocationWire", "LocationWireJSON", "LocationWireInspection"]),
        tests(
            "LocationWireCataloguesTests",
            on: ["LocationWire", "LocationWireGeometry", "LocationWireJSON", "LocationWireCatalogues"]),
        tests(
            "LocationWireValidationTests",
            on: [
                "LocationWire", "LocationWireGeometry", "LocationWireValidation", "LocationWireRandom",
                "LocationWireConformance", "LocationWireSuiteSource",
            ]),
        tests(
            "LocationWireBehaviorTests",
            on: [
                "LocationWire", "LocationWireGeometry", "LocationWireBehavior", "LocationWireRandom",
                "LocationWireCatalogues", "LocationWireConformance",
            ]),
        tests(
            "LocationWireSessionTests",
            on: ["LocationWire", "LocationWireBehavior", "LocationWireSession"]),
        tests(
            "LocationWireSimulationTests",
            on: [
                "LocationWire", "LocationWireGeometry", "LocationWireValidation", "LocationWireBehavior",
                "LocationWireSession", "LocationWireSimulation",
            ]),
        tests(
            "LocationWireHTTPBindingTests",
            on: ["LocationWire", "LocationWireJSON", "LocationWireSession", "LocationWireHTTPBinding"]),
        tests(
            "LocationWireDeviceTests",
            on: ["LocationWire", "LocationWireBehavior", "LocationWireSession", "LocationWireDevice"]),
        tests(
            "LocationWireConformanceTests",
            on: [
                "LocationWire", "LocationWireValidation", "LocationWireBehavior", "LocationWireInspection",
                "LocationWireRandom", "LocationWireFuzzing", "LocationWireConformance", "LocationWireSuiteSource",
                "LocationWireDevice",
            ]),
        tests(
            "LocationWireSuiteSourceTests", on: ["LocationWire", "LocationWireConformance", "LocationWireSuiteSource"]),
        tests(
            "LocationWireInterchangeTests",
            on: ["LocationWire", "LocationWireValidation", "LocationWireRandom", "LocationWireInterchange"]),
        tests(
            "LocationWireRenderTests",
            on: [
                "LocationWire", "LocationWireBehavior", "LocationWireInterchange", "LocationWireConformance",
                "LocationWireRender",
            ]),
        tests(
            "locwireTests",
            on: [
                "LocationWire", "LocationWireJSON", "LocationWireBehavior", "LocationWireFiles",
                "LocationWireConformance", "LocationWireSuiteSource", "LocationWireInterchange", "locwire",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

/// A test target in `Tests/<name>/`, on the shared helpers and `modules`.
func tests(_ name: String, on modules: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: ["LocationWireTestSupport"] + modules, swiftSettings: strictSettings)
}

// The slow suites (the committed vectors' currency and coverage, the built-in implementation against all of
// them, the engines relaunched all over every behaviour vector) are a target that `swift test` leaves out, so
// that the tests run in about a minute; LOCWIRE_SLOW_TESTS=1 adds it (scripts/slow-tests.sh; CI's full tier).
if Context.environment["LOCWIRE_SLOW_TESTS"] == "1" {
    package.targets.append(
        tests(
            "LocationWireSlowTests",
            on: [
                "LocationWire", "LocationWireBehavior", "LocationWireConformance", "LocationWireSuiteSource",
                "locwire",
            ]))
}
