import LocationWire
import LocationWireConformance
import LocationWireInspection

/// Family (a): the binary wire format's edge cases, those of Google's binary conformance suite carried over to
/// LocationWire's messages. Where C++ and upb disagree the vector is `acceptable`.
enum WireFamily: VectorFamily {
    static let name = "wire"
    static let description = """
        The protobuf binary wire format on LocationWire's messages: truncation at every kind of position, bad \
        tags and wire types, overlong and over-long varints, 64-bit values in 32-bit fields, booleans, packed and \
        unpacked repeats, duplicated and split fields, unknown fields and their order, invalid UTF-8, huge length \
        prefixes, groups and nesting depth.
        """

    static var sections: [VectorFamilySection] {
        [truncations, tags, varints, repeats, duplicatesAndMerges, unknownFields, utf8, lengths, groupsAndDepth]
    }

    // MARK: Truncation

    /// For every message type, the full sample cut at every kind of position in every field: inside a
    /// multi-byte tag, right after a tag, inside a varint, inside a fixed-width value, inside a length prefix,
    /// inside a payload. One vector per field and kind.
    static func truncations(_ builder: inout VectorBuilder) {
        for type in MessageRegistry.allTypes {
            let schema = type.schema
            let sample = SampleMessages.full(schema)
            var offset = 0
            var seen: Set<String> = []
            for (field, fieldBytes) in WireBytes.fields(of: sample, schema: schema) {
                let (name, number) = (field.name, field.number)
                let keyLength = fieldBytes.firstIndex { $0 < 0x80 }! + 1
                let wireType = fieldBytes[0] & 7
                var cuts: [(String, Int, String)] = []
                if keyLength > 1 { cuts.append(("inside-tag", 1, "inside the \(keyLength)-byte tag")) }
                if fieldBytes.count > keyLength {
                    cuts.append(("after-tag", keyLength, "right after the tag, before any value"))
                }
                switch wireType {
                case 0 where fieldBytes.count - keyLength > 1:
                    cuts.append(("inside-varint", keyLength + 1, "inside a multi-byte varint value"))
                case 1, 5:
                    cuts.append(("inside-fixed", keyLength + 2, "inside a fixed-width value"))
                case 2:
                    let lengthBytes = fieldBytes[keyLength...].firstIndex { $0 < 0x80 }! - keyLength + 1
                    if lengthBytes > 1 { cuts.append(("inside-length", keyLength + 1, "inside the length prefix")) }
                    if fieldBytes.count > keyLength + lengthBytes + 1 {
                        cuts.append(("inside-payload", fieldBytes.count - 1, "one byte before the end of the payload"))
                    }
                default:
                    break
                }
                for (kind, cut, where_) in cuts where seen.insert("\(name).\(kind)").inserted {
                    let input = Array(sample.prefix(offset + cut))
                    builder.binary(
                        "wire.\(schema.name).truncated.\(name).\(kind)", schema.name, input, .invalid(.truncated),
                        flags: ["truncated"],
                        "The full \(schema.name) sample cut in field \(name) (\(number)), \(where_).")
                }
                offset += fieldBytes.count
            }
            // A cut on a field boundary is not an error: it is the message of the fields before it.
            let fields = WireBytes.fields(of: sample, schema: schema)
            if fields.count > 1 {
                let boundary = fields.prefix(fields.count / 2).reduce(0) { $0 + $1.bytes.count }
                builder.binary(
                    "wire.\(schema.name).truncated.at-field-boundary", schema.name, Array(sample.prefix(boundary)),
                    .valid,
                    flags: ["truncated"],
                    "The full \(schema.name) sample cut between two fields decodes to the fields before the cut.")
            }
        }
        // Inside a nested message and a packed run.
        let nested = WireBytes.lengthDelimited(10, WireBytes.lengthDelimited(8, WireBytes.varintField(1, 300)))
        builder.binary(
            "wire.LocationBatch.truncated.inside-nested-sub-message", "LocationBatch", Array(nested.dropLast()),
            .invalid(.truncated), flags: ["truncated"],
            "fence_events[0].trigger_fix.sequence cut inside its varint: the error is two levels deep.")
        let packed = WireBytes.lengthDelimited(
            1, WireBytes.varint(ZigZag.encode(Int64(300))) + WireBytes.varint(ZigZag.encode(Int64(-300))))
        builder.binary(
            "wire.FixColumn.truncated.inside-packed", "FixColumn", Array(packed.dropLast(2)), .invalid(.truncated),
            flags: ["truncated", "packed"],
            "A packed run of varints cut in the middle: its length prefix claims more than the input has.")
        builder.binary(
            "wire.FixColumn.truncated.packed-varint-unterminated", "FixColumn", [0x0A, 0x01, 0x80],
            .invalid(.truncated),
            flags: ["truncated", "packed"],
            "A packed run whose only varint has its continuation bit set and no next byte.")
        builder.binary(
            "wire.Polygon.truncated.packed-fixed-payload", "Polygon", [0x0A, 0x08, 1, 0, 0, 0], .invalid(.truncated),
            flags: ["truncated", "packed"], "A packed field whose length prefix claims 8 bytes where the input has 4.")
        for (name, bytes) in [
            ("unknown-varint", [UInt8]([0x98, 0x06, 0x80])), ("unknown-fixed64", [0x99, 0x06, 1, 2, 3]),
            ("unknown-fixed32", [0x9D, 0x06, 1]), ("unknown-length", [0x9A, 0x06, 0x05, 1]),
        ] {
            builder.binary(
                "wire.LocationFix.truncated.\(name)", "LocationFix", bytes,
                .invalid(.truncated), flags: ["truncated", "unknown-fields"],
                "An unknown field (99) cut inside its value: unknown fields are checked as strictly as known ones.")
        }
    }

