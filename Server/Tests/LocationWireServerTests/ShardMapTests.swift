import Foundation
@testable import LocationWireServer
import Testing

/// The routing of devices to shards (``ShardMap``): the bucket function, the even split of `--postgres-shard`,
/// and the checks on a `--shard-map` file.
@Suite struct ShardMapTests {
    /// Computed independently of the server's code, with Python's hashlib:
    /// `python3 -c "import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest()[:8])" device-1`
    @Test(arguments: [
        ("device-1", "03204de9"), ("device-2", "588605bf"), ("device-40", "9a83918f"), ("", "e3b0c442"),
        ("é-ü", "b2a11368"),
    ])
    func bucketIsTheFirstFourBytesOfSHA256(_ deviceId: String, _ expected: String) {
        #expect(ShardMap.hex(ShardMap.bucket(ofDevice: deviceId)) == expected)
        #expect(ShardMap.bucket(ofDevice: deviceId) == UInt32(expected, radix: 16))
    }

    /// Shard i of N owns [⌊i·2^32/N⌋, ⌊(i+1)·2^32/N⌋), as Server/scripts/shard-split.sh prints them.
    @Test func anEvenSplitCutsTheRangeInOrder() throws {
        let map = try ShardMap(evenlyOver: ["a", "b", "c"])
        #expect(map.shards.map(\.rangeDescription) == ["00000000-55555554", "55555555-aaaaaaa9", "aaaaaaaa-ffffffff"])
        #expect(map.shardIndex(ofBucket: 0) == 0)
        #expect(map.shardIndex(ofBucket: 0x5555_5554) == 0)
        #expect(map.shardIndex(ofBucket: 0x5555_5555) == 1)
        #expect(map.shardIndex(ofBucket: .max) == 2)
        #expect(map.shardIndex(ofDevice: "device-40") == 1)
        #expect(try ShardMap(evenlyOver: ["only"]).shards.map(\.rangeDescription) == ["00000000-ffffffff"])
        #expect(throws: ShardMapError.self) { try ShardMap(evenlyOver: []) }
    }

    @Test func aMapFileInAnyOrderIsTaken() throws {
        let json = """
            [{"url": "postgres://u@b/db", "firstBucket": "80000000", "lastBucket": "FFFFFFFF"},
             {"url": "postgres://u@a/db", "firstBucket": "00000000", "lastBucket": "7fffffff"}]
            """
        let map = try ShardMap(json: Data(json.utf8))
        #expect(map.shards.map(\.url) == ["postgres://u@b/db", "postgres://u@a/db"])
        #expect(map.shardIndex(ofDevice: "device-1") == 1)
        #expect(map.shardIndex(ofDevice: "device-40") == 0)
        let again = try ShardMap(json: try JSONEncoder().encode(map.shards))
        #expect(again == map)
    }

    @Test(arguments: [
        ("[]", "no shards"),
        (
            #"[{"url": "a", "firstBucket": "00000000", "lastBucket": "7ffffffe"},"#
                + #"{"url": "b", "firstBucket": "80000000", "lastBucket": "ffffffff"}]"#,
            "7fffffff-7fffffff have no shard"
        ),
        (
            #"[{"url": "a", "firstBucket": "00000000", "lastBucket": "80000000"},"#
                + #"{"url": "b", "firstBucket": "80000000", "lastBucket": "ffffffff"}]"#, "overlaps"
        ),
        (
            #"[{"url": "a", "firstBucket": "00000000", "lastBucket": "ffffffff"},"#
                + #"{"url": "b", "firstBucket": "80000000", "lastBucket": "ffffffff"}]"#,
            "overlaps a shard ending at ffffffff"
        ),
        (#"[{"url": "a", "firstBucket": "00000000", "lastBucket": "fffffff0"}]"#, "fffffff1-ffffffff have no shard"),
        (#"[{"url": "a", "firstBucket": "00000001", "lastBucket": "ffffffff"}]"#, "00000000-00000000 have no shard"),
        (#"[{"url": "a", "firstBucket": "0", "lastBucket": "ffffffff"}]"#, "not 8 hex digits"),
        (#"[{"url": "a", "firstBucket": "ffffffff", "lastBucket": "00000000"}]"#, "after lastBucket"),
        (#"{"url": "a"}"#, "not a JSON list"),
    ])
    func aMapWithAGapOrAnOverlapIsRefused(_ json: String, _ reason: String) {
        do {
            _ = try ShardMap(json: Data(json.utf8))
            Issue.record("taken: \(json)")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    /// Tokens name their device's bucket, so that a sharded server asks that shard first.
    @Test func aTokenNamesItsDeviceBucket() {
        let token = newBearerToken(forDevice: "device-40")
        #expect(token.count == 64 && token.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(token.hasPrefix("9a83918f"))
        #expect(ShardMap.bucket(namedByToken: token) == 0x9a83_918f)
        #expect(newBearerToken(forDevice: "device-40") != token)
        #expect(newBearerToken(forDevice: nil).count == 64)
        #expect(ShardMap.bucket(namedByToken: "not-hex-at-all") == nil)
        #expect(ShardMap.bucket(namedByToken: "abc") == nil)
    }
}
