"""Handcrafted binary and JSON edge inputs for crosscheck.py.

Binary cases are (name, message type, bytes); JSON cases are (name, message type, text). Nothing here states
what the right answer is: crosscheck.py asks upb (and protoc, the C++ decoder) and compares locwire with it.
"""

from google.protobuf.descriptor import FieldDescriptor as FD

from wire import (EGROUP, I32, I64, LEN, MAX_FIELD, SGROUP, VARINT, enc_varint, tag)

PKG = "locationwire.v1."


def V(num, value, pad=0, tag_pad=0):
    return tag(num, VARINT, tag_pad) + enc_varint(value, pad)


def L(num, payload, len_pad=0):
    return tag(num, LEN) + enc_varint(len(payload), len_pad) + payload


def G(num, content=b""):
    return tag(num, SGROUP) + content + tag(num, EGROUP)


def nested_groups(depth, num=201):
    return tag(num, SGROUP) * depth + tag(num, EGROUP) * depth


# Invalid UTF-8 sequences (each must make a proto3 string field fail to decode) and valid controls.
BAD_UTF8 = [
    (b"\xff", "byte FF"),
    (b"\xc3\x28", "bad continuation"),
    (b"\xc0\xaf", "overlong 2-byte"),
    (b"\xe0\x80\xaf", "overlong 3-byte"),
    (b"\xed\xa0\x80", "UTF-16 surrogate D800"),
    (b"\xf4\x90\x80\x80", "above U+10FFFF"),
    (b"ok\xe6\x97", "truncated 3-byte at end"),
    (b"\x80", "lone continuation"),
    (b"a\xf0\x9f\x98", "truncated 4-byte"),
    (b"\xf8\x88\x80\x80\x80", "5-byte form"),
]
GOOD_UTF8 = [
    (b"\xf0\x9f\x98\x80", "emoji U+1F600"),
    (b"\xef\xbf\xbf", "U+FFFF"),
    (b"\xf4\x8f\xbf\xbf", "U+10FFFF"),
    (b"\x00", "NUL"),
    (b"\xe2\x80\xa8", "U+2028"),
]