    // MARK: Tags

    static func tags(_ builder: inout VectorBuilder) {
        for (type, sample) in [
            ("LocationFix", WireBytes.varintField(1, 7)),
            ("LocationBatch", WireBytes.lengthDelimited(1, Array("d".utf8))),
        ] {
            for wireType: UInt8 in [0, 1, 2, 5] {
                let value: [UInt8] =
                    switch wireType {
                    case 0: [1]
                    case 1: WireBytes.fixed64(1)
                    case 2: [1, 0x41]
                    default: WireBytes.fixed32(1)
                    }
                builder.binary(
                    "wire.\(type).bad-tag.field-zero.wire-type-\(wireType)", type, sample + [wireType] + value,
                    .invalid(.badTag),
                    flags: ["bad-tag"],
                    "A field with number 0 (wire type \(wireType)) after a valid field: field 0 is never valid.")
            }
            for wireType: UInt8 in [6, 7] {
                builder.binary(
                    "wire.\(type).bad-wire-type.\(wireType)", type, sample + WireBytes.tag(1, wireType) + [1],
                    .invalid(.badWireType),
                    flags: ["bad-wire-type"], "Wire type \(wireType) does not exist.")
                builder.binary(
                    "wire.\(type).bad-wire-type.\(wireType).unknown-field", type,
                    WireBytes.tag(99, wireType) + [1] + sample,
                    .invalid(.badWireType), flags: ["bad-wire-type", "unknown-fields"],
                    "Wire type \(wireType) on an unknown field number: still invalid, since the field cannot be skipped."
                )
            }
        }
        builder.binary(
            "wire.LocationFix.bad-tag.field-number-2-pow-29", "LocationFix", [0x80, 0x80, 0x80, 0x80, 0x10, 0x01],
            .invalid(.badTag), flags: ["bad-tag"], "Field number 2^29, one above the largest protobuf allows.")
        builder.binary(
            "wire.LocationFix.bad-tag.tag-above-32-bits", "LocationFix", [0xF8, 0xFF, 0xFF, 0xFF, 0x1F, 0x01],
            .acceptable,
            flags: ["bad-tag", "peers-disagree"],
            "A 5-byte tag whose value exceeds 32 bits. upb rejects it (as LocationWire does); C++ 3.21 truncates it to field 536870911 and accepts."
        )
        builder.binary(
            "wire.LocationFix.bad-tag.tag-longer-than-5-bytes", "LocationFix",
            [0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01],
            .invalid(.badTag), flags: ["bad-tag", "overlong-varint"],
            "Tag of field 1 padded to 6 bytes: tags are at most 5 bytes (C++ and upb reject it).")
        builder.binary(
            "wire.LocationFix.bad-tag.truncated-multi-byte-tag", "LocationFix", [0x08, 0x01, 0x80, 0x80],
            .invalid(.truncated),
            flags: ["bad-tag", "truncated"], "The input ends inside a multi-byte tag.")
        for length in [2, 3, 4, 5] {
            builder.binary(
                "wire.LocationFix.overlong-tag.\(length)-bytes", "LocationFix",
                WireBytes.tag(1, 0, length: length) + [0x05],
                .valid, flags: ["overlong-varint"],
                "The tag of field 1 padded to \(length) bytes is valid and re-encodes in one byte.")
        }
        builder.binary(
            "wire.LocationFix.unknown-fields.max-field-number", "LocationFix", WireBytes.tag(536_870_911, 0) + [0x07],
            .valid, flags: ["unknown-fields"],
            "Field 536870911 (2^29-1), the largest number allowed, as an unknown varint.")
    }

    // MARK: Varints and scalar conversions

