import Foundation
import LocationWireFuzzing
import Testing

/// Replays the fuzzing regression corpus (FuzzTesting/Regressions/<Target>/*) through the same checks the libFuzzer
/// targets run (`FuzzOracle.check`), without sanitizers, plus a few hostile inputs built here. Each file in the
/// corpus is an input a fuzzer once found (minimized); it must now pass. A folder or file that does not name a
/// FuzzOracle.Target fails the test, so a typo cannot silently skip a case.
@Suite struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzTesting/Regressions")

    /// Files that document the corpus rather than belong to it.
    static func isBookkeeping(_ name: String) -> Bool {
        name.hasPrefix(".") || name.lowercased().hasPrefix("readme")
    }

    struct Case {
        let target: FuzzOracle.Target
        let name: String
        let bytes: [UInt8]
    }

    /// Every regression file, with its target; records an issue for anything that has no known target.
    static func regressionCases() throws -> [Case] {
        let manager = FileManager.default
        var cases: [Case] = []
        for entry in try manager.contentsOfDirectory(atPath: regressions.path).sorted() where !isBookkeeping(entry) {
            let folder = regressions.appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: folder.path, isDirectory: &isDirectory)
            guard isDirectory.boolValue else {
                Issue.record("FuzzTesting/Regressions/\(entry): a file outside any <Target>/ folder")
                continue
            }
            guard let target = FuzzOracle.Target(rawValue: entry) else {
                Issue.record(
                    "FuzzTesting/Regressions/\(entry): unknown target; known: \(FuzzOracle.Target.allCases.map(\.rawValue))"
                )
                continue
            }
            for name in try manager.contentsOfDirectory(atPath: folder.path).sorted() where !isBookkeeping(name) {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                cases.append(Case(target: target, name: "\(entry)/\(name)", bytes: [UInt8](data)))
            }
        }
        return cases
    }

    static func hexString(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func replay(_ target: FuzzOracle.Target, _ bytes: [UInt8], _ what: String) {
        do {
            try FuzzOracle.check(target, bytes)
        } catch {
            let shown =
                bytes.count <= 256 ? hexString(bytes) : hexString(bytes.prefix(256)) + "... (\(bytes.count) bytes)"
            Issue.record("\(target.rawValue) \(what): \(error)\ninput: \(shown)")
        }
    }

    @Test func regressionFoldersNameTargets() throws {
        #expect(FileManager.default.fileExists(atPath: Self.regressions.path), "no \(Self.regressions.path)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path)
            .filter { !Self.isBookkeeping($0) }
        // Every target has its folder (kept with a .gitkeep), and regressionCases() flags anything else.
        for target in FuzzOracle.Target.allCases {
            #expect(folders.contains(target.rawValue), "FuzzTesting/Regressions/\(target.rawValue)/ is missing")
        }
        _ = try Self.regressionCases()
    }

    /// The most one regression input may take here (a debug build, no sanitizers). The fuzzers stop an input after
    /// 10 s with ASan, which is some 3 to 4 times slower than this build's optimised code; a normal input takes
    /// milliseconds. An input that takes longer is a `timeout-` (or `oom-`) finding that is not fixed yet.
    static let perInputBudget: Duration = .seconds(2)

    @Test func regressionCorpusPasses() throws {
        let cases = try Self.regressionCases()
        let clock = ContinuousClock()
        for regression in cases {
            let elapsed = clock.measure {
                Self.replay(regression.target, regression.bytes, regression.name)
            }
            if elapsed > Self.perInputBudget {
                Issue.record(
                    """
                    \(regression.target.rawValue) \(regression.name): took \(elapsed) (budget \(Self.perInputBudget)): \
                    a timeout or out-of-memory finding\ninput: \(Self.hexString(regression.bytes.prefix(256)))
                    """)
            }
        }
    }

    // MARK: - Hostile inputs built here

    /// A varint as protobuf writes it.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    static func tag(_ number: UInt64, _ wireType: UInt64) -> [UInt8] { varint(number << 3 | wireType) }

    static func lengthDelimited(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] {
        tag(number, 2) + varint(UInt64(payload.count)) + payload
    }

    /// The selector byte of FuzzValidation and FuzzJSON: the index in MessageRegistry.allTypes.
    enum Selector: UInt8 {
        case locationBatch = 0, batchAck, regionAssignment, regionRequest, fenceEvent, trackingPolicy, locationFix
        case compactFixes, fixColumn, deviceStatus, lifecycleEvent, armedRegions, ackRange, region, circle, polygon
        case refreshPolicy
    }

    static func hostileInputs() -> [(FuzzOracle.Target, String, [UInt8])] {
        var inputs: [(FuzzOracle.Target, String, [UInt8])] = []
        // Nothing at all, for every target (the selector targets have no selector either).
        for target in FuzzOracle.Target.allCases {
            inputs.append((target, "empty input", []))
            inputs.append((target, "a lone zero byte", [0]))
        }
        // Unknown groups nested to the depth limit (100 decode) and beyond it (101 must be rejected, not crash).
        for depth in [99, 100, 101, 2_000] {
            let groups =
                Array(repeating: tag(99, 3), count: depth).flatMap { $0 }
                + Array(repeating: tag(99, 4), count: depth).flatMap { $0 }
            inputs.append((.locationBatch, "unknown group nested \(depth) deep", groups))
            inputs.append(
                (.validation, "FixColumn: unknown group nested \(depth) deep", [Selector.fixColumn.rawValue] + groups))
        }
        // Length prefixes far beyond the input: must fail before allocating.
        inputs.append((.locationBatch, "fixes claiming 4 GiB", tag(7, 2) + varint(0xFFFF_FFFF)))
        inputs.append((.locationBatch, "device id claiming 2^63 bytes", tag(1, 2) + varint(1 << 63)))
        inputs.append((.regionAssignment, "regions claiming 2^64-1 bytes", tag(6, 2) + varint(UInt64.max)))
        // Too-long varints and tags.
        inputs.append((.batchAck, "11-byte varint", tag(5, 0) + Array(repeating: 0xFF, count: 10) + [0x01]))
        inputs.append(
            (.batchAck, "10-byte varint with bits above 64", tag(5, 0) + Array(repeating: 0xFF, count: 9) + [0x7F]))
        inputs.append((.trackingPolicy, "6-byte tag", [0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01]))
        inputs.append((.trackingPolicy, "field 0", [0x00, 0x01]))
        inputs.append((.fenceEvent, "wire type 6 and 7", [0x0E, 0x0F]))
        inputs.append((.fenceEvent, "end group without start", tag(2, 4)))
        // Many elements: 20,000 empty fixes (40 KB), and 30,000 packed run lengths.
        inputs.append(
            (.locationBatch, "20,000 empty fixes", Array(repeating: [0x3A, 0x00], count: 20_000).flatMap { $0 }))
        let runs = Array(repeating: UInt8(0x01), count: 30_000)
        inputs.append(
            (
                .validation, "FixColumn with 30,000 packed run lengths",
                [Selector.fixColumn.rawValue] + lengthDelimited(2, runs)
            ))
        // Compact fixes that claim far more rows than they hold: count 2^32-1 and a run of 2^32-1.
        let hugeRun = lengthDelimited(1, lengthDelimited(1, [0x02]) + lengthDelimited(2, varint(0xFFFF_FFFF)))
        inputs.append(
            (
                .validation, "CompactFixes with a run of 2^32-1",
                [Selector.compactFixes.rawValue] + hugeRun + tag(100, 0) + varint(0xFFFF_FFFF)
            ))
        inputs.append(
            (
                .locationBatch, "LocationBatch with those compact fixes",
                lengthDelimited(9, hugeRun + tag(100, 0) + varint(0xFFFF_FFFF))
            ))
        inputs.append(
            (
                .validation, "CompactFixes with a presence bitmap of 8 KB",
                [Selector.compactFixes.rawValue]
                    + lengthDelimited(8, lengthDelimited(3, Array(repeating: 0xFF, count: 8_192))) + tag(100, 0)
                    + varint(65_536)
            ))
        // Float bit patterns that JSON cannot spell exactly: NaN payloads, signalling NaN, -0.0, subnormals.
        for bits: [UInt8] in [
            [0x01, 0x00, 0xC0, 0x7F], [0x01, 0x00, 0x80, 0x7F], [0x00, 0x00, 0x00, 0x80], [0x01, 0x00, 0x00, 0x00],
            [0x00, 0x00, 0x80, 0xFF], [0xFF, 0xFF, 0x7F, 0x7F],
        ] {
            inputs.append(
                (
                    .validation, "LocationFix pressure bits \(hexString(bits))",
                    [Selector.locationFix.rawValue] + tag(23, 5) + bits
                ))
        }
        // Invalid UTF-8 in strings, and region ids at the length limits.
        for bad: [UInt8] in [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xFF]] {
            inputs.append((.fenceEvent, "region id \(hexString(bad))", lengthDelimited(2, bad)))
        }
        let longID = Array("ns:".utf8) + Array(repeating: UInt8(ascii: "x"), count: 125)
        inputs.append(
            (.validation, "Region with a 128-byte id", [Selector.region.rawValue] + lengthDelimited(1, longID)))
        inputs.append(
            (.validation, "Region with a 129-byte id", [Selector.region.rawValue] + lengthDelimited(1, longID + [0x78]))
        )
        // A known field with each wrong wire type (kept as unknown), and 64-bit values in 32-bit fields.
        for wireType: UInt64 in [0, 1, 2, 3, 5] {
            let value: [UInt8] =
                switch wireType {
                case 0: [0x01]
                case 1: Array(repeating: 0, count: 8)
                case 2: [0x00]
                case 3: tag(3, 4)
                default: Array(repeating: 0, count: 4)
                }
            inputs.append(
                (
                    .validation, "LocationFix latitude with wire type \(wireType)",
                    [Selector.locationFix.rawValue] + tag(3, wireType) + value
                ))
        }
        inputs.append((.trackingPolicy, "uint32 field holding 2^64-1", tag(2, 0) + varint(UInt64.max)))
        inputs.append(
            (
                .validation, "Polygon with unpacked and packed vertices mixed",
                [Selector.polygon.rawValue]
                    + tag(1, 5) + [0, 0, 0, 0] + lengthDelimited(1, Array(repeating: 0x11, count: 8))
                    + lengthDelimited(2, [1, 2, 3])
            ))
        // JSON: nesting beyond the depth limit, numbers at and beyond 64 bits, lone surrogates, huge exponents.
        func json(_ selector: Selector, _ text: String) -> [UInt8] { [selector.rawValue] + Array(text.utf8) }
        let deep = String(repeating: "[", count: 50_000)
        inputs.append((.json, "50,000 open brackets", json(.locationBatch, "{\"fixes\":" + deep)))
        inputs.append(
            (.json, "5,000 nested objects", json(.locationBatch, String(repeating: "{\"liveFix\":", count: 5_000))))
        for number in [
            "18446744073709551615", "18446744073709551616", "-1", "1e19", "9223372036854775807", "-9223372036854775808",
            "\"18446744073709551615\"", "\"-0\"", "1e999999999", "-0.0", "0.5", "\"NaN\"",
        ] {
            inputs.append((.json, "sequence \(number)", json(.locationFix, "{\"sequence\":\(number)}")))
            inputs.append((.json, "timeMs \(number)", json(.locationFix, "{\"timeMs\":\(number)}")))
        }
        for value in ["\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "-0", "1e-46", "3.4028236e38", "1e39", "\"1e2\""] {
            inputs.append((.json, "pressureHpa \(value)", json(.locationFix, "{\"pressureHpa\":\(value)}")))
        }
        inputs.append((.json, "lone surrogate in a string", json(.fenceEvent, "{\"regionId\":\"\\ud800\"}")))
        inputs.append(
            (
                .json, "raw invalid UTF-8 in a string",
                [Selector.fenceEvent.rawValue] + Array("{\"regionId\":\"".utf8) + [0xC3, 0x28, 0x22, 0x7D]
            ))
        inputs.append((.json, "NUL escape in a string", json(.locationBatch, "{\"deviceId\":\"a\\u0000b\"}")))
        inputs.append((.json, "duplicate key", json(.locationBatch, "{\"deviceId\":\"a\",\"device_id\":\"b\"}")))
        inputs.append((.json, "presence base64 variants", json(.fixColumn, "{\"presence\":\"_-8\"}")))
        inputs.append((.json, "an enum by number beyond int32", json(.locationFix, "{\"reason\":4294967296}")))
        inputs.append((.json, "an unknown enum number", json(.locationFix, "{\"reason\":12345}")))
        return inputs
    }

    @Test func hostileInputsHoldTheProperties() {
        for (target, what, bytes) in Self.hostileInputs() {
            Self.replay(target, bytes, what)
        }
    }

    /// Inputs above FuzzOracle.maxInputBytes are skipped, so fuzzers can never spend long on one input; an input
    /// of exactly that size is still checked. (Skipping and passing both return without a violation, so the test
    /// asserts on the outcome.)
    @Test func oversizedInputsAreSkipped() throws {
        let emptyFixes = Array(repeating: [UInt8](arrayLiteral: 0x3A, 0x00), count: FuzzOracle.maxInputBytes / 2 + 1)
        let oversized = emptyFixes.flatMap { $0 }
        #expect(oversized.count > FuzzOracle.maxInputBytes)
        #expect(try FuzzOracle.check(.locationBatch, oversized) == .skipped)
        #expect(try FuzzOracle.check(.validation, [0] + oversized) == .skipped)
        let largest = Array(oversized.prefix(FuzzOracle.maxInputBytes))
        #expect(try FuzzOracle.check(.locationBatch, largest) == .checked)
    }
}
