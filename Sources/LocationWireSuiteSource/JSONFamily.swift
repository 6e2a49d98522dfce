import Foundation
import LocationWire
import LocationWireConformance
import LocationWireInspection
import LocationWireJSON

/// Family (c): the proto3 JSON mapping, both directions. JSON input, accepted or rejected, with the canonical
/// bytes and JSON an implementation must produce; binary input whose JSON output must mean the same as the
/// expected JSON. Where Google's C++ (3.21) and upb disagree, or LocationWire is stricter than both, the vector is
/// `acceptable`.
enum JSONFamily: VectorFamily {
    static let name = "json"
    static let description = """
        The proto3 JSON mapping: names (JSON and .proto), 64-bit integers as strings, integral numbers in any \
        notation, float specials, enums by name and number, base64 bytes, null, strict JSON syntax; and the JSON \
        an implementation prints for binary input, compared by meaning.
        """

    static var sections: [VectorFamilySection] {
        [roundTrips, numbers, otherScalars, nullsAndNames, syntax, printing]
    }

    /// The canonical JSON of each full sample is valid input that gives back the sample's bytes; so are the
    /// same members under their .proto names.
    static func roundTrips(_ builder: inout VectorBuilder) {
        for type in MessageRegistry.allTypes {
            let schema = type.schema
            let codec = AnyMessageCodec(type)
            let message = try! codec.decodeBinary(SampleMessages.full(schema))
            let json = AnyMessageCodec.encodeJSON(message)
            builder.json(
                "json.\(schema.name).round-trip", schema.name, json, .valid, flags: ["field-coverage"],
                "The canonical JSON of the full \(schema.name) sample: every field, nested messages included.")
            builder.json(
                "json.\(schema.name).proto-names", schema.name, protoNames(json, schema: schema), .valid,
                flags: ["json-names"],
                "The same members under their .proto (snake_case) names, which parsers must accept too.")
            builder.json(
                "json.\(schema.name).pretty", schema.name,
                AnyMessageCodec.encodeJSON(message, options: JSONPrintOptions(pretty: true)),
                .valid, flags: ["field-coverage"],
                "The full sample as indented JSON: whitespace between tokens is insignificant.")
        }
        builder.json(
            "json.LocationBatch.empty-object", "LocationBatch", "{}", .valid, flags: ["empty"],
            "{} is the empty message.")
        builder.json(
            "json.LocationBatch.empty-sub-message", "LocationBatch", #"{"liveFix":{}}"#, .valid, flags: ["empty"],
            "An empty live_fix object sets live_fix.")
    }

    /// Renames every JSON member to the .proto name of its field, recursively, by walking the schema.
    static func protoNames(_ json: String, schema: MessageSchema) -> String {
        var text = json
        var schemas = [schema]
        var index = 0
        while index < schemas.count {
            for field in schemas[index].fields {
                text = text.replacingOccurrences(of: "\"\(field.jsonName)\":", with: "\"\(field.name)\":")
                if case .message(let nested) = field.type, !schemas.contains(nested) { schemas.append(nested) }
            }
            index += 1
        }
        return text
    }

