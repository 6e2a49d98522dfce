#!/usr/bin/env python3
"""Differential cross-check of the `locwire` CLI against Google's protobuf peers.

Peers: Python protobuf with the upb backend (binary and JSON, the reference for every verdict) and protoc
(the C++ library: --decode/--encode as a binary and text-format oracle). The Python code for proto/ is generated
into a temporary directory with `protoc --python_out` on every run; nothing generated is kept.

Checks (README.md beside this file has how to run it):
  0  `locwire types` lists exactly the message types of proto/.
  1  Random messages of every type (seeded): binpb->binpb is byte-identical; binpb->json equals upb's
     MessageToDict (structurally; floats compared as binary32 bit patterns); locwire's JSON and upb's JSON
     (printed with random printer options) both convert back to the same bytes; protoc decodes the bytes, and
     (messages without NaN) protoc's text format encodes back to the same bytes.
  2  Wire variants of the random messages (wire.py: unpacked/chunked packed fields, duplicates, split
     sub-messages, reordering, overlong varints, unknown fields of every wire type, foreign wire types, NaN
     payloads, high bits on 32-bit varints): locwire's canonical bytes equal upb's deterministic
     re-serialisation and locwire's JSON equals upb's MessageToDict.
  3  Inputs near and beyond the decoder's limits (truncations, mutations, invalid UTF-8 at every string field of
     every type and nesting level, handcrafted cases in edgecases.py): locwire rejects (exit 1) exactly what upb
     rejects, and where upb accepts produces upb's canonical bytes. C++ (protoc --decode) verdicts are reported
     where they differ from upb's, without failing.
  4  Handcrafted JSON inputs: accept/reject of upb and locwire, a table, and byte equality where both accept.
     Disagreements fail unless listed in JSON_ALLOWLIST below with the reason locwire chose differently.

Exit status 0 only when every check passes; 1 when any fails; 2 on a setup error.
"""

import sys

sys.dont_write_bytecode = True  # keep Tests/peers free of __pycache__

import argparse
import base64
import collections
import concurrent.futures
import importlib
import json
import math
import os
import random
import shutil
import struct
import subprocess
import tempfile
import threading
import time
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PROTO_DIR = REPO / "proto"
SCHEMA_SUBDIR = "locationwire/v1"
sys.path.insert(0, str(HERE))

# Imported after the generated code exists (see main): google.protobuf, randmsg, wire, edgecases.

# ----------------------------------------------------------------------------------------------------------------
# JSON cases where locwire deliberately answers differently from upb. A disagreement on a case listed here is
# reported in the table as ALLOWED instead of failing, but only when locwire gives the verdict listed.
# Keys are case names from edgecases.json_cases().

# Each entry: case name -> (locwire's verdict, why, C++ must agree). "C++ must agree" marks entries allowed because
# the peer's Python parser is lax where the C++ parser and the proto3 JSON mapping are strict: with the C++ oracle
# built, such an entry fails unless C++ gives locwire's verdict.
_DUP = "locwire rejects a field given twice (JSON and proto name); upb's Python parser takes the last"
_STRICT = "not proto3 JSON; upb's Python parser is lax here, C++ rejects it as locwire does"
JSON_ALLOWLIST = {
    # Deliberate choice 1: locwire rejects a field given twice, under its JSON name and its proto name.
    "duplicate: json name and proto name": ("reject", _DUP, False),
    "duplicate: proto name and json name, explicit presence": ("reject", _DUP, False),
    "duplicate: null then value": ("reject", _DUP + " (null counts as an occurrence)", False),
    "duplicate repeated under both names": ("reject", _DUP, False),
    "duplicate sub-message under both names": ("reject", _DUP, False),
    # Deliberate choice 2: null inside an array has no meaning in the proto3 JSON mapping.
    "null inside message array": ("reject", "locwire rejects null inside arrays", False),
    "null inside string array": ("reject", "locwire rejects null inside arrays", False),
    "null inside int array": ("reject", "locwire rejects null inside arrays", False),
    # Deliberate choice 3: quoted booleans.
    "bool quoted \"true\"": ("reject", "locwire rejects quoted booleans", False),
    # Deliberate choice 4: floats beyond the float range, also as strings (upb rejects 3.5e38 as a number but
    # takes "3.5e38" as a string and stores +Infinity).
    "float \"3.5e38\" (beyond range, string)": ("reject", "locwire rejects floats beyond the float range", False),
    # Python-only laxness (each verified against C++ when the C++ oracle is built):
    # json_format.Parse walks any top-level value; an empty array has nothing to reject.
    "top-level array": ("reject", _STRICT + " (top-level value must be an object)", True),
    # Python's float() accepts "inf", "infinity" and surrounding whitespace; the mapping allows only
    # "NaN", "Infinity", "-Infinity" and number text.
    "float \"inf\"": ("reject", _STRICT + " (only \"Infinity\" is allowed)", True),
    "float \" 1.5\" string with space": ("reject", _STRICT + " (whitespace inside a numeric string)", True),
    # Python's bool is an int: true/false pass its number checks.
    "float as boolean": ("reject", _STRICT + " (a boolean is not a number)", True),
    "enum as boolean": ("reject", _STRICT + " (a boolean is not an enum)", True),
    # Python's base64.b64decode (validate=False) drops characters outside the alphabet and extra padding.
    "base64 invalid character": ("reject", _STRICT + " (characters outside base64)", True),
    "base64 too much padding": ("reject", _STRICT + " (malformed padding)", True),
    "base64 padding in the middle": ("reject", _STRICT + " (padding inside the text)", True),
    "base64 with whitespace": ("reject", _STRICT + " (whitespace inside base64)", True),
}

