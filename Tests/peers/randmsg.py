"""Random LocationWire messages built from the schema's descriptors with Python's official protobuf (upb).

Nothing here knows LocationWire's field names: every message type is filled generically from its descriptor, so
a field added to proto/ is covered without touching this file. Values are drawn from per-type pools of
"interesting" values (0, 1, -1, the type's extremes, random values; for floats NaN, +-Inf, -0.0, subnormals,
1e+06, 123456.7, ...; for strings non-ASCII, emoji, < > &, U+2028, controls) so that every printer/parser corner
is hit often, not only by chance.
"""

import math
import struct

from google.protobuf.descriptor import FieldDescriptor as FD

# Integer ranges of every integer field type: (min, max).
INT_RANGES = {
    FD.TYPE_INT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FD.TYPE_INT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FD.TYPE_UINT32: (0, 2**32 - 1),
    FD.TYPE_FIXED32: (0, 2**32 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1),
    FD.TYPE_FIXED64: (0, 2**64 - 1),
}


def f32(x):
    """x rounded to the nearest IEEE 754 binary32 value (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_from_bits(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# Float values of special interest. All are exactly representable as binary32 (or are NaN/Inf).
FLOAT_SPECIALS = [
    0.0, -0.0, 1.0, -1.0, 0.5, 0.1, -0.1, 1e6, 1e-6, 123456.7, 1013.25, 3.0e-5, 16777216.0, 16777217.0,
    math.nan, math.inf, -math.inf,
    f32_from_bits(0x00000001),  # smallest subnormal, 1.4e-45
    f32_from_bits(0x80000001),  # negative smallest subnormal
    f32_from_bits(0x007FFFFF),  # largest subnormal
    f32_from_bits(0x00800000),  # FLT_MIN, smallest normal
    f32_from_bits(0x7F7FFFFF),  # FLT_MAX
    f32_from_bits(0xFF7FFFFF),  # -FLT_MAX
    1e38, 1e-38, 9.999999e-5, 1e21, 1e-7, 100.0, 1e17, 0.3, 2.5e-3, 1.17549435e-38,
]
DOUBLE_SPECIALS = [
    0.0, -0.0, 1.0, -1.0, 0.1, 1e6, 123456.7, 1e21, 1e-7, math.nan, math.inf, -math.inf,
    5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993.0,
]

# Strings of special interest: empty, non-ASCII (2-, 3- and 4-byte UTF-8), emoji, characters JSON printers
# escape or not (< > & ' " \ / U+2028 U+2029 DEL, controls, NUL), long ones (length prefix of 2 bytes).
STRING_SPECIALS = [
    "", "a", "Zürich", "東京駅", "😀", "👩\u200d💻 emoji ZWJ", "<tag> & 'q' \"dq\" \\ /", "\u2028\u2029",
    "\x00", "\x01\x1f\x7f", "tab\tnl\nret\r", "\u00e9\u0301", "\uffff", "\U0010FFFF", "\ufeffBOM", "x" * 130,
    "🛰️" * 40, "\u0080\u07ff\u0800", "\x08\x0c",
]


def random_string(rng):
    if rng.random() < 0.6:
        return rng.choice(STRING_SPECIALS)
    alphabet = "abcXYZ019 -_.:/<>&\"'\\\u00e9\u4e2d\U0001F600\u2028\x00\x1b"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20)))


def random_bytes(rng):
    r = rng.random()
    if r < 0.15:
        return b""
    if r < 0.5:  # lengths 1, 2, 3 exercise every base64 padding form
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))
    if r < 0.6:
        return bytes([0xFF, 0xFE, 0x00, 0x80, 0xC3, 0x28])  # invalid UTF-8 is fine in bytes
    if r < 0.65:
        return bytes(rng.randrange(256) for _ in range(200))
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 24)))


def random_int(rng, field_type):
    lo, hi = INT_RANGES[field_type]
    r = rng.random()
    if r < 0.45:
        pool = [0, 1, lo, hi, hi - 1, lo + 1, 127, 128, 16383, 16384, 2**31 - 1, 2**32 - 1, 2**53 + 1]
        if lo < 0:
            pool += [-1, -2, -64, -65, -(2**31)]
        return max(lo, min(hi, rng.choice(pool)))
    if r < 0.7:  # a random value with a random number of significant bits (all varint lengths)
        bits = rng.randint(1, 64)
        v = rng.getrandbits(bits)
        if lo < 0 and rng.random() < 0.5:
            v = -v
        return max(lo, min(hi, v))
    return rng.randint(lo, hi)


def random_float(rng, double):
    r = rng.random()
    if r < 0.2:  # the values printers and parsers special-case
        return rng.choice([math.nan, math.nan, math.inf, -math.inf, -0.0, 0.0, 1e6, 123456.7,
                           5e-324 if double else f32_from_bits(1)])
    if r < 0.55:
        return rng.choice(DOUBLE_SPECIALS if double else FLOAT_SPECIALS)
    if r < 0.8:  # a random bit pattern that is not NaN (NaN payloads are tested at the wire level)
        if double:
            v = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        else:
            v = f32_from_bits(rng.getrandbits(32))
        return 0.25 if math.isnan(v) else v
    v = rng.uniform(-1e5, 1e5) * 10 ** rng.randint(-10, 10)
    return v if double else f32(v)


def random_enum(rng, enum_desc):
    r = rng.random()
    if r < 0.75:
        return rng.choice(enum_desc.values).number
    # Unknown numbers: proto3 enums are open, so any int32 is a valid value.
    return rng.choice([99, 1000, -1, -(2**31), 2**31 - 1, len(enum_desc.values), rng.randint(-(2**31), 2**31 - 1)])


def random_scalar(rng, fd):
    t = fd.type
    if t in INT_RANGES:
        return random_int(rng, t)
    if t == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FD.TYPE_FLOAT:
        return random_float(rng, double=False)
    if t == FD.TYPE_DOUBLE:
        return random_float(rng, double=True)
    if t == FD.TYPE_STRING:
        return random_string(rng)
    if t == FD.TYPE_BYTES:
        return random_bytes(rng)
    if t == FD.TYPE_ENUM:
        return random_enum(rng, fd.enum_type)
    raise ValueError("unsupported field type %d" % t)


def zero_of(fd):
    if fd.type == FD.TYPE_STRING:
        return ""
    if fd.type == FD.TYPE_BYTES:
        return b""
    if fd.type == FD.TYPE_BOOL:
        return False
    if fd.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
        return 0.0
    return 0


def is_repeated(fd):
    """fd.is_repeated where it exists (protobuf 7 has no FieldDescriptor.label), else fd.label."""
    r = getattr(fd, "is_repeated", None)
    return r if r is not None else fd.label == FD.LABEL_REPEATED


def has_explicit_presence(fd):
    """True for singular scalar fields with explicit presence: this schema spells them as one-field oneofs."""
    return fd.containing_oneof is not None


def fill_message(rng, msg, depth=0, max_depth=4, fill_prob=0.5):
    """Sets a random subset of msg's fields. Sub-messages are filled recursively up to max_depth; below that
    (and sometimes above) a sub-message is set but left empty, which must still be serialised (empty but
    present)."""
    for fd in msg.DESCRIPTOR.fields:
        if rng.random() >= fill_prob:
            continue
        if is_repeated(fd):
            n = rng.randint(0, 5)
            container = getattr(msg, fd.name)
            for _ in range(n):
                if fd.type == FD.TYPE_MESSAGE:
                    sub = container.add()
                    if depth < max_depth and rng.random() < 0.85:
                        fill_message(rng, sub, depth + 1, max_depth, fill_prob)
                else:
                    container.append(random_scalar(rng, fd))
        elif fd.type == FD.TYPE_MESSAGE:
            sub = getattr(msg, fd.name)
            sub.SetInParent()  # present even when nothing inside gets set
            if depth < max_depth and rng.random() < 0.8:
                fill_message(rng, sub, depth + 1, max_depth, fill_prob)
        else:
            if has_explicit_presence(fd) and rng.random() < 0.25:
                value = zero_of(fd)  # explicit presence: a present zero must be serialised
            else:
                value = random_scalar(rng, fd)
            setattr(msg, fd.name, value)


def random_message(rng, cls, max_depth=4):
    """A new random message of class cls. The fill probability varies so that nearly empty and nearly full
    messages both occur."""
    msg = cls()
    fill_message(rng, msg, 0, max_depth, fill_prob=rng.choice([0.15, 0.35, 0.5, 0.7, 0.9]))
    return msg


def has_nan(msg):
    """True when any float/double field anywhere in msg is NaN (protoc's text format loses NaN payloads)."""
    for fd, value in msg.ListFields():
        values = value if is_repeated(fd) else [value]
        for v in values:
            if fd.type == FD.TYPE_MESSAGE:
                if has_nan(v):
                    return True
            elif fd.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE) and math.isnan(v):
                return True
    return False