    static func varints(_ builder: inout VectorBuilder) {
        let fields: [(String, UInt32, UInt64)] = [
            ("sequence", 1, 1), ("time_ms", 2, 1_767_261_600_000), ("horizontal_accuracy_cm", 5, 470),
            ("altitude_cm", 6, UInt64(ZigZag.encode(Int32(-1234)))), ("elapsed_realtime_ms", 12, 0), ("reason", 13, 3),
            ("is_mock", 21, 1),
        ]
        for (name, number, value) in fields {
            for length in [Varint.encodedSize(of: value) + 1, 10] where length <= 10 {
                builder.binary(
                    "wire.LocationFix.overlong-varint.\(name).\(length)-bytes", "LocationFix",
                    WireBytes.varintField(number, value, length: length), .valid, flags: ["overlong-varint"],
                    "\(name) = \(value) written in \(length) bytes: accepted, re-encoded in its shortest form.")
            }
        }
        builder.binary(
            "wire.LocationBatch.overlong-varint.length-prefix", "LocationBatch",
            WireBytes.lengthDelimited(1, Array("dev".utf8), lengthPadding: 5), .valid, flags: ["overlong-varint"],
            "A string's length prefix padded to 5 bytes.")
        builder.binary(
            "wire.LocationBatch.overlong-varint.sub-message-length", "LocationBatch",
            WireBytes.lengthDelimited(8, WireBytes.varintField(1, 9), lengthPadding: 5), .valid,
            flags: ["overlong-varint"],
            "A sub-message's length prefix padded to 5 bytes, the most a length may take.")
        for (what, number, payload) in [
            ("string", UInt32(1), Array("dev".utf8)), ("sub-message", 8, WireBytes.varintField(1, 9)),
            ("packed", 99, [0xFF]),
        ] {
            let type = number == 99 ? "LocationFix" : "LocationBatch"
            builder.binary(
                "wire.\(type).varint-too-long.\(what)-length-6-bytes", type,
                WireBytes.lengthDelimited(number, payload, lengthPadding: 6),
                .invalid(.badVarint), flags: ["varint-too-long", "overlong-varint"],
                "A \(what) length prefix padded to 6 bytes: lengths are 32-bit varints of at most 5 bytes, and C++ and upb reject a sixth."
            )
        }
        let nine = [UInt8](repeating: 0xFF, count: 9)
        builder.binary(
            "wire.LocationFix.varint-too-long.11-bytes", "LocationFix",
            [0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01],
            .invalid(.badVarint), flags: ["varint-too-long"], "An 11-byte varint.")
        builder.binary(
            "wire.LocationFix.varint-too-long.10th-byte-continues", "LocationFix", [0x08] + nine + [0x80, 0x00],
            .invalid(.badVarint), flags: ["varint-too-long"], "A varint whose 10th byte has its continuation bit set.")
        builder.binary(
            "wire.LocationFix.varint-too-long.length-prefix", "LocationFix",
            [0x9A, 0x06] + [UInt8](repeating: 0x80, count: 10) + [0x00],
            .invalid(.badVarint), flags: ["varint-too-long", "unknown-fields"],
            "An 11-byte length prefix of an unknown field.")
        for (suffix, tenth, expected) in [
            ("01", UInt8(0x01), "2^64-1"), ("02", 0x02, "2^63-1"), ("7f", 0x7F, "2^64-1"),
        ] {
            builder.binary(
                "wire.LocationFix.varint-10th-byte.\(suffix)", "LocationFix", [0x08] + nine + [tenth], .valid,
                flags: ["overlong-varint"],
                "A 10-byte varint with last byte 0x\(suffix): only its lowest bit counts (bit 63), so sequence = \(expected), as C++ and upb read it."
            )
        }
        // 64-bit values in 32-bit fields keep their low 32 bits.
        let conversions: [(String, [UInt8], String)] = [
            (
                "int32-from-64-bit-negative", [0x30] + nine + [0x01],
                "altitude_cm (sint32) from a 10-byte varint: low 32 bits 0xffffffff, zigzag -2^31"
            ),
            (
                "uint32-from-2-pow-32", [0x28, 0x80, 0x80, 0x80, 0x80, 0x10],
                "horizontal_accuracy_cm (uint32) from 2^32: 0, present (the field has explicit presence)"
            ),
            (
                "uint32-from-2-pow-33-plus-5", [0x28, 0x85, 0x80, 0x80, 0x80, 0x20],
                "horizontal_accuracy_cm (uint32) from 2^33 + 5: 5"
            ),
            (
                "enum-from-64-bit-minus-1", [0x68] + nine + [0x01],
                "reason (enum) from -1 as 10 bytes: -1, kept though unnamed"
            ),
            (
                "enum-from-32-bit-minus-1", [0x68, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],
                "reason (enum) from 0xffffffff in 5 bytes: -1, re-encoded sign-extended in 10 bytes"
            ),
            (
                "enum-from-2-pow-40-plus-2", [0x68, 0x82, 0x80, 0x80, 0x80, 0x80, 0x20],
                "reason (enum) from 2^40 + 2: 2"
            ),
        ]
        for (name, bytes, what) in conversions {
            builder.binary(
                "wire.LocationFix.int64-to-int32.\(name)", "LocationFix", bytes, .valid, flags: ["int64-to-int32"],
                what + ".")
        }
        for (name, bytes) in [
            ("2", [UInt8](WireBytes.varint(2))), ("2-pow-33", WireBytes.varint(1 << 33)),
            ("minus-1", [UInt8](nine + [0x01])), ("overlong-1", WireBytes.varint(1, length: 10)),
        ] {
            builder.binary(
                "wire.LocationFix.bool-nonzero.\(name)", "LocationFix", [0xA8, 0x01] + bytes, .valid,
                flags: ["bool-nonzero"],
                "is_mock written as the varint \(name): any non-zero value is true, re-encoded as 1.")
        }
        builder.binary(
            "wire.LocationFix.bool-nonzero.zero-explicit", "LocationFix", [0xA8, 0x01, 0x00], .valid,
            flags: ["bool-nonzero", "implicit-default"], "is_mock written as 0: false, and not written again.")
        builder.binary(
            "wire.LocationFix.enum-unknown.99", "LocationFix", [0x68, 0x63], .valid, flags: ["enum-unknown"],
            "reason = 99, a value the schema does not name: kept (proto3 enums are open) and printed as 99 in JSON.")
        builder.binary(
            "wire.LocationFix.float.nan-payload", "LocationFix", [0xBD, 0x01, 0x01, 0x00, 0xC0, 0x7F], .valid,
            flags: ["float"], "pressure_hpa is a NaN with payload 1: the bit pattern survives re-encoding.")
        builder.binary(
            "wire.LocationFix.float.negative-zero", "LocationFix", [0xBD, 0x01, 0x00, 0x00, 0x00, 0x80], .valid,
            flags: ["float", "explicit-presence"], "pressure_hpa = -0.0: kept (and distinct from +0.0).")
        builder.binary(
            "wire.LocationFix.float.smallest-subnormal", "LocationFix", [0xBD, 0x01, 0x01, 0x00, 0x00, 0x00], .valid,
            flags: ["float"], "pressure_hpa = the smallest subnormal float, 1.4e-45.")
    }

