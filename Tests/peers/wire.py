"""A small protobuf wire-format walker and encoder, and the schema-driven wire variants built with it.

The walker turns bytes into a list of Rec (field number, wire type, value) without a schema; groups are parsed
into nested lists. The encoder writes Recs back, optionally with overlong (padded) tags, lengths and varint
values. `vary_message` uses a message descriptor to re-encode valid bytes in other ways a conforming decoder
must accept: unpacked or chunked packed fields, duplicated singular fields, split sub-messages, reordered and
interleaved fields, padded varints, 32-bit varints carrying high bits, NaN payloads, and unknown fields of every
wire type (including nested groups and known field numbers with a foreign wire type).
"""

import struct

from google.protobuf.descriptor import FieldDescriptor as FD

import randmsg
from randmsg import is_repeated

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5
MAX_FIELD = 2**29 - 1
U64 = 2**64 - 1

# upb's limits, measured: tags and lengths at most 5 bytes, varint values at most 10 bytes.
MAX_TAG_BYTES = 5
MAX_LEN_BYTES = 5
MAX_VARINT_BYTES = 10


class WireError(ValueError):
    pass


class Rec:
    """One field record. val is an int (VARINT, and I32/I64 as unsigned bit patterns), bytes (LEN) or a list of
    Rec (SGROUP; the matching end-group tag is implied). The *_pad members ask the encoder for overlong
    varints: the total number of bytes to use (0 = minimal)."""

    __slots__ = ("num", "wt", "val", "tag_pad", "len_pad", "val_pad", "end_pad", "raw")

    def __init__(self, num, wt, val):
        self.num, self.wt, self.val = num, wt, val
        self.tag_pad = self.len_pad = self.val_pad = self.end_pad = 0
        self.raw = None  # the record's exact bytes, when it came from parse()

    def __repr__(self):
        return "Rec(%d, %d, %r)" % (self.num, self.wt, self.val)


# ----------------------------------------------------------------------------------------------------------------
# Varints and records


def varint_len(v):
    n = 1
    while v >= 0x80:
        v >>= 7
        n += 1
    return n


def enc_varint(v, pad=0):
    """v (negative values as 64-bit two's complement) as a varint of max(minimal, pad) bytes."""
    v &= U64
    n = max(varint_len(v), pad)
    out = bytearray()
    for i in range(n):
        b = (v >> (7 * i)) & 0x7F
        out.append(b | (0x80 if i < n - 1 else 0))
    return bytes(out)


def dec_varint(buf, pos, limit=None):
    """(value, new position) of the varint at pos; at most 10 bytes; the value is truncated to 64 bits, as every
    Google decoder does with the unused high bits of a 10th byte."""
    limit = len(buf) if limit is None else limit
    v = shift = 0
    for i in range(MAX_VARINT_BYTES):
        if pos >= limit:
            raise WireError("truncated varint")
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return v & U64, pos
    raise WireError("varint longer than 10 bytes")


def tag(num, wt, pad=0):
    return enc_varint((num << 3) | wt, pad)


def parse(buf, pos=0, limit=None, end_group=None, depth=0):
    """Records of buf[pos:limit]. Raises WireError on anything malformed. With end_group set, parses a group's
    content and returns (records, position after the end-group tag)."""
    limit = len(buf) if limit is None else limit
    recs = []
    while pos < limit:
        start = pos
        key, pos = dec_varint(buf, pos, limit)
        num, wt = key >> 3, key & 7
        if num == 0 or num > MAX_FIELD:
            raise WireError("bad field number %d" % num)
        if wt == VARINT:
            v, pos = dec_varint(buf, pos, limit)
        elif wt == I64:
            if pos + 8 > limit:
                raise WireError("truncated fixed64")
            v = int.from_bytes(buf[pos:pos + 8], "little")
            pos += 8
        elif wt == I32:
            if pos + 4 > limit:
                raise WireError("truncated fixed32")
            v = int.from_bytes(buf[pos:pos + 4], "little")
            pos += 4
        elif wt == LEN:
            n, pos = dec_varint(buf, pos, limit)
            if n > limit - pos:
                raise WireError("length past end")
            v = bytes(buf[pos:pos + n])
            pos += n
        elif wt == SGROUP:
            if depth >= 100:
                raise WireError("groups nested too deep")
            v, pos = parse(buf, pos, limit, end_group=num, depth=depth + 1)
        elif wt == EGROUP:
            if end_group != num:
                raise WireError("unmatched end group")
            return recs, pos
        else:
            raise WireError("wire type %d" % wt)
        rec = Rec(num, wt, v)
        rec.raw = bytes(buf[start:pos])
        recs.append(rec)
    if end_group is not None:
        raise WireError("unterminated group")
    return recs


