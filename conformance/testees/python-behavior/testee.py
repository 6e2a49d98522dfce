#!/usr/bin/env python3
"""python-behavior: a second, independent implementation of LocationWire's behaviour rules in Python, speaking the
testee protocol of proto/locationwire/conformance/v1/testee.proto on stdin and stdout (conformance/README.md).

It decodes binary input with the official protobuf package and runs validation.py (FEATURE_VALIDATION). Behaviour
modules are kept apart from this loop: a request kind is one entry of HANDLERS, a check one entry of CHECKS.
Run build.sh first (it generates the *_pb2 modules into build/gen).
"""
import copy
import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "build", "gen")
sys.path.insert(0, GEN)
sys.path.insert(0, HERE)

from google.protobuf import __version__ as PROTOBUF_VERSION  # noqa: E402
from google.protobuf import descriptor_pool, message_factory  # noqa: E402

from locationwire.conformance.v1 import testee_pb2 as t  # noqa: E402

import validation  # noqa: E402
import behavior_testee  # noqa: E402  (recording, fences, planning, arming: proto/BEHAVIOR.md)

# Importing every generated module registers its messages in the default pool, so types are found by name.
for _path in sorted(glob.glob(os.path.join(GEN, "locationwire", "v1", "*_pb2.py"))):
    importlib.import_module("locationwire.v1." + os.path.basename(_path)[:-3])

NAME = "python-behavior"
VERSION = "0.1.0"
FEATURES = [t.FEATURE_BINARY_INPUT, t.FEATURE_VALIDATION] + behavior_testee.BEHAVIOR_FEATURES


def log(text):
    print(f"{NAME}: {text}", file=sys.stderr, flush=True)


def message_class(type_name):
    """The generated class of a locationwire.v1 message, or None (the pool also holds the protocol's own)."""
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(type_name)
    except KeyError:
        return None
    if descriptor.file.package != "locationwire.v1":
        return None
    return message_factory.GetMessageClass(descriptor)


# --- checks -------------------------------------------------------------------------------------------------------

def check_validate(msg, type_name, decoded):
    for code, path, severity in validation.validate(msg, type_name):
        decoded.violations.add(code=code, path=path, severity=severity)


# The checks this testee performs; every other known check is answered `skipped`, an unknown one runtime_error.
CHECKS = {t.CHECK_VALIDATE: check_validate}
KNOWN_CHECKS = set(t.Check.values()) - {t.CHECK_UNSPECIFIED}


def run_vector(req):
    resp = t.VectorResponse(vector_id=req.vector_id)
    unknown = [c for c in req.checks if c not in KNOWN_CHECKS]
    if unknown:
        resp.runtime_error = f"unknown check value(s) {unknown}: this testee is older than the runner"
        return resp
    unsupported = [c for c in req.checks if c not in CHECKS]
    if unsupported:
        resp.skipped = "not supported: " + ", ".join(t.Check.Name(c) for c in unsupported)
        return resp
    cls = message_class(req.message_type)
    if cls is None:
        resp.skipped = f"unknown message type {req.message_type!r}"
        return resp
    which = req.WhichOneof("input")
    if which is None:
        resp.runtime_error = "vector has no input"
        return resp
    if which != "binary_input":
        resp.skipped = "JSON input is not supported"
        return resp
    try:
        msg = cls.FromString(req.binary_input)
    except Exception as e:  # hostile input: whatever the decoder raises is a parse error, never a crash
        resp.parse_error.message = f"{type(e).__name__}: {e}"
        return resp
    resp.decoded.SetInParent()  # "decoded" even when no output is asked for
    for check in req.checks:
        CHECKS[check](msg, req.message_type, resp.decoded)
    return resp


# --- request kinds ------------------------------------------------------------------------------------------------

def handle_vector(req):
    try:
        resp = run_vector(req.vector)
    except Exception as e:  # a bug here costs one vector, never the session
        resp = t.VectorResponse(vector_id=req.vector.vector_id, runtime_error=f"{type(e).__name__}: {e}")
    return t.TesteeResponse(vector=resp)


def handle_session(req):
    return t.TesteeResponse(session=t.SessionResponse(vector_id=req.session.vector_id, skipped="no FEATURE_SESSION"))


def handle_ledger(req):
    return t.TesteeResponse(ledger=t.LedgerResponse(vector_id=req.ledger.vector_id, skipped="no FEATURE_LEDGER"))


# Request kind -> handler returning the TesteeResponse. Add session and ledger engines here.
HANDLERS = {"vector": handle_vector, "session": handle_session, "ledger": handle_ledger}
# The behaviour kinds (recording, fences, planning, arming): behavior_testee.answer_behavior answers each, a request
# with unknown fields included (runtime_error in the response of its own kind).
HANDLERS.update({kind: behavior_testee.answer_behavior for kind in behavior_testee.BEHAVIOR})


def not_understood(req, kind):
    """The response of `kind` for a request this testee does not understand (a newer runner)."""
    text = "request not understood: this testee is older than the runner's protocol"
    if kind == "session":
        return t.TesteeResponse(session=t.SessionResponse(vector_id=req.session.vector_id, runtime_error=text))
    if kind == "ledger":
        return t.TesteeResponse(ledger=t.LedgerResponse(vector_id=req.ledger.vector_id, runtime_error=text))
    vector_id = req.vector.vector_id if kind == "vector" else ""
    return t.TesteeResponse(vector=t.VectorResponse(vector_id=vector_id, runtime_error=text))


def answer(req):
    stripped = copy.deepcopy(req)  # fields unknown to this testee's schema mean a newer runner
    stripped.DiscardUnknownFields()
    understood = stripped.ByteSize() == req.ByteSize()
    kind = req.WhichOneof("kind")
    if kind == "hello":
        if not understood:  # a hello cannot carry runtime_error: stop instead
            sys.exit(f"{NAME}: hello has unknown fields: this testee is older than the runner's protocol")
        log(f"hello from {req.hello.runner!r}")
        return t.TesteeResponse(hello=t.HelloResponse(
            protocol_version=1, implementation=NAME, version=f"{VERSION} (protobuf {PROTOBUF_VERSION})",
            features=FEATURES))
    if kind in behavior_testee.BEHAVIOR:
        return HANDLERS[kind](req)
    if not understood or kind not in HANDLERS:
        return not_understood(req, kind)
    return HANDLERS[kind](req)


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        header = stdin.read(4)
        if not header:  # end of input where a length is expected: the session is over
            return 0
        if len(header) < 4:
            sys.exit(f"{NAME}: input ends inside a frame header")
        size = int.from_bytes(header, "little")
        body = stdin.read(size)
        if len(body) < size:
            sys.exit(f"{NAME}: input ends inside a frame")
        try:
            req = t.TesteeRequest.FromString(body)
        except Exception as e:
            resp = t.TesteeResponse(vector=t.VectorResponse(runtime_error=f"cannot parse TesteeRequest: {e}"))
        else:
            resp = answer(req)
        out = resp.SerializeToString()
        stdout.write(len(out).to_bytes(4, "little") + out)
        stdout.flush()  # the runner waits for every response


if __name__ == "__main__":
    sys.exit(main())
