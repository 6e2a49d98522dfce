#!/usr/bin/env python3
"""LocationWire conformance testee for the official Python protobuf package (upb backend): speaks the testee
protocol of proto/locationwire/conformance/v1/testee.proto on stdin and stdout. Its messages come from the *_pb2
modules build.sh generates (needs protoc), or with --descriptors FILE from a descriptor set (schema.py; the release
archive ships one). LOCWIRE_ALLOW_PURE_PYTHON=1 also admits the pure-Python backend.
"""
import copy, json, os, sys

from google.protobuf import __version__, descriptor_pool, json_format, message, message_factory
from google.protobuf.internal import api_implementation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema import load_testee_protocol  # noqa: E402

t = load_testee_protocol(sys.argv[1:])  # every locationwire.v1 message is in the default pool, found by name

BACKEND = api_implementation.Type()
if BACKEND != "upb" and os.environ.get("LOCWIRE_ALLOW_PURE_PYTHON") != "1":
    sys.exit(f"testee.py: protobuf backend is {BACKEND!r}, not 'upb' (set LOCWIRE_ALLOW_PURE_PYTHON=1 to allow)")
HELLO = t.HelloResponse(
    protocol_version=1, implementation="python-upb" if BACKEND == "upb" else "python-pure", version=__version__,
    features=[t.FEATURE_BINARY_INPUT, t.FEATURE_BINARY_OUTPUT, t.FEATURE_JSON_INPUT, t.FEATURE_JSON_OUTPUT])
UNSUPPORTED_CHECKS = {t.CHECK_VALIDATE, t.CHECK_COMPACT_TO_ROWS, t.CHECK_ROWS_TO_COMPACT}


def run_vector(req):
    """Decodes the vector's input; returns a VectorResponse with every output its checks ask for."""
    resp = t.VectorResponse(vector_id=req.vector_id)
    try:  # the pool also holds the protocol's own messages: admit only locationwire.v1 ones
        descriptor = descriptor_pool.Default().FindMessageTypeByName(req.message_type)
        cls = message_factory.GetMessageClass(descriptor) if descriptor.file.package == "locationwire.v1" else None
    except KeyError:
        cls = None
    if not (UNSUPPORTED_CHECKS | {t.CHECK_BINARY_OUTPUT, t.CHECK_JSON_OUTPUT}).issuperset(req.checks):
        resp.runtime_error = f"unknown check in {list(req.checks)}"  # a newer runner: fail loudly, never guess
    elif UNSUPPORTED_CHECKS.intersection(req.checks):
        resp.skipped = "not supported: " + ", ".join(t.Check.Name(c) for c in req.checks if c in UNSUPPORTED_CHECKS)
    elif cls is None:
        resp.skipped = f"unknown message type {req.message_type!r}"
    elif req.WhichOneof("input") is None:
        resp.runtime_error = "vector has no input"
    else:
        try:  # default JSON options: unknown JSON fields are errors
            binary = req.HasField("binary_input")
            msg = cls.FromString(req.binary_input) if binary else json_format.Parse(req.json_input, cls())
        except (message.DecodeError, json_format.ParseError, UnicodeDecodeError) as e:
            # Invalid UTF-8 in a string field: upb raises DecodeError, pure Python UnicodeDecodeError.
            resp.parse_error.message = f"{type(e).__name__}: {e}"
            return resp
        resp.decoded.SetInParent()  # "decoded" even when no output is asked for
        if t.CHECK_BINARY_OUTPUT in req.checks:
            resp.decoded.binary_output = msg.SerializeToString(deterministic=True)
        if t.CHECK_JSON_OUTPUT in req.checks:
            resp.decoded.json_output = json.dumps(json_format.MessageToDict(msg), separators=(",", ":"))
    return resp


def answer(req):
    """The TesteeResponse to one TesteeRequest."""
    stripped = copy.deepcopy(req)  # fields unknown to this testee's schema mean a newer runner
    stripped.DiscardUnknownFields()
    understood = stripped.ByteSize() == req.ByteSize()
    if (kind := req.WhichOneof("kind")) == "hello":
        if not understood:  # a hello cannot carry runtime_error: stop instead
            sys.exit("testee.py: hello has unknown fields: this testee is older than the runner's protocol")
        print(f"{HELLO.implementation} {__version__}: hello from {req.hello.runner!r}", file=sys.stderr)
        return t.TesteeResponse(hello=HELLO)
    if kind in ("session", "ledger"):  # a codec only: no device or server engine
        reply = getattr(t, kind.capitalize() + "Response")(vector_id=getattr(req, kind).vector_id, skipped=kind)
        return t.TesteeResponse(**{kind: reply})
    resp = t.VectorResponse(vector_id=req.vector.vector_id)
    if kind != "vector" or not understood:
        resp.runtime_error = "request not understood: this testee is older than the runner's protocol"
    else:
        try:
            resp = run_vector(req.vector)
        except Exception as e:  # a bug here costs one vector, never the session
            resp.runtime_error = f"{type(e).__name__}: {e}"
    return t.TesteeResponse(vector=resp)


def main():
    while header := sys.stdin.buffer.read(4):  # end of input where a length is expected: the session is over
        size = int.from_bytes(header, "little")
        if len(header) < 4 or len(body := sys.stdin.buffer.read(size)) < size:
            sys.exit("testee.py: input ends inside a frame")
        try:
            resp = answer(t.TesteeRequest.FromString(body))
        except (message.DecodeError, UnicodeDecodeError) as e:  # pure Python: bad UTF-8 is UnicodeDecodeError
            resp = t.TesteeResponse(vector=t.VectorResponse(runtime_error=f"cannot parse TesteeRequest: {e}"))
        out = resp.SerializeToString()
        sys.stdout.buffer.write(len(out).to_bytes(4, "little") + out)
        sys.stdout.buffer.flush()  # the runner waits for every response


if __name__ == "__main__":
    main()
