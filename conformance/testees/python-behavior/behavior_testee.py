#!/usr/bin/env python3
"""LocationWire conformance testee "python-behavior": an independent implementation of proto/BEHAVIOR.md
(recording and upload scheduling, fences, region planning, arming), written from the spec text alone, to judge
the `recording`, `fences`, `planning` and `arming` vector families. It speaks the testee protocol of
proto/locationwire/conformance/v1/testee.proto on stdin and stdout. Run build.sh first.

Every place where the spec text leaves a choice open is marked "UNSPECIFIED:" in the engine modules; README.md
lists them. `answer_behavior` is the dispatch to merge into another testee: it returns the TesteeResponse for the
four behaviour request kinds and None for every other kind.
"""
import copy
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from google.protobuf import __version__, message  # noqa: E402

from pb import t  # noqa: E402
import arming  # noqa: E402
import fences  # noqa: E402
import planning  # noqa: E402
import recording  # noqa: E402

BEHAVIOR_FEATURES = [t.FEATURE_RECORDING, t.FEATURE_FENCES, t.FEATURE_PLANNING, t.FEATURE_ARMING]
HELLO = t.HelloResponse(protocol_version=1, implementation="python-behavior", version=__version__,
                        features=BEHAVIOR_FEATURES)
# request kind -> (engine, response class)
BEHAVIOR = {
    "recording": (recording.run, t.RecordingResponse),
    "fences": (fences.run, t.FenceResponse),
    "planning": (planning.run, t.PlanningResponse),
    "arming": (arming.run, t.ArmingResponse),
}


def understood(req):
    """False when the request carries fields unknown to this testee's schema (a newer runner)."""
    stripped = copy.deepcopy(req)
    stripped.DiscardUnknownFields()
    return stripped.ByteSize() == req.ByteSize()


def answer_behavior(req):
    """The TesteeResponse to a behaviour request (recording, fences, planning, arming); None for other kinds."""
    kind = req.WhichOneof("kind")
    if kind not in BEHAVIOR:
        return None
    engine, cls = BEHAVIOR[kind]
    sub = getattr(req, kind)
    if not understood(req):
        resp = cls(vector_id=sub.vector_id, runtime_error="request not understood: unknown fields")
    else:
        try:
            resp = engine(sub)
        except Exception as e:  # a bug here costs one vector, never the session
            traceback.print_exc(file=sys.stderr)
            resp = cls(vector_id=sub.vector_id, runtime_error=f"{type(e).__name__}: {e}")
    return t.TesteeResponse(**{kind: resp})


def answer(req):
    kind = req.WhichOneof("kind")
    if kind == "hello":
        if not understood(req):
            sys.exit("behavior_testee.py: hello has unknown fields: this testee is older than the runner's protocol")
        print(f"python-behavior {__version__}: hello from {req.hello.runner!r}", file=sys.stderr)
        return t.TesteeResponse(hello=HELLO)
    resp = answer_behavior(req)
    if resp is not None:
        return resp
    if kind in ("vector", "session", "ledger"):
        cls = {"vector": t.VectorResponse, "session": t.SessionResponse, "ledger": t.LedgerResponse}[kind]
        sub = getattr(req, kind)
        return t.TesteeResponse(**{kind: cls(vector_id=sub.vector_id, skipped="python-behavior runs behaviour only")})
    return t.TesteeResponse(vector=t.VectorResponse(runtime_error="request not understood"))


def main():
    while header := sys.stdin.buffer.read(4):  # end of input where a length is expected: the session is over
        size = int.from_bytes(header, "little")
        if len(header) < 4 or len(body := sys.stdin.buffer.read(size)) < size:
            sys.exit("behavior_testee.py: input ends inside a frame")
        try:
            resp = answer(t.TesteeRequest.FromString(body))
        except message.DecodeError as e:
            resp = t.TesteeResponse(vector=t.VectorResponse(runtime_error=f"cannot parse TesteeRequest: {e}"))
        out = resp.SerializeToString()
        sys.stdout.buffer.write(len(out).to_bytes(4, "little") + out)
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