# ----------------------------------------------------------------------------------------------------------------
# Running the tools


Run = collections.namedtuple("Run", "rc out err secs")  # rc None: timed out


class Tools:
    """Runs locwire and protoc. Thread-safe: each call is one subprocess."""

    def __init__(self, locwire, timeout, proto_files):
        self.locwire = locwire
        self.timeout = timeout
        self.proto_files = proto_files
        self.runs = collections.Counter()
        self._lock = threading.Lock()

    def _run(self, argv, data, kind):
        with self._lock:
            self.runs[kind] += 1
        start = time.monotonic()
        try:
            p = subprocess.run(argv, input=data, capture_output=True, timeout=self.timeout)
            return Run(p.returncode, p.stdout, p.stderr.decode("utf-8", "replace").strip(),
                       time.monotonic() - start)
        except subprocess.TimeoutExpired:
            return Run(None, b"", "timed out after %ss" % self.timeout, time.monotonic() - start)

    def lw(self, typ, frm, to, data):
        return self._run([self.locwire, "convert", "--type", typ, "--from", frm, "--to", to], data, "locwire")

    def protoc(self, mode, typ, data):
        argv = ["protoc", "--%s=%s" % (mode, typ), "-I", str(PROTO_DIR)] + self.proto_files
        return self._run(argv, data, "protoc")