def binary_cases():
    """Handcrafted wire inputs around the decoder's limits."""
    LF, LB, POLY, COL, DS = PKG + "LocationFix", PKG + "LocationBatch", PKG + "Polygon", PKG + "FixColumn", \
        PKG + "DeviceStatus"
    c = []

    def add(name, typ, data):
        c.append((name, typ, data))

    # Field numbers and tags.
    add("field number 0, varint", LF, b"\x00\x01")
    add("field number 0, len", LF, b"\x02\x00")
    add("field number 0, padded tag", LF, b"\x80\x00\x01")
    add("field number 2^29-1 (max), varint", LF, V(MAX_FIELD, 1))
    add("field number 2^29-1 (max), group", LF, G(MAX_FIELD))
    add("field number 2^29 (5-byte tag over 32 bits)", LF, enc_varint((2**29) << 3) + b"\x01")
    add("tag over 32 bits whose low 32 bits are field 1", LF, enc_varint((1 << 3) | (1 << 32)) + b"\x01")
    add("tag padded to 5 bytes", LF, V(1, 7, tag_pad=5))
    add("tag padded to 6 bytes", LF, V(1, 7, tag_pad=6))
    add("tag padded to 10 bytes", LF, V(1, 7, tag_pad=10))
    add("tag padded to 11 bytes", LF, b"\x88" + b"\x80" * 9 + b"\x00\x07")
    add("wire type 6, known number", LF, b"\x0e\x01")
    add("wire type 7, known number", LF, b"\x0f\x01")
    add("wire type 6, unknown number", LF, enc_varint((201 << 3) | 6) + b"\x01")
    add("wire type 7, unknown number", LF, enc_varint((201 << 3) | 7) + b"\x01")
    add("tag truncated", LF, b"\x88")
    add("tag only (value missing)", LF, b"\x08")

    # Varint values.
    add("varint 10 bytes, 2^64-1", LF, V(1, 2**64 - 1))
    add("varint 10 bytes, unused high bits of byte 10 set", LF, b"\x08" + b"\xff" * 9 + b"\x7f")
    add("varint 10 bytes, zero padded", LF, V(1, 5, pad=10))
    add("varint 11 bytes", LF, b"\x08" + b"\xff" * 10 + b"\x01")
    add("varint 11 bytes, zero padded", LF, b"\x08" + b"\x85" + b"\x80" * 9 + b"\x00")
    add("varint truncated", LF, b"\x08\x80")
    add("bool 2", LF, V(21, 2))
    add("bool 2^32 (low 32 bits zero)", LF, V(21, 2**32))
    add("bool 2^64-1", LF, V(21, 2**64 - 1))
    add("bool 0 padded to 10 bytes", LF, V(21, 0, pad=10))
    add("optional bool false", DS, V(4, 0))
    add("enum 2^32+1 (high bits dropped)", LF, V(13, 2**32 + 1))
    add("enum -1 as 10 bytes", LF, V(13, 2**64 - 1))
    add("enum -1 as 5 bytes", LF, V(13, 0xFFFFFFFF))
    add("uint32 2^32 (implicit presence, becomes 0)", PKG + "Circle", V(3, 2**32))
    add("optional uint32 2^32 (explicit presence, becomes present 0)", LF, V(5, 2**32))
    add("sint32 2^64-1 (high bits dropped)", LF, V(6, 2**64 - 1))
    add("sint32 2^32 (becomes present 0)", LF, V(6, 2**32))
    add("implicit-presence zero on the wire", LF, V(1, 0) + V(2, 0, pad=3))
    add("explicit-presence zero sfixed32", LF, b"\x1d\x00\x00\x00\x00")
    add("float NaN payload 7fc00001", LF, tag(23, I32) + bytes.fromhex("0100c07f"))
    add("float signalling NaN 7f800001", LF, tag(23, I32) + bytes.fromhex("0100807f"))
    add("float negative NaN ffc00000", LF, tag(23, I32) + bytes.fromhex("0000c0ff"))
    add("float -0.0", LF, tag(23, I32) + bytes.fromhex("00000080"))
    add("fixed32 truncated", LF, tag(3, I32) + b"\x01\x02\x03")
    add("fixed64 truncated", LB, tag(2, I64) + b"\x01\x02\x03\x04\x05\x06\x07")
    add("empty input", LB, b"")

    # Lengths.
    add("length padded to 5 bytes", LB, L(1, b"a", len_pad=5))
    add("length padded to 6 bytes", LB, L(1, b"a", len_pad=6))
    add("length padded to 10 bytes", LB, L(1, b"a", len_pad=10))
    add("length 11 bytes", LB, b"\x0a\x81" + b"\x80" * 9 + b"\x00a")
    add("length past end by 1", LB, b"\x0a\x02a")
    add("length past end, string", LB, b"\x0a\x05ab")
    for where, num in (("string", 1), ("sub-message", 8), ("unknown len field", 201)):
        for label, n in (("2^31-1", 2**31 - 1), ("2^31 (2 GB)", 2**31), ("2^32-1", 2**32 - 1),
                         ("2^35-1 (5 bytes)", 2**35 - 1), ("2^63 (10 bytes)", 2**63), ("2^64-1", 2**64 - 1)):
            add("length %s claimed, %s" % (label, where), LB, tag(num, LEN) + enc_varint(n) + b"abc")
    add("length 2 GB claimed, packed field", COL, b"\x0a" + enc_varint(2**31) + b"\x01")
    add("sub-message length past end", LB, b"\x42\x03\x08\x01")

    # Packed fields.
    for n in (0, 1, 2, 3, 4, 5, 7, 8):
        add("packed sfixed32 payload of %d bytes" % n, POLY, L(1, bytes(range(1, n + 1))))
    add("packed varint element runs past the chunk", COL, L(1, b"\x80") + V(2, 1))
    add("packed varint element truncated at end", COL, L(1, b"\x02\x80"))
    add("packed varint element of 10 bytes", COL, L(1, enc_varint(3, 10)))
    add("packed varint element of 11 bytes", COL, L(1, b"\x83" + b"\x80" * 9 + b"\x00"))
    add("packed uint32 element 2^32+5 (high bits dropped)", COL, L(2, enc_varint(2**32 + 5)))
    add("repeated sint64 unpacked", COL, V(1, 1) + V(1, 2) + L(1, b"\x03\x04") + V(1, 5))
    add("repeated sfixed32 unpacked", POLY, tag(1, I32) + b"\x01\x00\x00\x00" + L(1, b"") +
        tag(1, I32) + b"\xff\xff\xff\xff")

    # Groups.
    add("end group at top level, known number", LF, b"\x0c")
    add("end group at top level, unknown number", LF, tag(201, EGROUP))
    add("end group inside a sub-message", LB, L(8, tag(201, EGROUP)))
    add("group opened in a sub-message, closed outside", LB, L(8, tag(201, SGROUP)) + tag(201, EGROUP))
    add("unterminated group", LF, tag(201, SGROUP) + V(1, 1))
    add("unterminated nested group", LF, tag(201, SGROUP) + tag(202, SGROUP) + tag(202, EGROUP))
    add("mismatched end group", LF, tag(201, SGROUP) + tag(202, EGROUP))
    add("group with padded end tag", LF, tag(201, SGROUP) + V(1, 1) + tag(201, EGROUP, 5))
    add("group on a known scalar field number (unknown)", LF, G(1, V(1, 5)))
    add("group on a known message field number (unknown)", LB, G(8, V(1, 5)))
    add("empty group", LF, G(201))
    add("group containing invalid field number 0", LF, G(201, b"\x00\x01"))
    add("group containing wire type 7", LF, G(201, b"\x0f"))
    add("group containing a truncated varint", LF, tag(201, SGROUP) + b"\x08\x80")
    add("group containing an invalid UTF-8 len", LF, G(201, L(1, b"\xff")))
    add("groups nested, inner end missing", LF, tag(201, SGROUP) + tag(201, SGROUP) + tag(201, EGROUP))
    for depth in (98, 99, 100, 101, 102, 150):
        add("unknown groups nested %d deep at top level" % depth, LF, nested_groups(depth))
    for depth in (98, 99, 100, 101):
        add("unknown groups nested %d deep inside LocationBatch.live_fix" % depth, LB, L(8, nested_groups(depth)))
    for depth in (96, 97, 98, 99):
        inner = L(8, nested_groups(depth))  # FenceEvent.trigger_fix
        add("unknown groups nested %d deep in fence_events.trigger_fix" % depth, LB, L(10, inner))
    add("groups nested 100000 deep (stack safety)", LF, nested_groups(100000))
    add("sub-messages and groups: 200000 start tags only", LF, tag(201, SGROUP) * 200000)

    # Strings and bytes.
    add("invalid UTF-8 in an unknown len field", LF, L(201, b"\xff\xfe"))
    add("invalid UTF-8 in a bytes field", COL, L(3, b"\xff\xc3\x28"))
    add("invalid UTF-8 in an overwritten string", LB, L(1, b"\xff") + L(1, b"ok"))
    add("invalid UTF-8 after a valid occurrence", LB, L(1, b"ok") + L(1, b"\xff"))
    add("invalid UTF-8 in a string sent with wire type varint (unknown)", LB, V(1, 0xFF))
    add("empty sub-message element", LB, L(7, b""))
    add("sub-message as an empty group on its number", LB, G(7))
    return c


