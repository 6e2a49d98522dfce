import Foundation

/// Which PostgreSQL shard holds a device's rows: the device's bucket (``bucket(ofDevice:)``, a number in
/// 0 ..< 2^32 that depends on the device id alone) falls in exactly one shard's range of buckets.
///
/// Invariant, checked when a map is made: the ranges cover 0 ... 2^32 − 1 with no gap and no overlap. A shard
/// is split later by cutting its range in two and moving the rows of one half (Server/README.md, "Moving a
/// single database into shards"); no device of the other shards moves.
public struct ShardMap: Sendable, Hashable {
    /// One shard: where it is and the buckets it owns, both bounds inclusive.
    public struct Shard: Sendable, Hashable, Codable {
        /// A `postgres://` URL.
        public var url: String
        public var firstBucket: UInt32
        public var lastBucket: UInt32

        public init(url: String, firstBucket: UInt32, lastBucket: UInt32) {
            self.url = url
            self.firstBucket = firstBucket
            self.lastBucket = lastBucket
        }

        enum CodingKeys: String, CodingKey { case url, firstBucket, lastBucket }

        /// The file's form: bounds as 8 hex digits, `{"url": ..., "firstBucket": "00000000", "lastBucket":
        /// "7fffffff"}`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            func bucket(_ key: CodingKeys) throws -> UInt32 {
                let text = try container.decode(String.self, forKey: key)
                guard let value = ShardMap.bucket(hex: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "\(text) is not 8 hex digits")
                }
                return value
            }
            firstBucket = try bucket(.firstBucket)
            lastBucket = try bucket(.lastBucket)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(ShardMap.hex(firstBucket), forKey: .firstBucket)
            try container.encode(ShardMap.hex(lastBucket), forKey: .lastBucket)
        }

        /// `00000000-7fffffff`.
        public var rangeDescription: String { "\(ShardMap.hex(firstBucket))-\(ShardMap.hex(lastBucket))" }
    }

    /// In the order given; ``shardIndex(ofDevice:)`` answers an index into it.
    public let shards: [Shard]

    /// A map of these shards, in this order.
    ///
    /// - Throws: ``ShardMapError`` unless the ranges cover every bucket exactly once.
    public init(shards: [Shard]) throws(ShardMapError) {
        guard !shards.isEmpty else { throw ShardMapError("no shards") }
        let sorted = shards.sorted { $0.firstBucket < $1.firstBucket }
        var next: UInt64 = 0  // the first bucket not yet covered
        for shard in sorted {
            guard shard.firstBucket <= shard.lastBucket else {
                throw ShardMapError("\(shard.url): firstBucket is after lastBucket (\(shard.rangeDescription))")
            }
            if UInt64(shard.firstBucket) > next {
                throw ShardMapError(
                    "buckets \(Self.hex(UInt32(next)))-\(Self.hex(shard.firstBucket - 1)) have no shard")
            }
            if UInt64(shard.firstBucket) < next {
                throw ShardMapError(
                    "\(shard.url) (\(shard.rangeDescription)) overlaps a shard ending at \(Self.hex(UInt32(next - 1)))")
            }
            next = UInt64(shard.lastBucket) + 1
        }
        guard next == Self.bucketCount else {
            throw ShardMapError("buckets \(Self.hex(UInt32(next)))-ffffffff have no shard")
        }
        self.shards = shards
    }

    /// `serve --postgres-shard URL` repeated: shard i of N owns [⌊i·2^32/N⌋, ⌊(i+1)·2^32/N⌋).
    public init(evenlyOver urls: [String]) throws(ShardMapError) {
        let count = UInt64(urls.count)
        try self.init(
            shards: urls.enumerated().map { index, url in
                let index = UInt64(index)
                return Shard(
                    url: url, firstBucket: UInt32(index * Self.bucketCount / count),
                    lastBucket: UInt32((index + 1) * Self.bucketCount / count - 1))
            })
    }

    /// `serve --shard-map FILE`: a JSON list of ``Shard``.
    public init(json: Data) throws(ShardMapError) {
        let shards: [Shard]
        do {
            shards = try JSONDecoder().decode([Shard].self, from: json)
        } catch {
            throw ShardMapError("not a JSON list of {\"url\", \"firstBucket\", \"lastBucket\"}: \(error)")
        }
        try self.init(shards: shards)
    }

    /// 2^32: buckets are 0 ..< bucketCount.
    public static let bucketCount: UInt64 = 1 << 32

    /// The device's bucket: the first 4 bytes of SHA-256 of the device id's UTF-8 bytes, big-endian. Stable
    /// across releases and languages: PostgreSQL computes the same (Server/scripts/shard-split.sh).
    public static func bucket(ofDevice deviceId: String) -> UInt32 {
        StoredRows.sha256(deviceId).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The bucket a token names in its first 8 hex digits (``newBearerToken(forDevice:)``); nil when they are not
    /// hex. A token issued before sharding names a random bucket, so the answer is where to look first.
    static func bucket(namedByToken token: String) -> UInt32? {
        bucket(hex: String(token.prefix(8)))
    }

    /// The index in ``shards`` of the shard owning `bucket`.
    public func shardIndex(ofBucket bucket: UInt32) -> Int {
        shards.firstIndex { $0.firstBucket <= bucket && bucket <= $0.lastBucket }!  // the ranges cover every bucket
    }

    /// The index in ``shards`` of the shard holding `deviceId`'s rows.
    public func shardIndex(ofDevice deviceId: String) -> Int {
        shardIndex(ofBucket: Self.bucket(ofDevice: deviceId))
    }

    /// 8 lowercase hex digits.
    static func hex(_ bucket: UInt32) -> String {
        lowercaseHex([24, 16, 8, 0].map { UInt8(truncatingIfNeeded: bucket >> $0) })
    }

    /// Exactly 8 hex digits as a bucket, else nil.
    static func bucket(hex text: String) -> UInt32? {
        guard text.utf8.count == 8, text.utf8.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(text, radix: 16)
    }
}

/// A shard map that does not cover every bucket exactly once, or cannot be read.
public struct ShardMapError: Error, CustomStringConvertible {
    public var description: String
    init(_ reason: String) { description = "shard map: \(reason)" }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