class CppOracle:
    """cpporacle.cc (the C++ protobuf library, JSON parser and printer included) as one long-running process
    answering one request per line. Built at start-up; optional (crosscheck runs without it if it cannot be
    built, and says so)."""

    def __init__(self, exe, descriptor_set):
        self.argv = [exe, descriptor_set]
        self.lock = threading.Lock()
        self.proc = None

    def ask(self, mode, typ, data):
        """("OK", bytes) or ("ERR", message)."""
        with self.lock:
            for _ in range(2):
                if self.proc is None or self.proc.poll() is not None:
                    self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                 stderr=subprocess.DEVNULL, text=True, bufsize=1)
                try:
                    self.proc.stdin.write("%s %s %s\n" % (mode, typ, data.hex()))
                    self.proc.stdin.flush()
                    line = self.proc.stdout.readline()
                except BrokenPipeError:
                    line = ""
                if line:
                    kind, _, rest = line.rstrip("\n").partition(" ")
                    return (kind, bytes.fromhex(rest)) if kind == "OK" else (kind, rest)
                self.proc = None  # it crashed on this input: say so, and restart it for the next one
                return ("ERR", "C++ oracle crashed")

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def build_cpp_oracle(tmp, files):
    """Compiles cpporacle.cc against the system libprotobuf (a few seconds). None (and a reason) on failure."""
    exe, ds = os.path.join(tmp, "cpporacle"), os.path.join(tmp, "schema.pb")
    try:
        subprocess.run(["protoc", "--descriptor_set_out=" + ds, "--include_imports", "-I", str(PROTO_DIR)] + files,
                       check=True, capture_output=True)
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "protobuf"], check=True, capture_output=True,
                               text=True).stdout.split()
        subprocess.run(["g++", "-O1", "-std=c++17", str(HERE / "cpporacle.cc"), "-o", exe] + flags, check=True,
                       capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, "C++ oracle not built (%s): %s" % (e, getattr(e, "stderr", "") or "")
    return CppOracle(exe, ds), None


# ----------------------------------------------------------------------------------------------------------------
# Results


def short(typ):
    return typ.rsplit(".", 1)[-1]


def show_bytes(data, limit=4096):
    if data is None:
        return "-"
    h = data.hex()
    if len(data) > limit:
        return "%s... (%d bytes, first %d shown)" % (h[:2 * limit], len(data), limit)
    return "%s (%d bytes)" % (h or "(empty)", len(data))


def show_run(r, binary=True):
    if r is None:
        return "not run"
    if r.rc is None:
        return "TIMEOUT (%s)" % r.err
    body = show_bytes(r.out) if binary else r.out.decode("utf-8", "replace")
    s = "exit %d, %.2fs, stdout: %s" % (r.rc, r.secs, body if r.out else "(empty)")
    if r.err:
        s += "\n      stderr: " + r.err[:500]
    return s


class Results:
    """Counts per (check, type), failures (with input and both sides), findings and notes that do not fail."""

    def __init__(self):
        self.lock = threading.RLock()  # tool runs happen on a thread pool
        self.counts = collections.defaultdict(lambda: [0, 0])
        self.failures = []
        self.findings = []
        self.info = collections.defaultdict(list)

    def ok(self, check, typ):
        with self.lock:
            self.counts[(check, short(typ))][0] += 1

    def fail(self, check, typ, data, *lines):
        with self.lock:
            self.counts[(check, short(typ))][1] += 1
            self.failures.append((check, short(typ), data, list(lines)))

    def finding(self, check, typ, data, text):
        with self.lock:
            self.findings.append((check, short(typ), data, text))

    def note(self, key, item):
        with self.lock:
            self.info[key].append(item)

    def check_ok(self, cond, check, typ, data, *lines):
        if cond:
            self.ok(check, typ)
        else:
            self.fail(check, typ, data, *lines)
        return cond


# ----------------------------------------------------------------------------------------------------------------
# upb helpers


class Peer:
    """The upb peer: message classes by full name and decode/encode helpers."""

    def __init__(self, classes, pool):
        from google.protobuf import json_format, message
        self.classes, self.pool = classes, pool
        self.json_format, self.DecodeError = json_format, message.DecodeError

    def decode(self, typ, data):
        """(message, None) or (None, error text)."""
        m = self.classes[typ]()
        try:
            m.ParseFromString(data)
            return m, None
        except self.DecodeError as e:
            return None, "DecodeError: %s" % e
        except Exception as e:  # anything else is also a rejection, but say which
            return None, "%s: %s" % (type(e).__name__, e)

    @staticmethod
    def canonical(m):
        return m.SerializeToString(deterministic=True)

    def parse_json(self, typ, text):
        m = self.classes[typ]()
        try:
            self.json_format.Parse(text, m)
            return m, None
        except Exception as e:
            return None, "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")


# ----------------------------------------------------------------------------------------------------------------
# Structural JSON comparison (check 1b, 2): locwire's JSON text against upb's MessageToDict.


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
    from google.protobuf.descriptor import FieldDescriptor as FD
    from randmsg import is_repeated
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
    from google.protobuf.descriptor import FieldDescriptor as FD
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


# ----------------------------------------------------------------------------------------------------------------
# Shared comparison of a binary input (checks 2 and 3)


def compare_binary(ctx, check, typ, data, m, upb_err, r, slow_limit=None, name=""):
    """locwire's `--to binpb` run r on input data against upb's result (m or upb_err)."""
    res = ctx.results
    case = ["case: " + name] if name else []
    if r.rc is None:
        res.fail(check, typ, data, *case, "locwire timed out", "upb: " + ("accepts" if m else upb_err))
        return
    if slow_limit is not None and r.secs > slow_limit:
        res.fail(check, typ, data, *case, "locwire took %.2fs (limit %.1fs)" % (r.secs, slow_limit))
        return
    if m is None:
        res.check_ok(r.rc == 1, check, typ, data, *case, "upb rejects: " + upb_err,
                     "locwire should exit 1: " + show_run(r))
        return
    expected = ctx.peer.canonical(m)
    if r.rc == 0 and r.out == expected:
        res.ok(check, typ)
        return
    if r.rc == 0 and ctx.wire.unknown_placement_only(r.out, expected, ctx.pool.FindMessageTypeByName(typ)):
        # Same known fields and the same unknown fields in the same order, placed differently.
        res.ok(check, typ)
        res.finding(check, typ, data, "unknown fields placed differently: upb %s, locwire %s"
                    % (expected.hex(), r.out.hex()))
        return
    res.fail(check, typ, data, *case, "upb accepts, canonical: " + show_bytes(expected), "locwire: " + show_run(r))