def encode(recs):
    out = bytearray()
    for r in recs:
        out += tag(r.num, r.wt, r.tag_pad)
        if r.wt == VARINT:
            out += enc_varint(r.val, r.val_pad)
        elif r.wt == I64:
            out += (r.val & U64).to_bytes(8, "little")
        elif r.wt == I32:
            out += (r.val & 0xFFFFFFFF).to_bytes(4, "little")
        elif r.wt == LEN:
            out += enc_varint(len(r.val), r.len_pad)
            out += r.val
        elif r.wt == SGROUP:
            out += encode(r.val)
            out += tag(r.num, EGROUP, r.end_pad)
        else:
            raise ValueError(r.wt)
    return bytes(out)


# ----------------------------------------------------------------------------------------------------------------
# Schema knowledge

VARINT_TYPES = {FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_UINT32, FD.TYPE_UINT64, FD.TYPE_SINT32, FD.TYPE_SINT64,
                FD.TYPE_BOOL, FD.TYPE_ENUM}
I32_TYPES = {FD.TYPE_FIXED32, FD.TYPE_SFIXED32, FD.TYPE_FLOAT}
I64_TYPES = {FD.TYPE_FIXED64, FD.TYPE_SFIXED64, FD.TYPE_DOUBLE}
# Varint fields whose value is 32 bits wide: a decoder keeps only the low 32 bits of the varint.
VARINT32_TYPES = {FD.TYPE_INT32, FD.TYPE_UINT32, FD.TYPE_SINT32, FD.TYPE_ENUM}


def expected_wt(fd):
    if fd.type in VARINT_TYPES:
        return VARINT
    if fd.type in I32_TYPES:
        return I32
    if fd.type in I64_TYPES:
        return I64
    return LEN


def packable(fd):
    return is_repeated(fd) and fd.type not in (FD.TYPE_STRING, FD.TYPE_BYTES, FD.TYPE_MESSAGE)


def is_known(desc, rec):
    """True when rec is a field of desc sent with a wire type the field accepts (else it is an unknown field)."""
    fd = desc.fields_by_number.get(rec.num)
    if fd is None:
        return False
    return rec.wt == expected_wt(fd) or (rec.wt == LEN and packable(fd))


def decode_packed(fd, payload):
    """Element values (as raw unsigned wire values) of a packed field's payload."""
    wt = expected_wt(fd)
    out, pos = [], 0
    while pos < len(payload):
        if wt == VARINT:
            v, pos = dec_varint(payload, pos)
        else:
            size = 4 if wt == I32 else 8
            if pos + size > len(payload):
                raise WireError("packed fixed field with a length that is not a multiple of %d" % size)
            v = int.from_bytes(payload[pos:pos + size], "little")
            pos += size
        out.append(v)
    return out


def encode_packed(fd, values, rng=None, pad_prob=0.0):
    wt = expected_wt(fd)
    out = bytearray()
    for v in values:
        if wt == VARINT:
            pad = rng.randint(varint_len(v), MAX_VARINT_BYTES) if rng and rng.random() < pad_prob else 0
            out += enc_varint(v, pad)
        else:
            out += v.to_bytes(4 if wt == I32 else 8, "little")
    return bytes(out)


def zigzag(v):
    return ((v << 1) ^ (v >> 63)) & U64


def raw_value(fd, value):
    """The unsigned wire value of a Python field value."""
    t = fd.type
    if t in (FD.TYPE_SINT32, FD.TYPE_SINT64):
        return zigzag(value)
    if t == FD.TYPE_BOOL:
        return int(value)
    if t == FD.TYPE_FLOAT:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if t == FD.TYPE_DOUBLE:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if t in (FD.TYPE_FIXED32, FD.TYPE_SFIXED32):
        return value & 0xFFFFFFFF
    return value & U64


NAN_PATTERNS32 = [0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC12345, 0xFFFFFFFF, 0x7FBFFFFF]
NAN_PATTERNS64 = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF8DEADBEEF0001]