    // MARK: Repeated fields

    static func repeats(_ builder: inout VectorBuilder) {
        let values: [Int32] = [1, -1, 2_147_483_647]
        let unpacked: [UInt8] = values.flatMap { value -> [UInt8] in
            [0x0D] + WireBytes.fixed32(UInt32(bitPattern: value))
        }
        let packedPayload: [UInt8] = values.flatMap { value -> [UInt8] in WireBytes.fixed32(UInt32(bitPattern: value)) }
        builder.binary(
            "wire.Polygon.unpacked.sfixed32", "Polygon", unpacked, .valid, flags: ["unpacked"],
            "latitudes_e7 sent unpacked: accepted, re-encoded packed.")
        builder.binary(
            "wire.Polygon.packed.two-chunks", "Polygon",
            WireBytes.lengthDelimited(1, Array(packedPayload.prefix(4)))
                + WireBytes.lengthDelimited(1, Array(packedPayload.dropFirst(4))),
            .valid, flags: ["packed"], "latitudes_e7 in two packed chunks: the elements concatenate.")
        builder.binary(
            "wire.Polygon.packed-and-unpacked.mixed", "Polygon",
            Array(unpacked.prefix(5)) + WireBytes.lengthDelimited(1, Array(packedPayload.dropFirst(4))), .valid,
            flags: ["packed", "unpacked"], "One element unpacked, then two packed: all three kept in order.")
        builder.binary(
            "wire.Polygon.packed.empty-chunk", "Polygon", [0x0A, 0x00] + unpacked, .valid, flags: ["packed", "empty"],
            "An empty packed chunk before unpacked elements adds nothing.")
        builder.binary(
            "wire.Polygon.packed.interleaved", "Polygon",
            Array(unpacked.prefix(5)) + [0x15] + WireBytes.fixed32(7) + Array(unpacked.dropFirst(5)), .valid,
            flags: ["unpacked", "field-order"],
            "latitudes_e7 elements interleaved with a longitude: each field keeps its own order.")
        builder.binary(
            "wire.Polygon.packed.bad-length", "Polygon", [0x0A, 0x03, 1, 2, 3], .invalid(.badLength), flags: ["packed"],
            "A packed sfixed32 field 3 bytes long, not a multiple of 4.")
        let deltas: [Int64] = [0, -1, 1, Int64.min, Int64.max]
        let zigzag = deltas.map { ZigZag.encode($0) }
        builder.binary(
            "wire.FixColumn.unpacked.sint64", "FixColumn", zigzag.flatMap { [0x08] + WireBytes.varint($0) }, .valid,
            flags: ["unpacked"], "FixColumn.deltas (sint64) unpacked, extremes included: re-encoded packed.")
        builder.binary(
            "wire.FixColumn.packed.sint64-and-uint32", "FixColumn",
            WireBytes.lengthDelimited(1, zigzag.flatMap { WireBytes.varint($0) })
                + WireBytes.lengthDelimited(2, [0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01]),
            .valid, flags: ["packed"], "deltas and run_lengths packed, with 2^32-1 as a run length.")
        builder.binary(
            "wire.FixColumn.packed.uint32-from-64-bit", "FixColumn",
            WireBytes.lengthDelimited(2, WireBytes.varint(1 << 32 | 3)),
            .valid, flags: ["packed", "int64-to-int32"],
            "A packed uint32 element written as a 64-bit varint keeps its low 32 bits (3).")
        builder.binary(
            "wire.ArmedRegions.repeated-strings.interleaved", "ArmedRegions",
            WireBytes.lengthDelimited(2, Array("a:1".utf8)) + WireBytes.lengthDelimited(3, Array("b:2".utf8))
                + WireBytes.lengthDelimited(2, Array("c:3".utf8)),
            .valid, flags: ["field-order"],
            "region_ids elements separated by a failed_region_ids element: re-encoded grouped.")
        builder.binary(
            "wire.LocationBatch.repeated-messages.interleaved", "LocationBatch",
            WireBytes.lengthDelimited(7, WireBytes.varintField(1, 1)) + WireBytes.lengthDelimited(1, Array("d".utf8))
                + WireBytes.lengthDelimited(7, WireBytes.varintField(1, 2)),
            .valid, flags: ["field-order"],
            "fixes[0], then device_id, then fixes[1]: the fixes keep their order, device_id moves first.")
    }