# ----------------------------------------------------------------------------------------------------------------
# Check 0 and 1


def check_types(ctx):
    p = subprocess.run([ctx.tools.locwire, "types"], capture_output=True)
    listed = set(p.stdout.decode().split())
    expected = set(ctx.type_names)
    ctx.results.check_ok(p.returncode == 0 and listed == expected, "0 types", "(all)", b"",
                         "locwire types: %s" % sorted(listed), "schema: %s" % sorted(expected))


def check_random_message(ctx, job):
    """Checks 1a-1e for one random message."""
    typ, msg, json_opts, proto_sample = job
    res, tools, peer = ctx.results, ctx.tools, ctx.peer
    B = peer.canonical(msg)
    desc = msg.DESCRIPTOR

    r = tools.lw(typ, "binpb", "binpb", B)
    res.check_ok(r.rc == 0 and r.out == B, "1a binpb->binpb", typ, B, "expected: " + show_bytes(B),
                 "locwire: " + show_run(r))

    r = tools.lw(typ, "binpb", "json", B)
    expected = peer.json_format.MessageToDict(msg)
    if r.rc != 0:
        res.fail("1b binpb->json", typ, B, "upb: " + json.dumps(expected), "locwire: " + show_run(r, False))
    else:
        try:
            diffs = json_diffs(desc, load_locwire_json(r.out), expected)
        except (ValueError, UnicodeDecodeError) as e:
            diffs = ["locwire printed invalid JSON: %s" % e]
        res.check_ok(not diffs, "1b binpb->json", typ, B, "upb:     " + json.dumps(expected, ensure_ascii=False),
                     "locwire: " + r.out.decode("utf-8", "replace"), *diffs[:10])
        if ctx.cpp:
            # locwire's JSON printer mimics C++ MessageToJsonString (compact): compare the text byte for byte.
            # One trailing newline after the JSON text is locwire's CLI convention; C++ prints none.
            kind, cpp = ctx.cpp.ask("bin2json", typ, B)
            text = r.out[:-1] if r.out.endswith(b"\n") else r.out
            res.check_ok(kind == "OK" and cpp == text, "1f json text == C++", typ, B,
                         "C++:     " + (cpp.decode("utf-8", "replace") if kind == "OK" else cpp),
                         "locwire: " + r.out.decode("utf-8", "replace"))
        r2 = tools.lw(typ, "json", "binpb", r.out)
        res.check_ok(r2.rc == 0 and r2.out == B, "1c locwire json->binpb", typ, B,
                     "json input: " + r.out.decode("utf-8", "replace"), "expected: " + show_bytes(B),
                     "locwire: " + show_run(r2))

    text = peer.json_format.MessageToJson(msg, **json_opts)
    r = tools.lw(typ, "json", "binpb", text.encode("utf-8"))
    res.check_ok(r.rc == 0 and r.out == B, "1d upb json->binpb", typ, B,
                 "upb JSON (%s): %s" % (json_opts, text), "expected: " + show_bytes(B), "locwire: " + show_run(r))

    r = tools.protoc("decode", typ, B)
    if res.check_ok(r.rc == 0, "1e protoc --decode", typ, B, "protoc: " + show_run(r, False)) and proto_sample:
        if ctx.randmsg.has_nan(msg):
            ctx.results.note("1e NaN skipped", typ)
        else:
            r2 = tools.protoc("encode", typ, r.out)
            res.check_ok(r2.rc == 0 and r2.out == B, "1e protoc text round trip", typ, B,
                         "text: " + r.out.decode("utf-8", "replace"), "protoc --encode: " + show_run(r2))


# ----------------------------------------------------------------------------------------------------------------
# Check 2: wire variants


def note_unknown_rule(ctx, who, typ, data, out, desc):
    """Records whether `who`'s canonical output follows the unknown-field rule (wire.unknown_rule_violation),
    with unknown fields compared byte for byte and, separately, after minimal re-encoding."""
    for exact in (True, False):
        try:
            why = ctx.wire.unknown_rule_violation(data, out, desc, exact=exact)
        except ctx.wire.WireError as e:
            why = "output does not parse: %s" % e
        ctx.results.note("2 unknown rule %s %s" % (who, "exact" if exact else "re-encoded"), (typ, data, why))


