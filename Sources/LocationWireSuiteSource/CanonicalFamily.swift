import LocationWire
import LocationWireConformance
import LocationWireInspection

/// Family (b): canonical encoding. Every field of every message, alone, with its canonical bytes and JSON; then
/// non-canonical inputs (reversed field order, unpacked repeats, explicit defaults, unknown fields first) whose
/// canonical re-encoding the implementation must produce byte for byte; and every named value of every enum
/// field, alone, with its number in the bytes and its name in the JSON.
enum CanonicalFamily: VectorFamily {
    static let name = "canonical"
    static let description = """
        Canonical encoding: fields in field-number order, repeated numeric scalars packed, implicit-presence \
        zeros omitted, explicit-presence fields written whenever set, unknown fields last in arrival order, \
        shortest varints. One vector per field of every message shows that field's bytes and JSON, and one per \
        named value of every enum field shows its number and its name.
        """

    /// The enum values come last: the vectors added with them kept every earlier vector's place and id.
    static var sections: [VectorFamilySection] { [messages, boundaries, enumValues] }

    /// For each message type: every field alone, all fields, and the non-canonical forms of the sample.
    static func messages(_ builder: inout VectorBuilder) {
        for type in MessageRegistry.allTypes {
            let schema = type.schema
            for field in schema.fields {
                builder.binary(
                    "canonical.\(schema.name).field.\(field.name)", schema.name, SampleMessages.only(field, in: schema),
                    .valid,
                    flags: ["field-coverage"],
                    "Only \(field.name) (\(field.number), \(field.type.protoName)\(field.label == .repeated ? ", repeated" : "")) is set."
                )
            }
            let sample = SampleMessages.full(schema)
            builder.binary(
                "canonical.\(schema.name).all-fields", schema.name, sample, .valid, flags: ["field-coverage"],
                "Every field of \(schema.name) set; the input is already canonical.")
            let fields = WireBytes.fields(of: sample, schema: schema)
            if fields.count > 1 {
                builder.binary(
                    "canonical.\(schema.name).reversed-order", schema.name, fields.reversed().flatMap(\.bytes), .valid,
                    flags: ["field-order"],
                    "Every field set, in reverse field order: canonical output is in field-number order.")
            }
            let explicitZeros = schema.fields.filter { $0.label == .singular && !$0.type.isMessage }.flatMap {
                field -> [UInt8] in
                WireBytes.tag(field.number, field.type.wireType.rawValue) + zeroValue(field.type)
            }
            if !explicitZeros.isEmpty {
                builder.binary(
                    "canonical.\(schema.name).implicit-zeros-written", schema.name, explicitZeros, .valid,
                    flags: ["implicit-default"],
                    "Every field without presence written with its zero value: canonical output omits them all.")
            }
            let optionalZeros = schema.fields.filter { $0.label == .optional }.flatMap { field -> [UInt8] in
                WireBytes.tag(field.number, field.type.wireType.rawValue) + zeroValue(field.type)
            }
            if !optionalZeros.isEmpty {
                builder.binary(
                    "canonical.\(schema.name).explicit-zeros", schema.name, optionalZeros, .valid,
                    flags: ["explicit-presence"],
                    "Every field with explicit presence set to zero: canonical output keeps them all (zero is a value)."
                )
            }
            let packable = schema.fields.filter(\.isPacked)
            if !packable.isEmpty {
                let unpacked = packable.flatMap { field -> [UInt8] in
                    [0, 1].flatMap { element in
                        WireBytes.tag(field.number, field.type.wireType.rawValue)
                            + SampleMessages.value(field, in: schema, element: element, depth: 0)
                    }
                }
                builder.binary(
                    "canonical.\(schema.name).unpacked-input", schema.name, unpacked, .valid, flags: ["unpacked"],
                    "Repeated scalars sent unpacked: canonical output packs them.")
            }
            builder.binary(
                "canonical.\(schema.name).unknown-fields-first", schema.name,
                WireBytes.varintField(50_001, 1) + WireBytes.lengthDelimited(50_002, [0x61])
                    + Array(sample.prefix(fields.first?.bytes.count ?? 0)),
                .valid, flags: ["unknown-fields", "field-order"],
                "Two private-range unknown fields before the first known field: canonical output writes them after it, in order."
            )
        }
    }