def string_paths(desc, max_depth=4):
    """Every path (list of field descriptors) from desc to a string field, through sub-messages."""
    out = []
    for fd in desc.fields:
        if fd.type == FD.TYPE_STRING:
            out.append([fd])
        elif fd.type == FD.TYPE_MESSAGE and max_depth > 0:
            for rest in string_paths(fd.message_type, max_depth - 1):
                out.append([fd] + rest)
    return out


def utf8_cases(type_names, pool):
    """A string with invalid UTF-8 at every string field of every type, at every nesting level (the bad
    sequences rotate over the paths), and for each path one valid non-ASCII control that must decode."""
    cases = []
    k = 0
    for name in type_names:
        for path in string_paths(pool.FindMessageTypeByName(name)):
            label = ".".join(fd.name for fd in path)
            for payloads, verdict in ((BAD_UTF8, "invalid"), (GOOD_UTF8, "valid")):
                raw, what = payloads[k % len(payloads)]
                data = L(path[-1].number, raw)
                for fd in reversed(path[:-1]):
                    data = L(fd.number, data)
                cases.append(("%s UTF-8 (%s) in %s" % (verdict, what, label), name, data))
            k += 1
    return cases


# ----------------------------------------------------------------------------------------------------------------
# JSON edge inputs: (name, type, text).