    // MARK: Duplicates and merges

    static func duplicatesAndMerges(_ builder: inout VectorBuilder) {
        let cases: [(String, String, [UInt8], String)] = [
            (
                "LocationFix", "varint", WireBytes.varintField(1, 1) + WireBytes.varintField(1, 2),
                "sequence twice: 2 wins"
            ),
            (
                "LocationFix", "sfixed32", [0x1D] + WireBytes.fixed32(1) + [0x1D] + WireBytes.fixed32(2),
                "latitude_e7 twice: 2 wins"
            ),
            (
                "LocationFix", "float",
                [0xBD, 0x01] + WireBytes.fixed32(Float(1).bitPattern) + [0xBD, 0x01]
                    + WireBytes.fixed32(Float(2).bitPattern), "pressure_hpa twice: 2 wins"
            ),
            (
                "LocationFix", "explicit-zero-last", WireBytes.varintField(8, 5) + WireBytes.varintField(8, 0),
                "speed_cm_s 5 then 0: 0 wins and stays present"
            ),
            (
                "LocationFix", "implicit-zero-last", WireBytes.varintField(1, 5) + WireBytes.varintField(1, 0),
                "sequence 5 then 0: 0 wins, so the field is not written"
            ),
            (
                "LocationBatch", "fixed64", [0x11] + WireBytes.fixed64(1) + [0x11] + WireBytes.fixed64(.max),
                "batch_id twice: the last wins"
            ),
            (
                "LocationBatch", "string",
                WireBytes.lengthDelimited(1, Array("a".utf8)) + WireBytes.lengthDelimited(1, Array("b".utf8)),
                "device_id twice: \"b\" wins"
            ),
            (
                "LocationBatch", "enum", WireBytes.varintField(6, 2) + WireBytes.varintField(6, 3),
                "datum twice: the last wins"
            ),
            (
                "FixColumn", "bytes", WireBytes.lengthDelimited(3, [1]) + WireBytes.lengthDelimited(3, [2, 3]),
                "presence twice: the last wins, no concatenation"
            ),
        ]
        for (type, kind, input, what) in cases {
            builder.binary(
                "wire.\(type).duplicate-field.\(kind)", type, input, .valid, flags: ["duplicate-field"], "\(what).")
        }
        let merges: [(String, String, [UInt8], String)] = [
            (
                "LocationBatch", "live-fix",
                WireBytes.lengthDelimited(8, WireBytes.varintField(1, 10))
                    + WireBytes.lengthDelimited(8, WireBytes.varintField(2, 5)),
                "live_fix {sequence: 10} then live_fix {time_ms: 5}: merged into one fix with both"
            ),
            (
                "LocationBatch", "live-fix-override",
                WireBytes.lengthDelimited(8, WireBytes.varintField(1, 10))
                    + WireBytes.lengthDelimited(8, WireBytes.varintField(1, 11)),
                "live_fix twice with different sequences: merged, the later sequence wins"
            ),
            (
                "LocationBatch", "device-status",
                WireBytes.lengthDelimited(11, WireBytes.varintField(4, 1))
                    + WireBytes.lengthDelimited(11, WireBytes.varintField(6, 0)),
                "device_status split: location_services_enabled from the first, low_power_mode (present, false) from the second"
            ),
            (
                "LocationBatch", "armed-regions-repeated",
                WireBytes.lengthDelimited(13, WireBytes.lengthDelimited(2, Array("a:1".utf8)))
                    + WireBytes.lengthDelimited(13, WireBytes.lengthDelimited(2, Array("a:2".utf8))),
                "armed_regions split: the repeated region_ids of both parts concatenate"
            ),
            (
                "FenceEvent", "nested",
                WireBytes.lengthDelimited(8, WireBytes.varintField(1, 1))
                    + WireBytes.lengthDelimited(8, [0x1D] + WireBytes.fixed32(7)),
                "trigger_fix split: sequence from the first, latitude from the second"
            ),
            (
                "RegionAssignment", "refresh",
                WireBytes.lengthDelimited(10, WireBytes.varintField(1, 100))
                    + WireBytes.lengthDelimited(10, WireBytes.varintField(4, 1)),
                "refresh split in two"
            ),
            (
                "CompactFixes", "column",
                WireBytes.lengthDelimited(2, WireBytes.lengthDelimited(1, [2]))
                    + WireBytes.lengthDelimited(2, WireBytes.lengthDelimited(1, [4])),
                "the time_ms column split: its packed deltas concatenate (1, 2)"
            ),
            (
                "Region", "unknown-fields-of-both",
                WireBytes.lengthDelimited(3, WireBytes.varintField(99, 1))
                    + WireBytes.lengthDelimited(3, WireBytes.varintField(98, 2)),
                "circle split, each part with an unknown field: both unknown fields are kept, in order"
            ),
        ]
        for (type, kind, input, what) in merges {
            builder.binary("wire.\(type).merge.\(kind)", type, input, .valid, flags: ["merge"], "\(what).")
        }
    }