# ----------------------------------------------------------------------------------------------------------------
# Unknown fields


def unknown_number(rng, desc):
    """A field number desc does not define: small ones, the private range 50000-59999, protobuf's own reserved
    range 19000-19999, the largest (2^29 - 1)."""
    r = rng.random()
    if r < 0.35:
        while True:
            n = rng.randint(1, 300)
            if n not in desc.fields_by_number:
                return n
    if r < 0.6:
        return rng.randint(50000, 59999)
    if r < 0.7:
        return MAX_FIELD
    if r < 0.78:
        return rng.randint(19000, 19999)
    if r < 0.88:  # where the tag's varint grows a byte
        boundaries = [n for n in (15, 16, 2047, 2048, 262143, 262144, 2**25 - 1, 2**25, 2**28)
                      if n not in desc.fields_by_number]
        return rng.choice(boundaries)
    while True:
        n = rng.randint(1, MAX_FIELD)
        if n not in desc.fields_by_number:
            return n


def random_unknown_value(rng, wt, depth):
    if wt == VARINT:
        return rng.choice([0, 1, U64, 2**63, 2**32, 300, rng.getrandbits(rng.randint(1, 64))])
    if wt == I64:
        return rng.getrandbits(64)
    if wt == I32:
        return rng.getrandbits(32)
    if wt == LEN:
        return rng.choice([b"", b"\xff\xfe invalid UTF-8 is fine here", b"\x08\x01",
                           bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))])
    # A group: a few records of any kind, possibly nested groups (numbers inside are arbitrary).
    content = []
    for _ in range(rng.randint(0, 3)):
        inner_wt = rng.choice([VARINT, I64, LEN, I32] + ([SGROUP] if depth < 3 else []))
        content.append(Rec(rng.randint(1, MAX_FIELD) if rng.random() < 0.3 else rng.randint(1, 40), inner_wt,
                           random_unknown_value(rng, inner_wt, depth + 1)))
    return content


def random_unknown(rng, desc):
    wt = rng.choice([VARINT, I64, LEN, I32, SGROUP])
    return Rec(unknown_number(rng, desc), wt, random_unknown_value(rng, wt, 0))


def foreign_wire_type_record(rng, desc):
    """A known field number sent with a wire type the field does not accept: decoders keep it as unknown."""
    fd = rng.choice(desc.fields)
    allowed = {expected_wt(fd)} | ({LEN} if packable(fd) else set())
    wt = rng.choice([w for w in (VARINT, I64, LEN, I32, SGROUP) if w not in allowed])
    return Rec(fd.number, wt, random_unknown_value(rng, wt, 0))


# ----------------------------------------------------------------------------------------------------------------
# Variants


class VaryOptions:
    """Probabilities of each transformation; all per record or per message level."""

    def __init__(self, **kw):
        self.unpack = 0.3          # write a packed field as one record per element
        self.chunk = 0.3           # split a packed field into several packed records (some may be empty)
        self.dup_scalar = 0.25     # add another record of a singular scalar/string field before or after it
        self.dup_message = 0.2     # add another record of a singular sub-message field before it (merge)
        self.split_message = 0.2   # split a singular sub-message's content into two records (merge)
        self.widen32 = 0.2         # give a 32-bit varint value high bits the decoder must drop
        self.nan_payload = 0.3     # replace a float's bits with a NaN carrying a payload
        self.unknowns = 0.5        # add unknown fields to a message level
        self.foreign = 0.25        # add a known field number with a foreign wire type
        self.pad = 0.25            # overlong tag / length / value varints
        self.reorder = 0.6         # reorder this level's records
        self.__dict__.update(kw)


def _pad_record(rng, r, opts):
    if rng.random() < opts.pad:
        r.tag_pad = rng.randint(varint_len((r.num << 3) | r.wt), MAX_TAG_BYTES)
    if r.wt == VARINT and rng.random() < opts.pad:
        r.val_pad = rng.randint(varint_len(r.val), MAX_VARINT_BYTES)
    if r.wt == LEN and rng.random() < opts.pad:
        r.len_pad = rng.randint(varint_len(len(r.val)), MAX_LEN_BYTES)
    if r.wt == SGROUP:
        if rng.random() < opts.pad:
            r.end_pad = rng.randint(varint_len((r.num << 3) | EGROUP), MAX_TAG_BYTES)
        for inner in r.val:
            _pad_record(rng, inner, opts)