    /// Sizes where an encoder's length computation could be off by one.
    static func boundaries(_ builder: inout VectorBuilder) {
        // Varint sizes at their boundaries, where an off-by-one in size computation would show.
        for (index, value) in [
            127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, UInt64(UInt32.max), 1 << 35,
            1 << 42, 1 << 49, 1 << 56, 1 << 63, .max,
        ].enumerated() {
            builder.binary(
                "canonical.LocationFix.varint-boundary.\(index)", "LocationFix", WireBytes.varintField(1, value),
                .valid,
                flags: ["overlong-varint"], "sequence = \(value), at a varint length boundary.")
        }
        // Field numbers whose tags change length: 15 -> 16 (1 -> 2 bytes) is inside LocationFix.
        let fix = WireBytes.varintField(15, 100) + WireBytes.varintField(16, 2)
        builder.binary(
            "canonical.LocationFix.tag-length-boundary", "LocationFix", fix, .valid, flags: ["field-coverage"],
            "Fields 15 and 16: one-byte and two-byte tags side by side.")
        // Sub-messages of 127, 128 and 16384 bytes: their length prefixes take 1, 2 and 3 bytes.
        for length in [127, 128, 16_384] {
            var nameLength = length - 2
            while 1 + WireBytes.varint(UInt64(nameLength)).count + nameLength > length { nameLength -= 1 }
            let region = WireBytes.lengthDelimited(14, [UInt8](repeating: 0x61, count: nameLength))
            precondition(region.count == length)
            builder.binary(
                "canonical.RegionAssignment.sub-message-length-\(length)", "RegionAssignment",
                WireBytes.lengthDelimited(6, region), .valid,
                flags: ["overlong-varint"],
                "A region of \(length) bytes, whose length prefix takes \(WireBytes.varint(UInt64(length)).count) bytes."
            )
        }
    }

    /// Every named value but zero of every enum field, alone: its number in the canonical bytes, its name in the
    /// canonical JSON. An enum value that no vector carries is experimental (proto/README.md `§stability`): these
    /// carry all of them, so that every value devices send is held to. The zero value needs no vector of its own: an
    /// absent field reads as it, and `implicit-zeros-written` writes it.
    static func enumValues(_ builder: inout VectorBuilder) {
        for type in MessageRegistry.allTypes {
            let schema = type.schema
            for field in schema.fields {
                guard case .enumeration(let enumeration) = field.type else { continue }
                for value in enumeration.values where value.number != 0 {
                    let number = WireBytes.varint(UInt64(bitPattern: Int64(value.number)))
                    // A repeated enum is packed: one element in a length-delimited field.
                    let input =
                        field.isPacked
                        ? WireBytes.lengthDelimited(field.number, number)
                        : WireBytes.tag(field.number, field.type.wireType.rawValue) + number
                    let repeated = field.label == .repeated ? ", repeated" : ""
                    builder.binary(
                        "canonical.\(schema.name).enum-value.\(field.name).\(value.name)", schema.name, input, .valid,
                        flags: ["enum-value"],
                        "Only \(field.name) (\(field.number), \(enumeration.name)\(repeated)) is set, to \(value.name) "
                            + "(\(value.number)): the number in binary, the name in JSON.")
                }
            }
        }
    }

    static func zeroValue(_ type: FieldType) -> [UInt8] {
        switch type.wireType {
        case .varint: [0]
        case .fixed32: [0, 0, 0, 0]
        case .fixed64: [UInt8](repeating: 0, count: 8)
        default: [0]  // an empty string or bytes: length 0
        }
    }
}