def check_variant(ctx, job):
    typ, data = job
    m, err = ctx.peer.decode(typ, data)
    r = ctx.tools.lw(typ, "binpb", "binpb", data)
    if m is None:
        ctx.results.note("2 variants upb rejected", (typ, data.hex(), err))
    compare_binary(ctx, "2 variant binpb", typ, data, m, err, r)
    if m is None:
        return
    desc = m.DESCRIPTOR
    expected = ctx.peer.canonical(m)
    # How each implementation places unknown fields (reported in the summary, not a pass/fail check).
    note_unknown_rule(ctx, "upb", typ, data, expected, desc)
    if r.rc == 0:
        note_unknown_rule(ctx, "locwire", typ, data, r.out, desc)
    if ctx.cpp:
        kind, cpp = ctx.cpp.ask("bin2bin", typ, data)
        if kind == "OK":
            note_unknown_rule(ctx, "C++", typ, data, cpp, desc)
            if cpp != expected:
                ctx.results.note("2 C++ canonical differs from upb", (typ, data, expected, cpp))
        else:
            ctx.results.note("2 C++ canonical differs from upb", (typ, data, expected, None))
    r = ctx.tools.lw(typ, "binpb", "json", data)
    expected = ctx.peer.json_format.MessageToDict(m)
    if r.rc != 0:
        ctx.results.fail("2 variant json", typ, data, "upb: " + json.dumps(expected), "locwire: " + show_run(r))
        return
    try:
        diffs = json_diffs(m.DESCRIPTOR, load_locwire_json(r.out), expected)
    except (ValueError, UnicodeDecodeError) as e:
        diffs = ["locwire printed invalid JSON: %s" % e]
    ctx.results.check_ok(not diffs, "2 variant json", typ, data, "upb:     " + json.dumps(expected),
                         "locwire: " + r.out.decode("utf-8", "replace"), *diffs[:10])


# ----------------------------------------------------------------------------------------------------------------
# Check 3: rejection parity


def check_reject(ctx, job):
    check, typ, name, data, always_protoc = job
    m, err = ctx.peer.decode(typ, data)
    r = ctx.tools.lw(typ, "binpb", "binpb", data)
    # A length prefix claiming far more than the input holds must be refused at once, not after allocating.
    slow = 2.0 if "claimed" in name else None
    compare_binary(ctx, check, typ, data, m, err, r, slow, name)
    if m is None or always_protoc:
        p = ctx.tools.protoc("decode", typ, data)
        cpp_ok, upb_ok = p.rc == 0, m is not None
        if cpp_ok != upb_ok:
            ctx.results.note("3 C++/upb disagreements", 
                (check, short(typ), name, data, "C++ accepts" if cpp_ok else "C++ rejects: " + p.err[:200],
                 "upb accepts" if upb_ok else "upb rejects"))
    if name:
        ctx.results.note("3 handcrafted verdicts", 
            (name, short(typ), m is not None, r.rc, check))


def mutate(rng, data):
    """One to three random byte-level edits: flip a bit, replace, insert or delete a byte."""
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.choice(["flip", "set", "insert", "delete"])
        if op == "insert" or not b:
            b.insert(rng.randint(0, len(b)), rng.choice([0x00, 0x80, 0xFF, 0x7F, rng.randrange(256)]))
        else:
            i = rng.randrange(len(b))
            if op == "flip":
                b[i] ^= 1 << rng.randrange(8)
            elif op == "set":
                b[i] = rng.randrange(256)
            else:
                del b[i]
    return bytes(b)


# ----------------------------------------------------------------------------------------------------------------
# Check 4: JSON edge inputs