    // MARK: Unknown fields

    static func unknownFields(_ builder: inout VectorBuilder) {
        let unknowns: [(String, [UInt8])] = [
            ("varint", WireBytes.varintField(99, 300)),
            ("fixed64", WireBytes.tag(99, 1) + WireBytes.fixed64(0x0102_0304_0506_0708)),
            ("length-delimited", WireBytes.lengthDelimited(99, [0xFF, 0x00, 0xC3])),
            ("fixed32", WireBytes.tag(99, 5) + WireBytes.fixed32(0xDEAD_BEEF)),
            ("group", WireBytes.tag(99, 3) + WireBytes.varintField(1, 1) + WireBytes.tag(99, 4)),
            ("private-range", WireBytes.varintField(50_000, 1)),
            ("overlong-varint", WireBytes.varintField(99, 1, length: 4)),
        ]
        for type in [
            "LocationFix", "LocationBatch", "BatchAck", "RegionAssignment", "Region", "FenceEvent", "TrackingPolicy",
            "RegionRequest",
        ] {
            let schema = MessageRegistry.type(named: type)!.schema
            let sample = SampleMessages.only(schema.fields[0], in: schema)
            for (kind, bytes) in unknowns {
                if kind == "overlong-varint" {
                    builder.binary(
                        "wire.\(type).unknown-fields.\(kind)", type, bytes + sample, .acceptable,
                        flags: ["unknown-fields", "peers-disagree"],
                        "An unknown varint field padded to 4 bytes: upb (and LocationWire) re-emit its bytes as they came, C++ re-encodes the value in its shortest form."
                    )
                    continue
                }
                builder.binary(
                    "wire.\(type).unknown-fields.\(kind)", type, bytes + sample, .valid, flags: ["unknown-fields"],
                    "An unknown \(kind) field before \(schema.fields[0].name): kept byte for byte and re-emitted after the known fields."
                )
            }
        }
        let ordered =
            WireBytes.varintField(99, 1) + WireBytes.lengthDelimited(98, [1]) + WireBytes.varintField(1, 5)
            + WireBytes.varintField(99, 2) + WireBytes.lengthDelimited(97, [2])
        builder.binary(
            "wire.LocationFix.unknown-fields.order", "LocationFix", ordered, .valid,
            flags: ["unknown-fields", "field-order"],
            "Four unknown fields around a known one: all four kept in arrival order, after the known field (order matters, since an unknown repeated field's elements must not be reordered)."
        )
        let wrongTypes: [(String, String, [UInt8])] = [
            ("LocationFix", "sfixed32-as-varint", WireBytes.varintField(3, 5)),
            ("LocationFix", "varint-as-fixed32", WireBytes.tag(1, 5) + WireBytes.fixed32(5)),
            ("LocationFix", "varint-as-length-delimited", WireBytes.lengthDelimited(1, [5])),
            ("LocationBatch", "message-as-varint", WireBytes.varintField(8, 1)),
            ("LocationBatch", "string-as-fixed64", WireBytes.tag(1, 1) + WireBytes.fixed64(1)),
            ("LocationBatch", "message-as-group", WireBytes.tag(8, 3) + WireBytes.tag(8, 4)),
        ]
        for (type, kind, bytes) in wrongTypes {
            builder.binary(
                "wire.\(type).wrong-wire-type.\(kind)", type, bytes, .valid,
                flags: ["wrong-wire-type", "unknown-fields"],
                "A known field number with a wire type its type does not use: kept as an unknown field, as C++ and upb do."
            )
        }
        builder.binary(
            "wire.LocationBatch.unknown-fields.nested", "LocationBatch",
            WireBytes.lengthDelimited(7, WireBytes.varintField(99, 1) + WireBytes.varintField(1, 1))
                + WireBytes.varintField(98, 2),
            .valid, flags: ["unknown-fields"], "Unknown fields in a fix and in the batch: each kept in its own message."
        )
        builder.binary(
            "wire.LocationBatch.empty", "LocationBatch", [], .valid, flags: ["empty"],
            "The empty input is the empty message.")
        builder.binary(
            "wire.LocationBatch.empty-sub-message", "LocationBatch", [0x42, 0x00], .valid, flags: ["empty"],
            "An empty live_fix is present, and re-encoded as present.")
    }