def _reorder(rng, recs):
    """Reverse or interleave the records, keeping the order of records with the same field number (so repeated
    elements and last-wins keep their meaning); rarely a full shuffle."""
    mode = rng.choice(["reverse", "interleave", "interleave", "shuffle"])
    if mode == "shuffle":
        recs = recs[:]
        rng.shuffle(recs)
        return recs
    queues = {}
    order = []
    for r in recs:
        if r.num not in queues:
            queues[r.num] = []
            order.append(r.num)
        queues[r.num].append(r)
    if mode == "reverse":
        return [r for num in reversed(order) for r in queues[num]]
    out = []
    pending = [num for num in order]
    while pending:
        num = rng.choice(pending)
        out.append(queues[num].pop(0))
        if not queues[num]:
            pending.remove(num)
    return out


def vary_records(rng, recs, desc, opts, message_classes, depth=0):
    """A varied copy of the records of one message of type desc."""
    out = []
    for r in recs:
        fd = desc.fields_by_number.get(r.num)
        if fd is None or not is_known(desc, r):
            out.append(r)
            continue
        if fd.type == FD.TYPE_MESSAGE:
            sub = parse(r.val)
            singular = not is_repeated(fd)
            if singular and rng.random() < opts.dup_message:
                # An earlier occurrence with other content: the decoder must merge the two.
                extra = randmsg.random_message(rng, message_classes[fd.message_type.full_name], max_depth=1)
                out.append(Rec(r.num, LEN, vary_bytes(rng, extra.SerializeToString(), fd.message_type, opts,
                                                      message_classes, depth + 1)))
            if singular and len(sub) > 1 and rng.random() < opts.split_message:
                k = rng.randint(0, len(sub))
                parts = [sub[:k], sub[k:]]
            else:
                parts = [sub]
            for part in parts:
                varied = vary_records(rng, part, fd.message_type, opts, message_classes, depth + 1)
                out.append(Rec(r.num, LEN, encode(varied)))
        elif packable(fd) and r.wt == LEN:
            values = decode_packed(fd, r.val)
            x = rng.random()
            if x < opts.unpack:
                for v in values:
                    out.append(Rec(r.num, expected_wt(fd), v))
            elif x < opts.unpack + opts.chunk:
                cuts = sorted(rng.randint(0, len(values)) for _ in range(rng.randint(1, 3)))
                bounds = [0] + cuts + [len(values)]
                for a, b in zip(bounds, bounds[1:]):
                    out.append(Rec(r.num, LEN, encode_packed(fd, values[a:b], rng, opts.pad)))
            else:
                out.append(Rec(r.num, LEN, encode_packed(fd, values, rng, opts.pad)))
        else:
            # Singular scalar, string or bytes field (or a repeated string/bytes element).
            rec = Rec(r.num, r.wt, r.val)
            if r.wt == VARINT and fd.type in VARINT32_TYPES and rng.random() < opts.widen32:
                rec.val = (r.val & 0xFFFFFFFF) | (rng.randint(1, 2**32 - 1) << 32)
            if r.wt == VARINT and fd.type == FD.TYPE_BOOL and r.val and rng.random() < opts.widen32:
                rec.val = rng.choice([2, 255, 2**32, 2**63, U64])
            if fd.type == FD.TYPE_FLOAT and rng.random() < opts.nan_payload:
                rec.val = rng.choice(NAN_PATTERNS32)
            if fd.type == FD.TYPE_DOUBLE and rng.random() < opts.nan_payload:
                rec.val = rng.choice(NAN_PATTERNS64)
            if not is_repeated(fd) and rng.random() < opts.dup_scalar:
                value = randmsg.random_scalar(rng, fd)
                other = Rec(r.num, r.wt, raw_value(fd, value) if r.wt != LEN else
                            (value.encode("utf-8") if isinstance(value, str) else value))
                if rng.random() < 0.3 and r.wt == VARINT and fd.type in VARINT32_TYPES:
                    other.val = rng.choice([2**32, 2**63, U64, 2**32 + 1])  # low 32 bits 0 or 1
                # Before: the original wins. After: the new value wins (possibly a zero, which must vanish
                # from the canonical form of an implicit-presence field).
                out.extend([other, rec] if rng.random() < 0.6 else [rec, other])
            else:
                out.append(rec)
    # Fields of a message type that were absent may be sent anyway with zero/default values.
    if rng.random() < 0.2 and desc.fields:
        fd = rng.choice(desc.fields)
        if fd.type != FD.TYPE_MESSAGE:
            zero = randmsg.zero_of(fd)
            out.append(Rec(fd.number, expected_wt(fd), raw_value(fd, zero) if expected_wt(fd) != LEN else
                           (zero.encode() if isinstance(zero, str) else zero)))
        else:
            out.append(Rec(fd.number, LEN, b""))  # an empty sub-message (present, or an empty element)
    if rng.random() < opts.unknowns:
        for _ in range(rng.randint(1, 4)):
            out.insert(rng.randint(0, len(out)), random_unknown(rng, desc))
    if rng.random() < opts.foreign and desc.fields:
        out.insert(rng.randint(0, len(out)), foreign_wire_type_record(rng, desc))
    if rng.random() < opts.reorder:
        out = _reorder(rng, out)
    for r in out:
        _pad_record(rng, r, opts)
    return out