def check_json_case(ctx, job):
    """One handcrafted JSON input: verdicts of upb, locwire and (if built) C++; bytes where they accept."""
    name, typ, text = job
    data = text.encode("utf-8", "surrogatepass")
    m, err = ctx.peer.parse_json(typ, text)
    r = ctx.tools.lw(typ, "json", "binpb", data)
    upb = "accept" if m is not None else "reject"
    lw = {0: "accept", 1: "reject"}.get(r.rc, "exit %s" % r.rc)
    cpp, cpp_out = "n/a", None
    if ctx.cpp:
        kind, cpp_out = ctx.cpp.ask("json2bin", typ, data)
        cpp = "accept" if kind == "OK" else "reject"
    lines = ["case: " + name, "json: " + text, "upb: %s%s" % (upb, " (%s)" % err if err else ""),
             "C++: %s%s" % (cpp, "" if cpp != "reject" else " (%s)" % cpp_out), "locwire: " + show_run(r)]
    status = "agree"
    allowed = JSON_ALLOWLIST.get(name)
    if r.rc not in (0, 1):
        status = "FAIL (locwire exit %s)" % r.rc
    elif upb == lw == "accept":
        expected = ctx.peer.canonical(m)
        if r.out != expected:
            status = "FAIL (bytes differ)"
            lines.insert(2, "upb bytes: %s, C++ bytes: %s" % (
                show_bytes(expected), show_bytes(cpp_out) if cpp == "accept" else "-"))
    elif upb != lw:
        if allowed is None or allowed[0] != lw:
            status = "FAIL"
        elif allowed[2] and cpp != "n/a" and cpp != lw:
            status = "FAIL (allowlisted because C++ agrees with locwire, but C++ does not)"
        else:
            status = "ALLOWED: " + allowed[1]
    if status.startswith("FAIL"):
        ctx.results.fail("4 json edge", typ, data, *lines)
    else:
        ctx.results.ok("4 json edge", typ)
    return (name, short(typ), upb, cpp, lw, status)


# ----------------------------------------------------------------------------------------------------------------
# Setup and main


def generate_python(tmp):
    # Only the LocationWire schema itself (proto/ also holds other packages, e.g. the conformance protocol).
    files = sorted(str(p.relative_to(PROTO_DIR)) for p in (PROTO_DIR / SCHEMA_SUBDIR).glob("*.proto"))
    subprocess.run(["protoc", "--python_out=" + tmp, "-I", str(PROTO_DIR)] + files, check=True)
    sys.path.insert(0, tmp)
    from google.protobuf import descriptor_pool
    classes = {}
    for f in files:
        mod = importlib.import_module(f[:-len(".proto")].replace("/", ".") + "_pb2")
        for name, desc in mod.DESCRIPTOR.message_types_by_name.items():
            classes[desc.full_name] = getattr(mod, name)
    return files, classes, descriptor_pool.Default()


class Ctx:
    pass


