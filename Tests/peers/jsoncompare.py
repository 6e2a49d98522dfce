"""Structural comparison of locwire's JSON output with upb's json_format.MessageToDict (checks 1b and 2b).

locwire's text is parsed strictly (numbers kept as their text, duplicate keys and NaN/Infinity literals refused)
and walked together with the expected dict and the message descriptor: 64-bit integers, enum names, strings and
bytes compare as strings, 32-bit integers as exact integers, floats as IEEE bit patterns (binary32 for float
fields), so "1e+06" equals 1000000.0 and "-0" differs from 0.
"""

import json
import struct
from decimal import Decimal

from google.protobuf.descriptor import FieldDescriptor as FD

from randmsg import is_repeated


class JNum(str):
    """A JSON number kept as its text, so that -0 and exact integers survive parsing."""


def load_locwire_json(text):
    """Parses locwire's JSON strictly: numbers as JNum, NaN/Infinity literals and duplicate keys rejected."""
    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate keys %r" % keys)
        return dict(items)

    def no_constant(name):
        raise ValueError("non-JSON literal %s" % name)

    return json.loads(text.decode("utf-8"), parse_int=JNum, parse_float=JNum, parse_constant=no_constant,
                      object_pairs_hook=pairs)


def float_bits(value, double):
    """IEEE bit pattern of a JSON number (text) or float, rounded to binary32 unless double."""
    x = float(value)
    if double:
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return "overflow:%r" % x


def json_diffs(desc, got, exp, path=""):
    """Differences between locwire's parsed JSON (got) and upb's MessageToDict (exp) for message type desc."""
    out = []
    if not isinstance(got, dict):
        return ["%s: expected an object, got %r" % (path or "$", got)]
    by_json = {fd.json_name: fd for fd in desc.fields}
    for key in sorted(set(got) | set(exp)):
        p = "%s.%s" % (path, key) if path else key
        if key not in got:
            out.append("%s: missing in locwire (upb: %r)" % (p, exp[key]))
            continue
        if key not in exp:
            out.append("%s: extra in locwire: %r" % (p, got[key]))
            continue
        fd = by_json.get(key)
        if fd is None:
            out.append("%s: not a JSON field name" % p)
            continue
        g, e = got[key], exp[key]
        if is_repeated(fd):
            if not isinstance(g, list) or len(g) != len(e):
                out.append("%s: locwire %r, upb %r" % (p, g, e))
                continue
            for i, (gi, ei) in enumerate(zip(g, e)):
                out += value_diffs(fd, gi, ei, "%s[%d]" % (p, i))
        else:
            out += value_diffs(fd, g, e, p)
    return out


def value_diffs(fd, g, e, p):
    t = fd.type
    bad = ["%s: locwire %r, upb %r" % (p, g, e)]
    if t == FD.TYPE_MESSAGE:
        return json_diffs(fd.message_type, g, e, p)
    if t in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
        if isinstance(e, str):  # "NaN", "Infinity", "-Infinity"
            return [] if isinstance(g, str) and not isinstance(g, JNum) and g == e else bad
        if not isinstance(g, JNum):
            return bad
        double = t == FD.TYPE_DOUBLE
        return [] if float_bits(g, double) == float_bits(e, double) else bad
    if isinstance(e, bool):  # bool fields
        return [] if g is e else bad
    if isinstance(e, int):  # 32-bit integers, and enum numbers of unknown values
        if not isinstance(g, JNum):
            return bad
        d = Decimal(g)
        return [] if d == d.to_integral_value() and int(d) == e else bad
    # Strings: 64-bit integers, enum names, string and bytes (base64) fields.
    return [] if isinstance(g, str) and not isinstance(g, JNum) and g == e else bad
