// swift-tools-version:6.2
// LocationWire over HTTP (proto/HTTP.md): the reference server, the server probe, the fault-injecting mock server
// and the load and crash runs, in one executable, `locwire-server`; and `locwire-floor`, the measurement floors,
// apart from it.
//
// A package of its own, beside the root one as Benchmarks/ and FuzzTesting/ are, so that the root's `swift test`
// and `swift run locwire conformance run` never resolve or build Hummingbird, GRDB, postgres-nio or
// async-http-client (a first build of those takes minutes).
//
// Dependencies point one way: each module depends only on modules listed above it.
//   LocationWireHTTP        the root's LocationWireHTTPBinding re-exported, and gzip request bodies over NIO
//                                                                (on LocationWireHTTPBinding, CompressNIO)
//   LocationWireServer      the reference server: one list of Hummingbird routes behind a bearer-token
//                           middleware, over a storage protocol with two backends, SQLite through GRDB and
//                           PostgreSQL through postgres-nio, which also answer the middleware's authenticator
//                           protocol                                              (on HTTP, Session, Behavior)
//   LocationWireMockServer  the fault-injecting mock server for client teams: the reference server's route
//                           list, authentication middleware and request reading, with tokens of its own, an
//                           in-memory ledger, seeded faults, a journal and the loss report
//                                                                          (on HTTP, Server, Session, Random)
//   LocationWireFloor       the floors serve's per-request cost is measured against: serve's connection setup
//                           answering one constant ack, with or without the body stored as one row
//                                                                                     (on HTTP, Server, Session)
//   LocationWireHTTPClient  a device's side of the binding over async-http-client: one exchange, one upload and
//                           how its answer reads                                                      (on HTTP)
//   LocationWireProbe       the server probe: its checks, grouped by what they exercise, and its reports; the
//                           conformance vectors it replays are the committed files (--vectors), read with the
//                           conformance runner's reader                       (on HTTPClient, Session, Conformance)
//   LocationWireLoad        the load and crash runs: simulated devices, the ack journal, the report
//                                                                              (on HTTPClient, Session, Simulation)
//   LocationWireCommandLine what the executables share: exit statuses, error output, option types;
//                           swift-argument-parser                                                   (on Server)
//   locwire-server          the command line; serve's region catalogues
//                                           (on CommandLine, Server, MockServer, Probe, Load, Catalogues)
//   locwire-floor           the floors' command line, a measurement tool              (on CommandLine, Floor)
import PackageDescription

/// The project's own targets: a warning is an error here (and only here; dependencies keep their own settings).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

/// `LOCWIRE_STATIC_STDLIB=1` (scripts/release.sh, CI) links `locwire-server` with the Swift standard library and
/// Foundation statically, in every configuration (CI packs its debug build); the root's Package.swift says why these
/// flags and not `--static-swift-stdlib`. scripts/release.sh checks that both lists are the same. The test bundle
/// links this target's module and cannot take the flags: build the tests without the variable (.ci/lib.sh).
let staticStandardLibrary: [LinkerSetting] =
    Context.environment["LOCWIRE_STATIC_STDLIB"] == "1"
    ? [
        .unsafeFlags(
            [
                "-static-stdlib", "-lswiftSynchronization", "-lCoreFoundation", "-l_FoundationICU",
                "-l_FoundationCShims", "-l_FoundationCollections", "-l_CFURLSessionInterface", "-l_CFXMLInterface",
                "-lcurl", "-lxml2",
            ],
            .when(platforms: [.linux])
        )
    ] : []

/// Modules of the root package, through its products: `LocationWire` (the codec) and `LocationWireDevice` are
/// products for everyone; every other module is a product for sibling packages only, named with a leading
/// underscore (the root's Package.swift lists them).
func root(_ names: String...) -> [Target.Dependency] {
    names.map { name in
        let isForEveryone = ["LocationWire", "LocationWireDevice"].contains(name)
        return .product(name: isForEveryone ? name : "_" + name, package: "LocationWire")
    }
}

let package = Package(
    name: "LocationWireServer",
    products: [
        .executable(name: "locwire-server", targets: ["locwire-server"])
    ],
    dependencies: [
        .package(name: "LocationWire", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Already under Hummingbird; named for the HTTP-types parts ConnectionDiscipline handles.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Already under async-http-client and HummingbirdTLS; named for the server's certificate types.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Already under postgres-nio; named for SHA-256 of bearer tokens.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "LocationWireHTTP",
            dependencies: [
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ] + root("LocationWire", "LocationWireHTTPBinding"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireServer",
            dependencies: [
                "LocationWireHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ] + root("LocationWire", "LocationWireSession", "LocationWireBehavior"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireMockServer",
            dependencies: [
                "LocationWireHTTP",
                "LocationWireServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The journal keeps digests of tokens and bodies, never the tokens themselves.
                .product(name: "Crypto", package: "swift-crypto"),
            ] + root("LocationWire", "LocationWireSession", "LocationWireRandom", "LocationWireFiles"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireFloor",
            dependencies: [
                "LocationWireHTTP",
                "LocationWireServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ] + root("LocationWire", "LocationWireSession"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireHTTPClient",
            dependencies: [
                "LocationWireHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + root("LocationWire"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireProbe",
            dependencies: [
                "LocationWireHTTP",
                "LocationWireHTTPClient",
                .product(name: "NIOCore", package: "swift-nio"),
                // Raw TCP for the probe's slow and half-sent bodies, which no HTTP client sends on purpose.
                .product(name: "NIOPosix", package: "swift-nio"),
            ] + root("LocationWire", "LocationWireSession", "LocationWireConformance"),
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocationWireLoad",
            dependencies: [
                "LocationWireHTTP",
                "LocationWireHTTPClient",
                // SHA-256 content digests in the load run's ack journal.
                .product(name: "Crypto", package: "swift-crypto"),
            ] + root("LocationWire", "LocationWireSession", "LocationWireRandom", "LocationWireSimulation"),
            swiftSettings: strictSettings
        ),
        // The exit statuses of the package's executables, in one place.
        .target(
            name: "LocationWireCommandLine",
            dependencies: [
                "LocationWireServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "locwire-server",
            dependencies: [
                "LocationWireCommandLine",
                "LocationWireServer",
                "LocationWireMockServer",
                "LocationWireProbe",
                "LocationWireLoad",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // A database as an older release left it, to migrate (TokenTests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
                + root(
                    "LocationWire", "LocationWireSession", "LocationWireBehavior", "LocationWireFiles",
                    "LocationWireCatalogues"),
            swiftSettings: strictSettings,
            linkerSettings: staticStandardLibrary
        ),
        // The floors serve is measured against: a measurement tool, never part of the shipped locwire-server.
        .executableTarget(
            name: "locwire-floor",
            dependencies: [
                "LocationWireCommandLine",
                "LocationWireFloor",
                "LocationWireServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LocationWireServerTests",
            dependencies: [
                "LocationWireServer",
                "LocationWireMockServer",
                "LocationWireFloor",
                "LocationWireHTTP",
                "LocationWireHTTPClient",
                "LocationWireProbe",
                "LocationWireLoad",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // What async-http-client throws for a closed, reset or cut-short answer (MockServerTests).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // A connection of its own that holds a lock on an installation (PostgresStorageTests).
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // A database as an older release left it, to migrate (TokenTests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
                + root(
                    "LocationWire", "LocationWireSession", "LocationWireBehavior", "LocationWireRandom",
                    "LocationWireCatalogues"),
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