def json_cases():
    LF, LB, COL, POLY, DS, AR = (PKG + n for n in
                                 ("LocationFix", "LocationBatch", "FixColumn", "Polygon", "DeviceStatus",
                                  "ArmedRegions"))
    return [
        # Integers.
        ("uint64 as string", LF, '{"sequence":"5"}'),
        ("uint32 as string", LF, '{"horizontalAccuracyCm":"7"}'),
        ("uint32 exponent number 1e3", LF, '{"horizontalAccuracyCm":1e3}'),
        ("uint32 exponent string \"1e3\"", LF, '{"horizontalAccuracyCm":"1e3"}'),
        ("uint64 exponent number 1e3", LF, '{"sequence":1e3}'),
        ("uint64 exponent string \"1e3\"", LF, '{"sequence":"1e3"}'),
        ("uint32 1.0", LF, '{"horizontalAccuracyCm":1.0}'),
        ("uint64 \"1.0\"", LF, '{"sequence":"1.0"}'),
        ("uint32 1.5", LF, '{"horizontalAccuracyCm":1.5}'),
        ("uint32 1.5e1", LF, '{"horizontalAccuracyCm":1.5e1}'),
        ("uint32 -0", LF, '{"horizontalAccuracyCm":-0}'),
        ("uint32 -1", LF, '{"horizontalAccuracyCm":-1}'),
        ("uint32 \"-1\" string", LF, '{"horizontalAccuracyCm":"-1"}'),
        ("uint32 repeated [-1]", COL, '{"runLengths":[-1]}'),
        ("uint64 -1 as number", LF, '{"sequence":-1}'),
        ("uint64 \"-1\" as string", LF, '{"sequence":"-1"}'),
        ("uint64 -0 as number", LF, '{"sequence":-0}'),
        ("uint64 \"-0\" as string", LF, '{"sequence":"-0"}'),
        ("int64 \"-0\" as string", LF, '{"timeMs":"-0"}'),
        ("uint32 4294967295", LF, '{"horizontalAccuracyCm":4294967295}'),
        ("uint32 4294967296", LF, '{"horizontalAccuracyCm":4294967296}'),
        ("sint32 2147483648", LF, '{"altitudeCm":2147483648}'),
        ("sint32 -2147483648", LF, '{"altitudeCm":-2147483648}'),
        ("sint32 -2147483649", LF, '{"altitudeCm":-2147483649}'),
        ("uint64 max as string", LF, '{"sequence":"18446744073709551615"}'),
        ("uint64 max as number", LF, '{"sequence":18446744073709551615}'),
        ("uint64 2^64 as string", LF, '{"sequence":"18446744073709551616"}'),
        ("uint64 2^53+1 as number", LF, '{"sequence":9007199254740993}'),
        ("int64 max as string", LF, '{"timeMs":"9223372036854775807"}'),
        ("int64 2^63 as string", LF, '{"timeMs":"9223372036854775808"}'),
        ("int64 min as string", LF, '{"timeMs":"-9223372036854775808"}'),
        ("int64 min-1 as string", LF, '{"timeMs":"-9223372036854775809"}'),
        ("int64 1e18 as number", LF, '{"timeMs":1e18}'),
        ("int64 string with leading space", LF, '{"timeMs":" 1"}'),
        ("int64 string with plus sign", LF, '{"timeMs":"+1"}'),
        ("int64 string hex", LF, '{"timeMs":"0x10"}'),
        ("int64 empty string", LF, '{"timeMs":""}'),
        ("int number with leading zero", LF, '{"sequence":01}'),
        ("int number with plus sign", LF, '{"sequence":+1}'),
        ("int as boolean", LF, '{"sequence":true}'),
        ("sfixed32 \"-0\"", LF, '{"latitudeE7":"-0"}'),
        ("int 1e-2 (fraction)", LF, '{"sequence":1e-2}'),
        ("int 100e-2 (integral)", LF, '{"sequence":100e-2}'),
        ("int \"Infinity\"", LF, '{"sequence":"Infinity"}'),
        # Floats.
        ("float max 3.4028235e38", LF, '{"pressureHpa":3.4028235e38}'),
        ("float 3.5e38 (beyond range)", LF, '{"pressureHpa":3.5e38}'),
        ("float \"3.5e38\" (beyond range, string)", LF, '{"pressureHpa":"3.5e38"}'),
        ("float -3.5e38", LF, '{"pressureHpa":-3.5e38}'),
        ("float 1e400", LF, '{"pressureHpa":1e400}'),
        ("float \"1e400\" string", LF, '{"pressureHpa":"1e400"}'),
        ("float -1e400", LF, '{"pressureHpa":-1e400}'),
        ("float max as string \"3.4028235e38\"", LF, '{"pressureHpa":"3.4028235e38"}'),
        ("float max 9 digits 3.40282347e+38", LF, '{"pressureHpa":3.40282347e+38}'),
        ("float -max 9 digits -3.40282347e+38", LF, '{"pressureHpa":-3.40282347e+38}'),
        ("float 1e-50 (underflow)", LF, '{"pressureHpa":1e-50}'),
        ("float 3.4028236e38 (rounds to max)", LF, '{"pressureHpa":3.4028236e38}'),
        ("float \"NaN\"", LF, '{"pressureHpa":"NaN"}'),
        ("float \"Infinity\"", LF, '{"pressureHpa":"Infinity"}'),
        ("float \"-Infinity\"", LF, '{"pressureHpa":"-Infinity"}'),
        ("float \"nan\" lowercase", LF, '{"pressureHpa":"nan"}'),
        ("float \"inf\"", LF, '{"pressureHpa":"inf"}'),
        ("float bare NaN literal", LF, '{"pressureHpa":NaN}'),
        ("float bare Infinity literal", LF, '{"pressureHpa":Infinity}'),
        ("float \"1.5\" string", LF, '{"pressureHpa":"1.5"}'),
        ("float \"1e3\" string", LF, '{"pressureHpa":"1e3"}'),
        ("float \" 1.5\" string with space", LF, '{"pressureHpa":" 1.5"}'),
        ("float -0", LF, '{"pressureHpa":-0}'),
        ("float -0.0", LF, '{"pressureHpa":-0.0}'),
        ("float \"-0\" string", LF, '{"pressureHpa":"-0"}'),
        ("float -0e0", LF, '{"pressureHpa":-0e0}'),
        ("float .5", LF, '{"pressureHpa":.5}'),
        ("float 1.", LF, '{"pressureHpa":1.}'),
        ("float as boolean", LF, '{"pressureHpa":false}'),
        # null.
        ("null scalar", LF, '{"sequence":null}'),
        ("null explicit-presence field", LF, '{"latitudeE7":null}'),
        ("null enum", LF, '{"reason":null}'),
        ("null repeated", LB, '{"fixes":null}'),
        ("null sub-message", LB, '{"liveFix":null}'),
        ("null inside message array", LB, '{"fixes":[null]}'),
        ("null inside string array", AR, '{"regionIds":["a",null]}'),
        ("null inside int array", COL, '{"deltas":[1,null]}'),
        # Duplicates.
        ("duplicate key", LF, '{"sequence":1,"sequence":2}'),
        ("duplicate: json name and proto name", LF, '{"timeMs":"1","time_ms":"2"}'),
        ("duplicate: proto name and json name, explicit presence", LF, '{"latitude_e7":1,"latitudeE7":2}'),
        ("duplicate: null then value", LF, '{"timeMs":null,"time_ms":"2"}'),
        ("duplicate repeated under both names", AR, '{"regionIds":["a"],"region_ids":["b"]}'),
        ("duplicate sub-message under both names", LB, '{"liveFix":{},"live_fix":{"sequence":"1"}}'),
        ("proto name only", LF, '{"time_ms":"1","is_mock":true}'),
        # Unknown names.
        ("unknown field name", LF, '{"foo":1}'),
        ("unknown field name with null", LF, '{"foo":null}'),
        ("@type member", LF, '{"@type":"x"}'),
        ("field name with wrong case", LF, '{"TimeMs":"1"}'),
        # Enums.
        ("enum by name", LF, '{"reason":"FIX_REASON_UNSPECIFIED"}'),
        ("unknown enum name", LF, '{"reason":"FIX_REASON_BOGUS"}'),
        ("enum by number", LF, '{"reason":1}'),
        ("enum unknown number", LF, '{"reason":99}'),
        ("enum negative number", LF, '{"reason":-1}'),
        ("enum number as string", LF, '{"reason":"1"}'),
        ("enum unknown number as string \"99\"", LF, '{"reason":"99"}'),
        ("enum number 1.0", LF, '{"reason":1.0}'),
        ("enum number 2^31", LF, '{"reason":2147483648}'),
        ("enum lowercase name", LF, '{"reason":"fix_reason_unspecified"}'),
        ("enum as boolean", LF, '{"reason":true}'),
        # Booleans.
        ("bool true", LF, '{"isMock":true}'),
        ("bool quoted \"true\"", LF, '{"isMock":"true"}'),
        ("bool as 1", LF, '{"isMock":1}'),
        ("optional bool false", DS, '{"lowPowerMode":false}'),
        # Bytes.
        ("base64 standard padded", COL, '{"presence":"AQI="}'),
        ("base64 standard unpadded", COL, '{"presence":"AQI"}'),
        ("base64 url-safe padded", COL, '{"presence":"-_8="}'),
        ("base64 url-safe unpadded", COL, '{"presence":"-_8"}'),
        ("base64 mixed alphabets", COL, '{"presence":"+_8="}'),
        ("base64 invalid length 1", COL, '{"presence":"A"}'),
        ("base64 invalid character", COL, '{"presence":"!!!!"}'),
        ("base64 too much padding", COL, '{"presence":"AQ==="}'),
        ("base64 padding in the middle", COL, '{"presence":"AQ==AQ=="}'),
        ("base64 with whitespace", COL, '{"presence":"AQ I="}'),
        ("base64 non-zero trailing bits", COL, '{"presence":"AR=="}'),
        ("base64 empty", COL, '{"presence":""}'),
        # Strings.
        ("surrogate pair escape", LB, '{"deviceId":"\\ud83d\\ude00"}'),
        ("unpaired high surrogate escape", LB, '{"deviceId":"\\ud800"}'),
        ("unpaired low surrogate escape", LB, '{"deviceId":"\\udc00"}'),
        ("reversed surrogate pair", LB, '{"deviceId":"\\ude00\\ud83d"}'),
        ("high surrogate followed by letter", LB, '{"deviceId":"\\ud800x"}'),
        ("escaped NUL", LB, '{"deviceId":"\\u0000"}'),
        ("raw control character in string", LB, '{"deviceId":"a\tb"}'),
        ("raw DEL and U+2028 in string", LB, '{"deviceId":"a\x7f\u2028b"}'),
        ("invalid escape \\x", LB, '{"deviceId":"\\x41"}'),
        ("escaped slash", LB, '{"deviceId":"a\\/b"}'),
        ("string for a message field", LB, '{"liveFix":"x"}'),
        ("number for a string field", LB, '{"deviceId":5}'),
        # JSON syntax.
        ("trailing comma in object", LF, '{"sequence":1,}'),
        ("trailing comma in array", COL, '{"deltas":[1,2,]}'),
        ("block comment", LF, '{"sequence":1 /* c */}'),
        ("line comment", LF, '{"sequence":1} // c'),
        ("single-quoted string", LF, "{'sequence':1}"),
        ("unquoted name", LF, '{sequence:1}'),
        ("top-level null", LF, 'null'),
        ("top-level array", LF, '[]'),
        ("top-level string", LF, '"x"'),
        ("top-level number", LF, '1'),
        ("empty input", LF, ''),
        ("whitespace only", LF, ' \n'),
        ("empty object", LF, '{}'),
        ("object with surrounding whitespace", LF, ' \t\r\n{ "sequence" : 1 } \n'),
        ("trailing garbage", LF, '{}x'),
        ("two top-level values", LF, '{}{}'),
        ("byte order mark", LF, '\ufeff{}'),
        ("nested arrays in repeated", COL, '{"deltas":[[1]]}'),
        ("object for repeated", COL, '{"deltas":{}}'),
        ("scalar for repeated", COL, '{"deltas":1}'),
        ("deep nesting 200 arrays", COL, '{"deltas":' + "[" * 200 + "]" * 200 + '}'),
        ("int64 repeated as strings", COL, '{"deltas":["-1","9223372036854775807"]}'),
        ("sfixed32 repeated mixed", POLY, '{"latitudesE7":[1,"-2",3.0]}'),
    ]
