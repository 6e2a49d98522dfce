#!/usr/bin/env python3
"""Differential cross-check of the `locwire` CLI against Google's protobuf peers.

Peers: Python protobuf with the upb backend (binary and JSON, the reference for every verdict), protoc (the C++
library: --decode/--encode as a binary and text-format oracle) and cpporacle.cc (the C++ library's JSON parser and
printer and its binary parser, compiled at start-up into a temporary directory). The Python code for
proto/locationwire/v1 is generated into a temporary directory with `protoc --python_out` on every run; nothing
generated is kept.

Checks (README.md beside this file has how to run it):
  0  `locwire types` lists exactly the message types of proto/.
  1  Random messages of every type (seeded): binpb->binpb is byte-identical; binpb->json equals upb's
     MessageToDict (structurally; floats compared as binary32 bit patterns); locwire's JSON and upb's JSON
     (printed with random printer options) both convert back to the same bytes; protoc decodes the bytes, and
     (messages without NaN) protoc's text format encodes back to the same bytes; locwire's JSON text is byte for
     byte C++ MessageToJsonString's (1f, with the C++ oracle).
  2  Wire variants of the random messages (wire.py: unpacked/chunked packed fields, duplicates, split
     sub-messages, reordering, overlong varints, unknown fields of every wire type, foreign wire types, NaN
     payloads, high bits on 32-bit varints): locwire's canonical bytes equal upb's deterministic
     re-serialisation and locwire's JSON equals upb's MessageToDict. The summary states where upb, C++ and
     locwire put unknown fields, as checked on every variant.
  3  Inputs near and beyond the decoder's limits (truncations, mutations, invalid UTF-8 at every string field of
     every type and nesting level, handcrafted cases in edgecases.py): locwire rejects (exit 1) exactly what upb
     rejects, and where upb accepts produces upb's canonical bytes. C++ verdicts (protoc --decode; the C++ oracle
     for truncations and mutations) are reported where they differ from upb's, without failing.
  4  Handcrafted JSON inputs: accept/reject of upb, C++ and locwire, a table, and byte equality where upb and
     locwire both accept.
     Disagreements fail unless listed in JSON_ALLOWLIST below with the reason locwire chose differently.

Exit status 0 only when every check passes; 1 when any fails; 2 on a setup error.
"""

import sys

sys.dont_write_bytecode = True  # keep Tests/peers free of __pycache__

import argparse
import collections
import concurrent.futures
import importlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PROTO_DIR = REPO / "proto"
SCHEMA_SUBDIR = "locationwire/v1"
sys.path.insert(0, str(HERE))

# The modules beside this file (they need the protobuf runtime, not the generated code).
import edgecases  # noqa: E402
import randmsg  # noqa: E402
import wire  # noqa: E402
from jsoncompare import json_diffs, load_locwire_json  # noqa: E402
from report import Results, first_difference, print_summary, short, show_bytes, show_run  # noqa: E402
from tools import Tools, build_cpp_oracle  # noqa: E402

# ----------------------------------------------------------------------------------------------------------------
# JSON cases where locwire deliberately answers differently from upb. A disagreement on a case listed here is
# reported in the table as ALLOWED instead of failing, but only when locwire gives the verdict listed.
# Keys are case names from edgecases.json_cases().

# Each entry: case name -> (locwire's verdict, why, C++ must agree). "C++ must agree" marks entries allowed because
# upb's Python JSON parser deviates where the C++ parser and the proto3 JSON mapping agree with locwire: with the
# C++ oracle built, such an entry fails unless C++ gives locwire's verdict.
_DUP = "locwire rejects a field given twice (JSON and proto name); upb's Python parser takes the last"
_FLTMAX = "rounds to FLT_MAX, so in range; C++ accepts it as locwire does, upb rejects its own FLT_MAX output"
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
    # A number that rounds to FLT_MAX is in the float range: C++ prints FLT_MAX as 3.40282347e+38 and accepts
    # it back; upb's Python parser compares the unrounded double with FLT_MAX and so rejects even its own output
    # for FLT_MAX (3.4028235e+38). Verified against C++.
    "float max 3.4028235e38": ("accept", _FLTMAX, True),
    "float max 9 digits 3.40282347e+38": ("accept", _FLTMAX, True),
    "float -max 9 digits -3.40282347e+38": ("accept", _FLTMAX, True),
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
    # upb reads a string beyond the double range as infinity; C++ rejects it as locwire does.
    "float \"1e400\" string": ("reject", _STRICT + " (a number beyond the double range is not infinity)", True),
}

# JSON cases where locwire accepts as upb does but deliberately stores other bytes: case name -> why.
JSON_BYTES_ALLOWLIST = {
    # C++ prints -0.0 as -0 and reads -0 back as +0.0, so its printed JSON does not round-trip; locwire reads the
    # token -0 as -0.0 so that printed JSON reads back (conformance vector json.LocationFix.number.float-negative-zero-integer).
    "float -0": "locwire reads the number -0 as -0.0, so that -0.0 printed as -0 (as C++ prints it) reads back",
}


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
# Shared comparison of a binary input (checks 2 and 3)