    // MARK: UTF-8

    static func utf8(_ builder: inout VectorBuilder) {
        let invalidSequences: [(String, [UInt8])] = [
            ("lone-continuation", [0xA0, 0xB0, 0xC0, 0xD0]), ("overlong-nul", [0xC0, 0x80]),
            ("surrogate", [0xED, 0xA0, 0x80]),
            ("truncated-sequence", [0x61, 0xE2, 0x82]), ("above-u10ffff", [0xF4, 0x90, 0x80, 0x80]),
        ]
        for type in MessageRegistry.allTypes {
            for field in type.schema.fields where field.type == .string {
                for (kind, payload) in (field.name == "device_id" ? invalidSequences : [invalidSequences[0]]) {
                    builder.binary(
                        "wire.\(type.messageName).utf8.\(field.name).\(kind)", type.messageName,
                        WireBytes.lengthDelimited(field.number, payload),
                        .invalid(.invalidUTF8), flags: ["utf8"],
                        "\(field.name) holds invalid UTF-8 (\(kind)): proto3 strings must be valid UTF-8.")
                }
            }
        }
        builder.binary(
            "wire.LocationBatch.utf8.nested-region-id", "LocationBatch",
            WireBytes.lengthDelimited(10, WireBytes.lengthDelimited(2, [0xC3, 0x28])), .invalid(.invalidUTF8),
            flags: ["utf8"],
            "fence_events[0].region_id holds invalid UTF-8.")
        builder.binary(
            "wire.LocationBatch.utf8.valid-multibyte", "LocationBatch",
            WireBytes.lengthDelimited(1, Array("é😀朝\u{10FFFF}".utf8)),
            .valid, flags: ["utf8"], "Two-, three- and four-byte sequences up to U+10FFFF are valid.")
        builder.binary(
            "wire.FixColumn.utf8.bytes-field", "FixColumn", WireBytes.lengthDelimited(3, [0xC3, 0x28, 0xFF]), .valid,
            flags: ["utf8"],
            "presence is a bytes field: any bytes are valid.")
        builder.binary(
            "wire.LocationFix.utf8.unknown-field", "LocationFix", WireBytes.lengthDelimited(99, [0xC3, 0x28]), .valid,
            flags: ["utf8", "unknown-fields"], "An unknown length-delimited field is not checked for UTF-8.")
    }

    // MARK: Lengths