def vary_bytes(rng, data, desc, opts, message_classes, depth=0):
    return encode(vary_records(rng, parse(data), desc, opts, message_classes, depth))


# ----------------------------------------------------------------------------------------------------------------
# Splitting canonical output into known and unknown parts (to tell "unknown fields placed elsewhere" apart from
# real differences).


def normalise(data, desc):
    """A comparable structure of valid bytes: per message level, (known records with sub-messages normalised,
    unknown records as their exact bytes in arrival order). None when data does not parse."""
    try:
        recs = parse(data)
    except WireError:
        return None
    known, unknown = [], []
    for r in recs:
        if is_known(desc, r):
            fd = desc.fields_by_number[r.num]
            if fd.type == FD.TYPE_MESSAGE:
                known.append((r.num, normalise(r.val, fd.message_type)))
            else:
                known.append((r.num, r.wt, r.val))
        else:
            unknown.append(r.raw)
    return (tuple(known), tuple(unknown))


def unknown_placement_only(a, b, desc):
    """True when a and b differ only in where unknown fields are placed relative to known fields (the known
    fields and the sequence of unknown fields are the same at every level)."""
    return a != b and normalise(a, desc) is not None and normalise(a, desc) == normalise(b, desc)


def unknown_rule_violation(inp, out, desc, path="", exact=True):
    """Checks the unknown-field rule on a decoder's canonical output `out` for the input `inp`: at every message
    level, the known fields come first in field-number order, then the unknown fields of that level exactly as
    they arrived (byte for byte, in arrival order; the occurrences of a singular sub-message are merged, so
    their unknown fields are concatenated in arrival order). Returns None when the rule holds, else why not.
    Both inputs must parse. With exact=False unknown fields are compared after minimal re-encoding (C++ parses
    unknown fields into values and writes them back minimally)."""
    ins, outs = parse(inp), parse(out)
    name = path or desc.name
    out_known = [r for r in outs if is_known(desc, r)]
    n_known = len(out_known)
    if any(not is_known(desc, r) for r in outs[:n_known]):
        return "%s: an unknown field comes before a known field" % name
    nums = [r.num for r in out_known]
    if nums != sorted(nums):
        return "%s: known fields not in field-number order" % name
    def form(r):
        return r.raw if exact else encode([r])

    want = [form(r) for r in ins if not is_known(desc, r)]
    got = [form(r) for r in outs[n_known:]]
    if want != got:
        return "%s: unknown fields %s, input had %s" % (name, b"".join(got).hex(), b"".join(want).hex())
    for fd in desc.fields:
        if fd.type != FD.TYPE_MESSAGE:
            continue
        in_occ = [r.val for r in ins if r.num == fd.number and r.wt == LEN]
        out_occ = [r.val for r in outs if r.num == fd.number and r.wt == LEN]
        if not is_repeated(fd):
            in_occ = [b"".join(in_occ)] if in_occ else []
        if len(in_occ) != len(out_occ):
            return "%s.%s: %d occurrences in, %d out" % (name, fd.name, len(in_occ), len(out_occ))
        for i, (a, b) in enumerate(zip(in_occ, out_occ)):
            why = unknown_rule_violation(a, b, fd.message_type, "%s.%s[%d]" % (name, fd.name, i), exact)
            if why:
                return why
    return None