def compare_binary(ctx, check, typ, data, m, upb_err, r, slow_limit=None, name="", extra=()):
    """locwire's `--to binpb` run r on input data against upb's result (m or upb_err). extra: more lines to
    print with a failure."""
    res = ctx.results
    case = (["case: " + name] if name else []) + list(extra)
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
    if r.rc == 0 and wire.unknown_placement_only(r.out, expected, ctx.pool.FindMessageTypeByName(typ)):
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
    """Checks 1a-1f for one random message."""
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
                         "locwire: " + r.out.decode("utf-8", "replace"),
                         first_difference(cpp, text) if kind == "OK" else "")
        r2 = tools.lw(typ, "json", "binpb", r.out)
        res.check_ok(r2.rc == 0 and r2.out == B, "1c locwire json->binpb", typ, B,
                     "json input: " + r.out.decode("utf-8", "replace"), "expected: " + show_bytes(B),
                     "locwire: " + show_run(r2))

    text = peer.json_format.MessageToJson(msg, **json_opts)
    r = tools.lw(typ, "json", "binpb", text.encode("utf-8"))
    res.check_ok(r.rc == 0 and r.out == B, "1d upb json->binpb", typ, B,
                 "upb JSON (%s): %s" % (json_opts, text), "expected: " + show_bytes(B), "locwire: " + show_run(r))

    r = tools.protoc("decode", typ, B)
    if res.check_ok(r.rc == 0, "1e1 protoc --decode", typ, B, "protoc: " + show_run(r, False)) and proto_sample:
        if randmsg.has_nan(msg):
            ctx.results.note("1e NaN skipped", typ)
        else:
            r2 = tools.protoc("encode", typ, r.out)
            res.check_ok(r2.rc == 0 and r2.out == B, "1e2 protoc text round trip", typ, B,
                         "text: " + r.out.decode("utf-8", "replace"), "protoc --encode: " + show_run(r2))


# ----------------------------------------------------------------------------------------------------------------
# Check 2: wire variants


def note_unknown_rule(ctx, who, typ, data, out, desc):
    """Records whether `who`'s canonical output follows the unknown-field rule (wire.unknown_rule_violation),
    with unknown fields compared byte for byte and, separately, after minimal re-encoding."""
    for exact in (True, False):
        try:
            why = wire.unknown_rule_violation(data, out, desc, exact=exact)
        except wire.WireError as e:
            why = "output does not parse: %s" % e
        ctx.results.note("2 unknown rule %s %s" % (who, "exact" if exact else "re-encoded"), (typ, data, why))


def check_variant(ctx, job):
    typ, data = job
    m, err = ctx.peer.decode(typ, data)
    r = ctx.tools.lw(typ, "binpb", "binpb", data)
    if m is None:
        ctx.results.note("2 variants upb rejected", (typ, data.hex(), err))
    compare_binary(ctx, "2a variant binpb", typ, data, m, err, r)
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
        ctx.results.fail("2b variant json", typ, data, "upb: " + json.dumps(expected), "locwire: " + show_run(r))
        return
    try:
        diffs = json_diffs(m.DESCRIPTOR, load_locwire_json(r.out), expected)
    except (ValueError, UnicodeDecodeError) as e:
        diffs = ["locwire printed invalid JSON: %s" % e]
    ctx.results.check_ok(not diffs, "2b variant json", typ, data, "upb:     " + json.dumps(expected),
                         "locwire: " + r.out.decode("utf-8", "replace"), *diffs[:10])


# ----------------------------------------------------------------------------------------------------------------
# Check 3: rejection parity


def cpp_verdict(ctx, typ, data, use_protoc):
    """(accepts?, detail) of the C++ library: `protoc --decode`, or for bulk inputs the C++ oracle when it is
    built (the same libprotobuf parser, ParseFromString, without a process per input; --protoc-all turns this
    off)."""
    if use_protoc or not ctx.cpp or ctx.protoc_all:
        p = ctx.tools.protoc("decode", typ, data)
        return p.rc == 0, "protoc --decode: " + ("accepts" if p.rc == 0 else "rejects (%s)" % p.err[:200])
    kind, out = ctx.cpp.ask("bin2bin", typ, data)
    return kind == "OK", "C++ ParseFromString: " + ("accepts" if kind == "OK" else "rejects (%s)" % out)