    static func lengths(_ builder: inout VectorBuilder) {
        // Claims that fit a 5-byte length are truncation; longer ones are already malformed lengths.
        let claims: [(String, UInt64, VectorBuilder.Intended)] = [
            ("2-gib", 1 << 31, .invalid(.truncated)), ("4-gib", 1 << 32, .invalid(.truncated)),
            ("2-pow-34", 1 << 34, .invalid(.truncated)), ("2-pow-63", 1 << 63, .invalid(.badVarint)),
            ("one-more", 4, .invalid(.truncated)),
        ]
        for (name, claim, intended) in claims {
            builder.binary(
                "wire.LocationBatch.huge-length.string.\(name)", "LocationBatch",
                WireBytes.tag(1, 2) + WireBytes.varint(claim) + [0x61, 0x62, 0x63],
                intended, flags: ["huge-length", "hostile"],
                "device_id claims \(claim) bytes; 3 remain. Nothing may be allocated for the claim.")
            builder.binary(
                "wire.LocationBatch.huge-length.message.\(name)", "LocationBatch",
                WireBytes.tag(7, 2) + WireBytes.varint(claim) + [0x08, 0x01],
                intended, flags: ["huge-length", "hostile"], "fixes[0] claims \(claim) bytes; 2 remain.")
        }
        builder.binary(
            "wire.FixColumn.huge-length.packed", "FixColumn", WireBytes.tag(1, 2) + WireBytes.varint(1 << 34) + [0x02],
            .invalid(.truncated), flags: ["huge-length", "hostile", "packed"], "A packed field claims 2^34 bytes.")
        builder.binary(
            "wire.LocationBatch.huge-length.nested-beyond-parent", "LocationBatch",
            WireBytes.lengthDelimited(8, WireBytes.tag(99, 2) + [0x05, 0x01]) + [1, 2, 3, 4],
            .invalid(.badLength), flags: ["huge-length"],
            "Inside live_fix, an unknown field claims 5 bytes, more than its parent holds, though the input has them.")
        builder.binary(
            "wire.LocationBatch.many-empty-fixes", "LocationBatch", [UInt8]([0x3A, 0x00]).repeated(1000), .valid,
            flags: ["hostile", "empty"],
            "1000 empty fixes: small input, many elements.")
    }

    // MARK: Groups and depth

    static func groupsAndDepth(_ builder: inout VectorBuilder) {
        let start = WireBytes.tag(99, 3)
        let end = WireBytes.tag(99, 4)
        builder.binary(
            "wire.LocationFix.group.unknown-nested", "LocationFix",
            start + start + WireBytes.varintField(1, 1) + end + end + WireBytes.varintField(1, 2),
            .valid, flags: ["group", "unknown-fields"],
            "Nested unknown groups are skipped correctly and kept byte for byte.")
        builder.binary(
            "wire.LocationFix.group.end-without-start", "LocationFix", end, .invalid(.badGroup), flags: ["group"],
            "An end-group tag without a start.")
        builder.binary(
            "wire.LocationFix.group.mismatched-end", "LocationFix", start + WireBytes.tag(98, 4), .invalid(.badGroup),
            flags: ["group"],
            "A group of field 99 closed by the end tag of field 98.")
        builder.binary(
            "wire.LocationFix.group.unterminated", "LocationFix", start + WireBytes.varintField(1, 1),
            .invalid(.badGroup), flags: ["group"],
            "A group still open at the end of the input.")
        builder.binary(
            "wire.LocationFix.group.mismatched-nested-end", "LocationFix",
            start + WireBytes.tag(98, 3) + end + WireBytes.tag(98, 4),
            .invalid(.badGroup), flags: ["group"], "Nested groups closed in the wrong order.")
        builder.binary(
            "wire.LocationBatch.group.end-outside-sub-message", "LocationBatch",
            WireBytes.lengthDelimited(8, start) + end,
            .invalid(.badGroup), flags: ["group"],
            "A group opened inside live_fix and closed after it: a group cannot cross a sub-message boundary.")
        builder.binary(
            "wire.LocationFix.group.field-zero-inside", "LocationFix", start + [0x00, 0x00] + end, .acceptable,
            flags: ["group", "bad-tag", "peers-disagree", "fuzz-finding"],
            "Field number 0 inside an unknown group: C++ and LocationWire reject it, upb does not check the fields of a group it skips. Found by `locwire fuzz` against upb."
        )
        builder.binary(
            "wire.LocationFix.group.known-number-as-group", "LocationFix", WireBytes.tag(1, 3) + WireBytes.tag(1, 4),
            .valid,
            flags: ["group", "wrong-wire-type", "unknown-fields"], "Field 1 sent as an empty group: an unknown field.")
        for (levels, intended) in [(99, VectorBuilder.Intended.valid), (100, .valid), (101, .invalid(.limitExceeded))] {
            builder.binary(
                "wire.LocationBatch.depth.groups-\(levels)", "LocationBatch",
                start.repeated(levels) + end.repeated(levels), intended,
                flags: ["depth", "group"],
                "\(levels) nested unknown groups below the batch: protobuf's C++ and upb decoders accept 100 levels and reject 101."
            )
        }
        for (groups, intended) in [(98, VectorBuilder.Intended.valid), (99, .invalid(.limitExceeded))] {
            let inner = start.repeated(groups) + end.repeated(groups)
            builder.binary(
                "wire.LocationBatch.depth.sub-messages-and-groups-\(groups + 2)", "LocationBatch",
                WireBytes.lengthDelimited(10, WireBytes.lengthDelimited(8, inner)), intended,
                flags: ["depth", "group"],
                "fence_events[0].trigger_fix holding \(groups) nested groups: \(groups + 2) levels; sub-messages and groups count alike."
            )
        }
    }
}

extension Array where Element == UInt8 {
    func repeated(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { _ in self }
    }
}