    static func numbers(_ builder: inout VectorBuilder) {
        let cases: [(String, String, VectorBuilder.Intended, [String], String)] = [
            ("int64-number", #"{"sentAtMs":1767261600000}"#, .valid, [], "an int64 as a JSON number"),
            (
                "int64-string", #"{"sentAtMs":"1767261600000"}"#, .valid, [],
                "an int64 as a string, as printers write it"
            ),
            ("int64-max-string", #"{"sentAtMs":"9223372036854775807"}"#, .valid, [], "the largest int64, as a string"),
            (
                "int64-min-number", #"{"sentAtMs":-9223372036854775808}"#, .valid, [],
                "the smallest int64 as a number, exactly"
            ),
            (
                "int64-beyond-max", #"{"sentAtMs":"9223372036854775808"}"#, .invalid(.jsonSchema), [],
                "one above the largest int64"
            ),
            (
                "uint64-max-number", #"{"batchId":18446744073709551615}"#, .valid, [],
                "the largest fixed64 as a number, exactly"
            ),
            ("uint64-negative", #"{"batchId":"-1"}"#, .invalid(.jsonSchema), [], "a negative fixed64"),
            ("int64-exponent", #"{"sentAtMs":1.7e12}"#, .valid, [], "1.7e12 is an integer, so an int64 accepts it"),
            ("int64-trailing-zero-fraction", #"{"sentAtMs":5.0}"#, .valid, [], "5.0 is the integer 5"),
            ("int64-fraction", #"{"sentAtMs":5.5}"#, .invalid(.jsonSchema), [], "5.5 is not an integer"),
            (
                "int64-exponent-in-string", #"{"sentAtMs":"1e3"}"#, .acceptable, ["peers-disagree"],
                "an exponent inside a string: upb (and LocationWire) read 1000, C++ 3.21 rejects it"
            ),
            (
                "int64-hex-string", #"{"sentAtMs":"0x10"}"#, .invalid(.jsonSchema), [],
                "hexadecimal is not a JSON number"
            ),
            (
                "int64-space-in-string", #"{"sentAtMs":" 1"}"#, .invalid(.jsonSchema), [],
                "a space inside a numeric string"
            ),
            ("int64-empty-string", #"{"sentAtMs":""}"#, .invalid(.jsonSchema), [], "an empty string is not a number"),
            (
                "int64-plus-in-string", #"{"sentAtMs":"+1"}"#, .valid, [],
                "a leading plus inside a string, which C++ and upb accept"
            ),
            ("int32-min", #"{"liveFix":{"altitudeCm":-2147483648}}"#, .valid, [], "the smallest sint32"),
            (
                "int32-too-large", #"{"liveFix":{"altitudeCm":2147483648}}"#, .invalid(.jsonSchema), [],
                "one above the largest sint32"
            ),
            (
                "int32-too-small", #"{"liveFix":{"altitudeCm":-2147483649}}"#, .invalid(.jsonSchema), [],
                "one below the smallest sint32"
            ),
            ("int32-as-string", #"{"liveFix":{"altitudeCm":"-12"}}"#, .valid, [], "a 32-bit integer as a string"),
            ("int32-exponent", #"{"liveFix":{"altitudeCm":1e2}}"#, .valid, [], "1e2 is the integer 100"),
            (
                "int32-negative-zero", #"{"liveFix":{"altitudeCm":-0}}"#, .valid, ["explicit-presence"],
                "-0 is 0, present"
            ),
            (
                "uint32-negative", #"{"liveFix":{"horizontalAccuracyCm":-1}}"#, .invalid(.jsonSchema), [],
                "a negative uint32"
            ),
            (
                "uint32-too-large", #"{"liveFix":{"horizontalAccuracyCm":4294967296}}"#, .invalid(.jsonSchema), [],
                "2^32 in a uint32"
            ),
            ("uint32-max", #"{"liveFix":{"horizontalAccuracyCm":4294967295}}"#, .valid, [], "the largest uint32"),
            ("sfixed32-number", #"{"liveFix":{"latitudeE7":-900000000}}"#, .valid, [], "an sfixed32 as a number"),
            ("huge-exponent", #"{"sentAtMs":1e999999}"#, .invalid(.jsonSchema), [], "an integer far beyond any range"),
            (
                "tiny-exponent", #"{"sentAtMs":1e-999999}"#, .acceptable, ["peers-disagree"],
                "1e-999999 is not an integer, but C++ and upb read it through a double as 0 and accept it; LocationWire rejects it"
            ),
        ]
        for (name, input, intended, flags, what) in cases {
            builder.json(
                "json.LocationBatch.number.\(name)", "LocationBatch", input, intended, flags: ["json-number"] + flags,
                what + ".")
        }
        let floats: [(String, String, VectorBuilder.Intended, [String], String)] = [
            ("float-number", #"{"pressureHpa":1013.25}"#, .valid, [], "a float as a number"),
            ("float-integer", #"{"pressureHpa":1000}"#, .valid, [], "a float written as an integer"),
            ("float-string", #"{"pressureHpa":"1013.25"}"#, .valid, [], "a float as a numeric string"),
            ("float-nan", #"{"pressureHpa":"NaN"}"#, .valid, ["float"], "NaN as the string \"NaN\""),
            ("float-infinity", #"{"pressureHpa":"Infinity"}"#, .valid, ["float"], "positive infinity as a string"),
            (
                "float-negative-infinity", #"{"pressureHpa":"-Infinity"}"#, .valid, ["float"],
                "negative infinity as a string"
            ),
            ("float-negative-zero", #"{"pressureHpa":"-0"}"#, .valid, ["float"], "-0 as a string keeps its sign"),
            (
                "float-negative-zero-number", #"{"pressureHpa":-0.0}"#, .valid, ["float"],
                "-0.0 as a number keeps its sign"
            ),
            (
                "float-underflow", #"{"pressureHpa":1e-46}"#, .valid, ["float"],
                "a value below the smallest float rounds to 0"
            ),
            ("float-max", #"{"pressureHpa":3.4028234663852886e38}"#, .valid, ["float"], "the largest float, exactly"),
            (
                "float-max-as-printed", #"{"pressureHpa":3.40282347e+38}"#, .acceptable, ["float", "peers-disagree"],
                "the largest float as C++ prints it, a hair above it as a double: C++ and LocationWire round it to the largest float, upb refuses it"
            ),
            (
                "float-rounds-to-max", #"{"pressureHpa":"3.4028235e+38"}"#, .acceptable, ["float", "peers-disagree"],
                "the largest float as Python prints it: C++ and LocationWire accept it, upb refuses its own output"
            ),
            (
                "float-too-large", #"{"pressureHpa":3.5e38}"#, .invalid(.jsonSchema), ["float"],
                "a number that rounds to infinity as a float: C++ and upb reject it"
            ),
            (
                "float-too-large-string", #"{"pressureHpa":"1e39"}"#, .acceptable, ["float", "peers-disagree"],
                "beyond the float range, in a string: upb reads Infinity, C++ and LocationWire reject it"
            ),
            (
                "float-nan-literal", #"{"pressureHpa":NaN}"#, .invalid(.jsonSyntax), ["float", "json-syntax"],
                "NaN without quotes is not JSON"
            ),
            (
                "float-infinity-literal", #"{"pressureHpa":Infinity}"#, .invalid(.jsonSyntax),
                ["float", "json-syntax"], "Infinity without quotes is not JSON"
            ),
            ("float-nan-lowercase", #"{"pressureHpa":"nan"}"#, .invalid(.jsonSchema), ["float"], "only \"NaN\" is NaN"),
            (
                "float-negative-zero-integer", #"{"pressureHpa":-0}"#, .acceptable, ["float", "peers-disagree"],
                "the integer token -0: C++ and upb read it through the integers as +0.0; LocationWire reads -0.0, because C++ prints -0.0 as -0 and printed JSON must read back"
            ),
            (
                "float-beyond-double", #"{"pressureHpa":1e400}"#, .invalid(.jsonSchema), ["float"],
                "a number beyond the range of a double is not infinity"
            ),
            (
                "float-beyond-double-negative", #"{"pressureHpa":-1e400}"#, .invalid(.jsonSchema), ["float"],
                "nor is its negative"
            ),
        ]
        for (name, input, intended, flags, what) in floats {
            builder.json(
                "json.LocationFix.number.\(name)", "LocationFix", input, intended, flags: ["json-number"] + flags,
                what + ".")
        }
        builder.json(
            "json.FixColumn.number.sint64-extremes", "FixColumn",
            #"{"deltas":["-9223372036854775808","9223372036854775807",0,-1]}"#,
            .valid, flags: ["json-number"], "sint64 extremes in a repeated field, as strings and numbers.")
        builder.json(
            "json.FixColumn.number.uint32-repeated", "FixColumn", #"{"runLengths":[4294967295,"1",2.0]}"#,
            .valid, flags: ["json-number"], "uint32 elements as a number, a string and an integral fraction.")
    }

    static func otherScalars(_ builder: inout VectorBuilder) {
        let cases: [(String, String, String, VectorBuilder.Intended, [String], String)] = [
            ("LocationBatch", "enum-name", #"{"datum":"COORDINATE_DATUM_BD09"}"#, .valid, [], "an enum by name"),
            ("LocationBatch", "enum-number", #"{"datum":2}"#, .valid, [], "an enum by number"),
            (
                "LocationBatch", "enum-number-in-string", #"{"datum":"2"}"#, .valid, [],
                "an enum number in a string, which C++ and upb accept"
            ),
            (
                "LocationBatch", "enum-unknown-number-in-string", #"{"datum":"99"}"#, .acceptable,
                ["enum-unknown", "peers-disagree"],
                "an unnamed enum number in a string: upb and LocationWire accept it, C++ 3.21 rejects it"
            ),
            (
                "LocationBatch", "enum-unknown-number", #"{"datum":99}"#, .valid, ["enum-unknown"],
                "an enum number the schema does not name: kept"
            ),
            (
                "LocationBatch", "enum-zero-name", #"{"datum":"COORDINATE_DATUM_UNSPECIFIED"}"#, .valid,
                ["implicit-default"], "the zero value by name: not set"
            ),
            (
                "LocationBatch", "enum-unknown-name", #"{"datum":"COORDINATE_DATUM_MARS"}"#, .invalid(.jsonSchema),
                ["enum-unknown"], "a name the enum does not have"
            ),
            (
                "LocationBatch", "enum-lowercase-name", #"{"datum":"coordinate_datum_bd09"}"#, .invalid(.jsonSchema),
                [], "enum names are case-sensitive"
            ),
            (
                "LocationBatch", "enum-negative-number", #"{"liveFix":{"reason":-1}}"#, .valid, ["enum-unknown"],
                "a negative enum number"
            ),
            (
                "LocationBatch", "enum-out-of-int32", #"{"datum":2147483648}"#, .invalid(.jsonSchema), [],
                "an enum number beyond int32"
            ),
            ("LocationBatch", "bool-true", #"{"liveFix":{"isMock":true}}"#, .valid, [], "a bool"),
            (
                "LocationBatch", "bool-false", #"{"liveFix":{"isMock":false}}"#, .valid, ["implicit-default"],
                "false: not set"
            ),
            (
                "LocationBatch", "bool-quoted", #"{"liveFix":{"isMock":"true"}}"#, .acceptable,
                ["peers-disagree", "stricter-than-peers"],
                "a quoted bool: C++ 3.21 accepts it, upb and LocationWire reject it"
            ),
            (
                "LocationBatch", "bool-number", #"{"liveFix":{"isMock":1}}"#, .invalid(.jsonSchema), [],
                "1 is not a bool in JSON"
            ),
            (
                "LocationBatch", "bool-optional-false", #"{"deviceStatus":{"lowPowerMode":false}}"#, .valid,
                ["explicit-presence"],
                "false in a field with presence: set, and printed"
            ),
            (
                "LocationBatch", "string-escapes", #"{"deviceId":"a\"b\\c\/d\b\f\n\r\t\u0001"}"#, .valid,
                ["json-string"], "every JSON escape"
            ),
            (
                "LocationBatch", "string-unicode-escapes", #"{"deviceId":"\u00e9\u6F22\ud83d\ude00"}"#, .valid,
                ["json-string"],
                "\\u escapes, lower and upper case hex, and a surrogate pair"
            ),
            (
                "LocationBatch", "string-raw-utf8", #"{"deviceId":"é漢😀"}"#, .valid, ["json-string"],
                "UTF-8 written as is"
            ),
            (
                "LocationBatch", "string-unpaired-high-surrogate", #"{"deviceId":"\ud83d"}"#, .invalid(.jsonSyntax),
                ["json-string"], "an unpaired high surrogate"
            ),
            (
                "LocationBatch", "string-unpaired-low-surrogate", #"{"deviceId":"\ude00"}"#, .invalid(.jsonSyntax),
                ["json-string"], "an unpaired low surrogate"
            ),
            (
                "LocationBatch", "string-surrogates-reversed", #"{"deviceId":"\ude00\ud83d"}"#, .invalid(.jsonSyntax),
                ["json-string"], "a low surrogate before a high one"
            ),
            (
                "LocationBatch", "string-bad-escape", #"{"deviceId":"\x41"}"#, .acceptable,
                ["json-string", "peers-disagree"],
                "\\x is not a JSON escape: upb and LocationWire reject it, C++ 3.21 accepts it"
            ),
            (
                "LocationBatch", "string-uppercase-u-escape", #"{"deviceId":"\U00e9"}"#, .acceptable,
                ["json-string", "peers-disagree"],
                "\\U is not a JSON escape: upb and LocationWire reject it, C++ 3.21 accepts it"
            ),
            (
                "LocationBatch", "string-control-character", "{\"deviceId\":\"a\tb\"}", .acceptable,
                ["json-string", "peers-disagree"],
                "an unescaped tab inside a string: upb and LocationWire reject it, C++ 3.21 accepts it"
            ),
            (
                "LocationBatch", "string-for-number", #"{"deviceId":1}"#, .invalid(.jsonSchema), [],
                "a number where a string is expected"
            ),
            ("FixColumn", "bytes-padded", #"{"presence":"AP8Q"}"#, .valid, ["json-bytes"], "standard base64"),
            (
                "FixColumn", "bytes-padding", #"{"presence":"+/8="}"#, .valid, ["json-bytes"],
                "standard base64 with padding"
            ),
            (
                "FixColumn", "bytes-unpadded", #"{"presence":"+/8"}"#, .valid, ["json-bytes"],
                "base64 without its padding"
            ),
            ("FixColumn", "bytes-url-safe", #"{"presence":"-_8="}"#, .valid, ["json-bytes"], "the URL-safe alphabet"),
            (
                "FixColumn", "bytes-empty", #"{"presence":""}"#, .valid, ["json-bytes", "implicit-default"],
                "empty bytes: not set"
            ),
            (
                "FixColumn", "bytes-invalid-character", #"{"presence":"AP*Q"}"#, .acceptable,
                ["json-bytes", "peers-disagree"],
                "a character outside both alphabets: C++ and LocationWire reject it, upb skips it"
            ),
            (
                "FixColumn", "bytes-impossible-length", #"{"presence":"A"}"#, .invalid(.jsonSchema), ["json-bytes"],
                "a single base64 character encodes no byte"
            ),
            (
                "FixColumn", "bytes-not-a-string", #"{"presence":[0,255]}"#, .invalid(.jsonSchema), ["json-bytes"],
                "bytes must be a base64 string"
            ),
        ]
        for (type, name, input, intended, flags, what) in cases {
            builder.json("json.\(type).value.\(name)", type, input, intended, flags: flags, what + ".")
        }
    }

    static func nullsAndNames(_ builder: inout VectorBuilder) {
        let cases: [(String, String, VectorBuilder.Intended, [String], String)] = [
            ("null-scalar", #"{"deviceId":null,"sentAtMs":"5"}"#, .valid, ["json-null"], "null for a scalar: not set"),
            ("null-message", #"{"liveFix":null}"#, .valid, ["json-null"], "null for a sub-message: not set"),
            ("null-repeated", #"{"fixes":null}"#, .valid, ["json-null"], "null for a repeated field: empty"),
            (
                "null-optional", #"{"liveFix":{"speedCmS":null}}"#, .valid, ["json-null", "explicit-presence"],
                "null for a field with presence: absent"
            ),
            (
                "null-array-element", #"{"fixes":[{},null]}"#, .acceptable,
                ["json-null", "peers-disagree", "stricter-than-peers"],
                "null inside an array: upb and LocationWire reject it, C++ 3.21 accepts it"
            ),
            (
                "null-string-array-element", #"{"armedRegions":{"regionIds":["a:1",null]}}"#, .acceptable,
                ["json-null", "peers-disagree", "stricter-than-peers"],
                "null inside an array of strings"
            ),
            (
                "duplicate-name", #"{"sentAtMs":"5","sentAtMs":"6"}"#, .acceptable, ["stricter-than-peers"],
                "the same member twice: LocationWire rejects it; other implementations may keep the last"
            ),
            (
                "duplicate-json-and-proto-name", #"{"sent_at_ms":"5","sentAtMs":"6"}"#, .acceptable,
                ["stricter-than-peers", "json-names"],
                "one field under its .proto name and its JSON name: C++ and upb keep the last, LocationWire rejects it"
            ),
            ("unknown-member", #"{"speedKmh":5}"#, .invalid(.jsonSchema), [], "a member the message does not have"),
            (
                "unknown-member-nested", #"{"liveFix":{"lat":45}}"#, .invalid(.jsonSchema), [],
                "an unknown member in a sub-message"
            ),
            (
                "mixed-case-name", #"{"DeviceId":"a"}"#, .invalid(.jsonSchema), ["json-names"],
                "names are case-sensitive"
            ),
            (
                "array-for-message", #"{"liveFix":[]}"#, .acceptable, ["peers-disagree"],
                "an array where an object is expected: C++ and LocationWire reject it, upb reads an empty message"
            ),
            (
                "object-for-repeated", #"{"fixes":{}}"#, .acceptable, ["peers-disagree"],
                "an object where an array is expected: upb and LocationWire reject it, C++ 3.21 accepts it"
            ),
            (
                "string-for-message", #"{"liveFix":"x"}"#, .invalid(.jsonSchema), [],
                "a string where an object is expected"
            ),
            (
                "top-level-array", "[]", .acceptable, ["peers-disagree", "stricter-than-peers"],
                "the top level must be an object: C++ and LocationWire reject [], upb reads it as the empty message"
            ),
            ("top-level-null", "null", .invalid(.jsonSchema), ["json-null"], "null at the top level"),
            ("top-level-string", #""x""#, .invalid(.jsonSchema), [], "a string at the top level"),
        ]
        for (name, input, intended, flags, what) in cases {
            builder.json(
                "json.LocationBatch.structure.\(name)", "LocationBatch", input, intended, flags: flags, what + ".")
        }
    }

    static func syntax(_ builder: inout VectorBuilder) {
        let cases: [(String, String, String)] = [
            ("trailing-comma-object", #"{"deviceId":"a",}"#, "a trailing comma in an object"),
            ("trailing-comma-array", #"{"fixes":[{},]}"#, "a trailing comma in an array"),
            ("comment-block", #"{/* c */"deviceId":"a"}"#, "a block comment"),
            ("comment-line", "{\"deviceId\":\"a\" // c\n}", "a line comment"),
            ("single-quotes", #"{'deviceId':'a'}"#, "single-quoted strings"),
            ("unquoted-name", #"{deviceId:"a"}"#, "an unquoted member name"),
            ("leading-zero", #"{"sentAtMs":01}"#, "a number with a leading zero"),
            ("plus-sign", #"{"sentAtMs":+1}"#, "a number with a plus sign"),
            ("bare-fraction", #"{"sentAtMs":.5}"#, "a number starting with a point"),
            ("trailing-point", #"{"sentAtMs":1.}"#, "a number ending in a point"),
            ("missing-colon", #"{"deviceId" "a"}"#, "a member without a colon"),
            ("missing-comma", #"{"deviceId":"a" "sentAtMs":"1"}"#, "members without a comma"),
            ("unterminated-object", #"{"deviceId":"a""#, "an object that never closes"),
            ("unterminated-string", #"{"deviceId":"a}"#, "a string that never closes"),
            ("trailing-characters", #"{"deviceId":"a"} x"#, "characters after the value"),
            ("two-values", #"{} {}"#, "two values"),
            ("empty-input", "", "no value at all"),
            ("true-capitalised", #"{"liveFix":{"isMock":True}}"#, "True is not a JSON literal"),
        ]
        // C++ 3.21's JSON parser is lenient where upb follows RFC 8259; those cases are open.
        let cppAccepts: Set<String> = [
            "trailing-comma-object", "trailing-comma-array", "single-quotes", "unquoted-name", "trailing-point",
        ]
        for (name, input, what) in cases {
            if cppAccepts.contains(name) {
                builder.json(
                    "json.LocationBatch.syntax.\(name)", "LocationBatch", input, .acceptable,
                    flags: ["json-syntax", "peers-disagree"],
                    what + ": not JSON, and upb and LocationWire reject it, but C++ 3.21 accepts it.")
            } else {
                builder.json(
                    "json.LocationBatch.syntax.\(name)", "LocationBatch", input, .invalid(.jsonSyntax),
                    flags: ["json-syntax"], what + ".")
            }
        }
        let deep = #"{"fixes":"# + String(repeating: "[", count: 150) + String(repeating: "]", count: 150) + "}"
        builder.json(
            "json.LocationBatch.syntax.deep-nesting", "LocationBatch", deep, .acceptable,
            flags: ["json-syntax", "hostile", "depth", "peers-disagree"],
            "150 nested arrays where fixes belong: upb and LocationWire reject it (LocationWire's parser stops at 100 levels), C++ 3.21 accepts it."
        )
        builder.json(
            "json.LocationBatch.syntax.whitespace", "LocationBatch",
            " \t\n\r{ \"deviceId\" \n: \"a\" , \"fixes\" : [ { } ] } \n", .valid,
            flags: ["json-syntax"], "Space, tab, line feed and carriage return between tokens.")
    }

    /// Binary input whose JSON output must mean the expected JSON: the printing direction.
    static func printing(_ builder: inout VectorBuilder) {
        let fixes: [(String, [UInt8], String)] = [
            ("float-specials", [0xBD, 0x01] + WireBytes.fixed32(Float.nan.bitPattern), "a NaN prints as \"NaN\""),
            (
                "float-infinity", [0xBD, 0x01] + WireBytes.fixed32(Float.infinity.bitPattern),
                "infinity prints as \"Infinity\""
            ),
            (
                "float-million", [0xBD, 0x01] + WireBytes.fixed32(Float(1_000_000).bitPattern),
                "1000000 (C++ prints 1e+06)"
            ),
            ("float-subnormal", [0xBD, 0x01] + WireBytes.fixed32(1), "the smallest subnormal"),
            ("float-negative-zero", [0xBD, 0x01] + WireBytes.fixed32(0x8000_0000), "-0.0"),
            ("int64-negative", WireBytes.varintField(2, UInt64(bitPattern: -5)), "a negative int64 prints as a string"),
            ("uint64-max", WireBytes.varintField(1, .max), "the largest uint64 prints as a string"),
            ("enum-unknown", [0x68, 0x63], "an unnamed enum value prints as a number"),
            (
                "zero-with-presence", [0x1D, 0, 0, 0, 0, 0x40, 0x00],
                "latitude 0 and speed 0 are printed: they have presence"
            ),
        ]
        for (name, bytes, what) in fixes {
            builder.binary(
                "json.LocationFix.print.\(name)", "LocationFix", bytes, .valid, flags: ["field-coverage"],
                "Binary input: \(what).")
        }
        builder.binary(
            "json.LocationBatch.print.escapes", "LocationBatch",
            WireBytes.lengthDelimited(1, Array("<a>&\"\\\u{1}\u{7F}\u{2028}é😀".utf8)),
            .valid, flags: ["json-string"],
            "A string with characters printers escape differently; the meaning must match.")
        builder.binary(
            "json.FixColumn.print.bytes", "FixColumn", WireBytes.lengthDelimited(3, [0xFB, 0xFF, 0x00]), .valid,
            flags: ["json-bytes"],
            "Bytes print as standard base64 with padding: \"+/8A\".")
        builder.binary(
            "json.LocationFix.print.unknown-fields-dropped", "LocationFix",
            WireBytes.varintField(99, 1) + WireBytes.varintField(1, 3), .valid,
            flags: ["unknown-fields"], "Unknown fields are not part of the JSON output.")
    }
}