def check_reject(ctx, job):
    check, typ, name, data, always_protoc = job
    m, err = ctx.peer.decode(typ, data)
    r = ctx.tools.lw(typ, "binpb", "binpb", data)
    cpp_ok = cpp_detail = None
    if m is None or always_protoc:
        cpp_ok, cpp_detail = cpp_verdict(ctx, typ, data, always_protoc)
        if cpp_ok != (m is not None):
            ctx.results.note("3 C++/upb disagreements", (check, short(typ), name, data, cpp_detail,
                                                          "upb accepts" if m is not None else "upb rejects"))
    # Where upb and locwire disagree but C++ agrees with locwire, Google's two implementations disagree with
    # each other, and either verdict is allowed (as in the conformance vectors marked peers-disagree).
    lw_ok = r.rc == 0
    if r.rc in (0, 1) and (m is not None) != lw_ok and ctx.cpp:
        if cpp_ok is None or always_protoc is False:
            cpp_ok, cpp_detail = cpp_verdict(ctx, typ, data, False)
        if cpp_ok == lw_ok:
            ctx.results.note("3 upb alone disagrees (allowed: C++ agrees with locwire)",
                             (check, short(typ), name, data, cpp_detail, "upb accepts" if m is not None else "upb rejects"))
            ctx.results.ok(check, typ)
            return
    # A length prefix claiming far more than the input holds must be refused at once, not after allocating.
    slow = 2.0 if "claimed" in name else None
    if slow:
        ctx.results.note("3 claimed-length times", r.secs)
    compare_binary(ctx, check, typ, data, m, err, r, slow, name, [cpp_detail] if cpp_detail else [])
    if check == "3d handcrafted":
        ctx.results.note("3 handcrafted verdicts", (name, short(typ), m is not None, cpp_ok, r.rc))


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
        if r.out != expected and name in JSON_BYTES_ALLOWLIST:
            status = "ALLOWED: " + JSON_BYTES_ALLOWLIST[name]
        elif r.out != expected:
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locwire", default=str(REPO / ".build" / "release" / "locwire"),
                    help="locwire binary (default: .build/release/locwire; build it with swift build -c release)")
    ap.add_argument("--count", type=int, default=30, help="random messages per type (default 30)")
    ap.add_argument("--seed", type=int, default=20240601, help="random seed (default 20240601)")
    ap.add_argument("--variants", type=int, default=2, help="wire variants per random message (default 2)")
    ap.add_argument("--mutations", type=int, default=200, help="random byte mutations per type (default 200)")
    ap.add_argument("--trunc-budget", type=int, default=450,
                    help="truncation inputs per type: every prefix of as many random messages as fit in this "
                         "many prefixes (at least one message per type); 0 = every prefix of every message")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel tool runs")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per tool run")
    ap.add_argument("--max-print", type=int, default=15, help="failures printed per check")
    ap.add_argument("--no-cpp", action="store_true",
                    help="do not build the C++ oracle (cpporacle.cc; needs g++ and libprotobuf-dev)")
    ap.add_argument("--protoc-all", action="store_true",
                    help="check 3: ask protoc --decode (not the C++ oracle) about every input upb rejects (slower)")
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
        ctx = Ctx()
        ctx.pool = pool
        ctx.protoc_all = args.protoc_all
        ctx.peer = Peer(classes, pool)
        ctx.tools = Tools(args.locwire, args.timeout, PROTO_DIR, files)
        if args.no_cpp:
            ctx.cpp, why = None, "C++ oracle disabled (--no-cpp)"
        else:
            ctx.cpp, why = build_cpp_oracle(tmp, PROTO_DIR, files, HERE / "cpporacle.cc")
        if why:
            print("warning: " + why.strip(), file=sys.stderr)
        ctx.results = Results()
        if api_implementation.Type() != "upb":
            print("warning: python protobuf runs on its %s backend, not upb" % api_implementation.Type(),
                  file=sys.stderr)
        # Types sorted by full name (the order of `locwire types` is not assumed).
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
                datas = [d for d in by_type[typ] if d]
                total += len(datas)
                # Every prefix of whole messages, in generation order, of those that fit in what is left of the
                # budget; the smallest non-empty message is always included.
                chosen, used = [], 0
                for d in datas:
                    if args.trunc_budget == 0 or used + len(d) <= args.trunc_budget:
                        chosen.append(d)
                        used += len(d)
                chosen = chosen or sorted(datas, key=len)[:1]
                covered += len(chosen)
                for d in chosen:
                    for k in range(len(d)):
                        jobs.append(("3a truncation", typ, "", d[:k], False))
                seen = set()
                for _ in range(args.mutations):
                    d = mutate(rng, rng.choice(datas)) if datas else bytes([rng.randrange(256)])
                    if d not in seen:
                        seen.add(d)
                        jobs.append(("3b mutation", typ, "", d, False))
            trunc_note = ("truncations: every prefix of %d of the %d non-empty random messages (--trunc-budget %d "
                          "prefixes per type; 0 = all)" % (covered, total, args.trunc_budget))
            for name, typ, data in edgecases.utf8_cases(ctx.type_names, pool):
                jobs.append(("3c utf-8", typ, name, data, False))
            for name, typ, data in edgecases.binary_cases():
                jobs.append(("3d handcrafted", typ, name, data, True))
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