def print_summary(ctx, args, elapsed, json_table, trunc_note):
    res = ctx.results
    checks = sorted({c for c, _ in res.counts})
    types = sorted({t for _, t in res.counts})
    print("\n=== Summary: passed/failed per check ===")
    for c in checks:
        p = sum(v[0] for (cc, _), v in res.counts.items() if cc == c)
        f = sum(v[1] for (cc, _), v in res.counts.items() if cc == c)
        print("  %-28s %6d passed %5d failed" % (c, p, f))
    print("\n=== Per message type (passed/failed, all checks) ===")
    header = "  %-18s" % "type" + "".join("%14s" % c.split(" ")[0] for c in checks)
    print(header)
    for t in types:
        row = "  %-18s" % t
        for c in checks:
            v = res.counts.get((c, t))
            row += "%14s" % ("%d/%d" % tuple(v) if v else "-")
        print(row)
    print("  (columns: " + ", ".join(checks) + ")")

    print("\n=== Check 3: handcrafted binary cases (upb / locwire exit) ===")
    for name, typ, upb_ok, rc, check in res.info["3 handcrafted verdicts"]:
        if check != "3 handcrafted":
            continue
        mark = "" if (rc == 0) == upb_ok and rc in (0, 1) else "   <-- DIFFERS"
        print("  %-72s %-14s upb %-7s locwire exit %s%s" % (name[:72], typ, "accept" if upb_ok else "reject",
                                                              rc, mark))

    print("\n=== Check 4: JSON edge cases (accept/reject) ===")
    print("  %-52s %-14s %-7s %-7s %-8s %s" % ("case", "type", "upb", "C++", "locwire", "status"))
    for name, typ, upb, cpp, lw, status in json_table:
        print("  %-52s %-14s %-7s %-7s %-8s %s" % (name[:52], typ, upb, cpp, lw, status))

    dis = res.info["3 C++/upb disagreements"]
    print("\n=== C++ (protoc --decode) vs upb verdicts that differ (informational, %d) ===" % len(dis))
    by_kind = collections.OrderedDict()
    for check, typ, name, data, cpp, upb in dis:
        by_kind.setdefault((check, name or "(generated)", cpp.split(":")[0], upb), []).append((typ, data))
    for (check, name, cpp, upb), items in by_kind.items():
        typ, data = min(items, key=lambda x: len(x[1]))
        print("  [%s] %s: %s, %s; %d input(s), smallest %s %s" % (check, name, cpp, upb, len(items), typ,
                                                                  show_bytes(data, 64)))

    print("\n=== Check 2: where each implementation puts unknown fields in its canonical output ===")
    print("  rule: at every level, known fields first in field-number order, then the unknown fields of that level")
    print("  byte for byte as they arrived, in arrival order (a singular sub-message's occurrences are merged, so")
    print("  their unknown fields are concatenated in arrival order)")
    for who in ("upb", "C++", "locwire"):
        for how in ("exact", "re-encoded"):
            items = res.info["2 unknown rule %s %s" % (who, how)]
            bad = [x for x in items if x[2]]
            print("  %-8s rule holds for %d of %d accepted variants (%s)" % (
                who, len(items) - len(bad), len(items),
                "unknown fields byte for byte" if how == "exact" else "after minimal re-encoding"))
            for typ, data, why in sorted(bad, key=lambda x: len(x[1]))[:3]:
                print("    e.g. %s %s: %s" % (short(typ), show_bytes(data, 96), why))
    diff = res.info["2 C++ canonical differs from upb"]
    if diff:
        print("  C++ deterministic bytes differ from upb's for %d variants; smallest:" % len(diff))
        for typ, data, up, cp in sorted(diff, key=lambda x: len(x[1]))[:3]:
            print("    %s input %s\n      upb %s\n      C++ %s" % (short(typ), show_bytes(data, 96), show_bytes(up, 96),
                                                            show_bytes(cp, 96)))

    rejected = res.info["2 variants upb rejected"]
    if rejected:
        print("\n  note: upb rejected %d generated variants (locwire was checked to reject them too)" % len(rejected))
    nan = res.info["1e NaN skipped"]
    print("\n  note: protoc text round trip skipped for %d messages with NaN (text format drops NaN payloads)"
          % len(nan))
    print("  note: " + trunc_note)

    if res.findings:
        print("\n=== Findings (not failures): %d ===" % len(res.findings))
        for check, typ, data, text in res.findings[:args.max_print]:
            print("  [%s] %s input %s\n    %s" % (check, typ, show_bytes(data, 512), text))

    if res.failures:
        print("\n=== FAILURES: %d ===" % len(res.failures))
        shown = collections.Counter()
        for check, typ, data, lines in sorted(res.failures, key=lambda f: (f[0], len(f[2]))):
            shown[check] += 1
            if shown[check] > args.max_print:
                continue
            print("FAIL [%s] %s" % (check, typ))
            print("  input: " + show_bytes(data))
            for line in lines:
                print("  " + line)
        for check, n in shown.items():
            if n > args.max_print:
                print("  (%s: %d more failures not shown; --max-print raises the limit)" % (check, n - args.max_print))
    runs = ctx.tools.runs
    print("\nlocwire runs: %d, protoc runs: %d, seed %d, %.1fs" % (runs["locwire"], runs["protoc"], args.seed,
                                                                    elapsed))
    print("RESULT: %s" % ("PASS" if not res.failures else "FAIL (%d failures)" % len(res.failures)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locwire", default=str(REPO / ".build" / "release" / "locwire"),
                    help="locwire binary (default: .build/release/locwire; build it with swift build -c release)")
    ap.add_argument("--count", type=int, default=30, help="random messages per type (default 30)")
    ap.add_argument("--seed", type=int, default=20240601, help="random seed (default 20240601)")
    ap.add_argument("--variants", type=int, default=2, help="wire variants per random message (default 2)")
    ap.add_argument("--mutations", type=int, default=200, help="random byte mutations per type (default 200)")
    ap.add_argument("--trunc-budget", type=int, default=600,
                    help="truncation inputs per type: every prefix of as many random messages as fit in this "
                         "many prefixes (at least one message per type); 0 = every prefix of every message")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel tool runs")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per tool run")
    ap.add_argument("--max-print", type=int, default=15, help="failures printed per check")
    ap.add_argument("--no-cpp", action="store_true",
                    help="do not build the C++ oracle (cpporacle.cc; needs g++ and libprotobuf-dev)")
    ap.add_argument("--only", default="01234", help="checks to run, e.g. 13 (default all)")
    args = ap.parse_args()

    if not os.access(args.locwire, os.X_OK):
        print("locwire binary not found at %s (build it: swift build -c release)" % args.locwire, file=sys.stderr)
        return 2
    if shutil.which("protoc") is None:
        print("protoc not found (apt-get install protobuf-compiler libprotobuf-dev)", file=sys.stderr)
        return 2

    started = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="locwire-peers-")
    try:
        files, classes, pool = generate_python(tmp)
        from google.protobuf.internal import api_implementation
        import randmsg
        import wire
        import edgecases
        ctx = Ctx()
        ctx.randmsg, ctx.wire, ctx.pool = randmsg, wire, pool
        ctx.peer = Peer(classes, pool)
        ctx.tools = Tools(args.locwire, args.timeout, files)
        ctx.cpp, why = (None, "C++ oracle disabled (--no-cpp)") if args.no_cpp else build_cpp_oracle(tmp, files)
        if why:
            print("warning: " + why.strip(), file=sys.stderr)
        ctx.results = Results()
        # Messages in schema order: the order of `locwire types` is not assumed.
        ctx.type_names = sorted(classes)
        print("peers: python protobuf %s (%s backend), %s; locwire %s; seed %d" % (
            importlib.import_module("google.protobuf").__version__, api_implementation.Type(),
            subprocess.run(["protoc", "--version"], capture_output=True, text=True).stdout.strip(),
            args.locwire, args.seed))
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)

        def pmap(fn, jobs, label):
            t0 = time.monotonic()
            out = list(executor.map(lambda j: fn(ctx, j), jobs))
            print("  %-40s %6d inputs %7.1fs" % (label, len(jobs), time.monotonic() - t0), flush=True)
            return out

        rng = random.Random(args.seed)
        # The random messages (check 1), used as seeds for checks 2 and 3 as well.
        messages = []
        for typ in ctx.type_names:
            for i in range(args.count):
                msg = randmsg.random_message(rng, classes[typ])
                json_opts = {"indent": rng.choice([None, 0, 2]),
                             "preserving_proto_field_name": rng.random() < 0.3,
                             "use_integers_for_enums": rng.random() < 0.3,
                             "always_print_fields_with_no_presence": rng.random() < 0.3,
                             "ensure_ascii": rng.random() < 0.5,
                             "unquote_int64_if_possible": rng.random() < 0.2}
                messages.append((typ, msg, json_opts, i % 2 == 0))  # text round trip on every other message
        if "0" in args.only:
            check_types(ctx)
        if "1" in args.only:
            pmap(check_random_message, messages, "1 random messages")

        if "2" in args.only:
            opts = wire.VaryOptions()
            variants = []
            for typ, msg, _, _ in messages:
                for _ in range(args.variants):
                    variants.append((typ, wire.vary_bytes(rng, msg.SerializeToString(deterministic=True),
                                                          msg.DESCRIPTOR, opts, classes)))
            pmap(check_variant, variants, "2 wire variants")

        trunc_note = "truncations not run"
        if "3" in args.only:
            jobs = []
            by_type = collections.defaultdict(list)
            for typ, msg, _, _ in messages:
                by_type[typ].append(msg.SerializeToString(deterministic=True))
            covered = total = 0
            for typ in ctx.type_names:
                budget, used = args.trunc_budget, 0
                datas = [d for d in by_type[typ] if d]
                total += len(datas)
                # Every prefix of whole messages, in generation order, while they fit in the budget; the
                # smallest non-empty message is always included.
                chosen = [d for d in datas if budget == 0 or (used := used + len(d)) <= budget] or \
                    sorted(datas, key=len)[:1]
                covered += len(chosen)
                for d in chosen:
                    for k in range(len(d)):
                        jobs.append(("3 truncation", typ, "", d[:k], False))
                seen = set()
                for _ in range(args.mutations):
                    d = mutate(rng, rng.choice(datas)) if datas else bytes([rng.randrange(256)])
                    if d not in seen:
                        seen.add(d)
                        jobs.append(("3 mutation", typ, "", d, False))
            trunc_note = ("truncations: every prefix of %d of the %d non-empty random messages (--trunc-budget %d "
                          "prefixes per type; 0 = all)" % (covered, total, args.trunc_budget))
            for name, typ, data in edgecases.utf8_cases(ctx.type_names, pool):
                jobs.append(("3 utf-8", typ, name, data, False))
            for name, typ, data in edgecases.binary_cases():
                jobs.append(("3 handcrafted", typ, name, data, True))
            pmap(check_reject, jobs, "3 rejection parity")

        json_table = []
        if "4" in args.only:
            json_table = pmap(check_json_case, edgecases.json_cases(), "4 JSON edge cases")

        executor.shutdown()
        if ctx.cpp:
            ctx.cpp.close()
        print_summary(ctx, args, time.monotonic() - started, json_table, trunc_note)
        return 0 if not ctx.results.failures else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
