#!/usr/bin/env python3
"""Smoke test for conformance testees: starts each one, says hello, sends a handful of vectors, prints the
answers side by side and fails (exit 1) when a testee breaks the protocol or answers runtime_error where it
should not.

    smoke.py                              the five codec peers, as their build.sh scripts leave them
    smoke.py --pure                       the same plus pure-Python protobuf as a sixth opinion
    smoke.py --testee 'CMD ARGS' [...]    only the given testee command lines (shell words, e.g. 'env X=1 cmd')

Build the testees first (each folder's build.sh). Needs protoc and the Python protobuf package: the vectors are
built with Python code generated from proto/ into a temporary folder.
"""
import argparse, os, select, shlex, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROTO = os.path.join(ROOT, "proto")
TIMEOUT_S = 20

DEFAULT_TESTEES = [
    [os.path.join(HERE, "cpp", "build", "cpp-testee")],
    [os.path.join(HERE, "c", "build", "c-testee")],
    [sys.executable, os.path.join(HERE, "python", "testee.py")],
    [os.path.join(HERE, "swift-protobuf", "SwiftProtobufTestee", ".build", "release", "SwiftProtobufTestee")],
    [os.path.join(HERE, "upb", "build", "upb-testee"), os.path.join(HERE, "upb", "build", "locationwire.descriptors.binpb")],
]
PURE_PYTHON = ["env", "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python", "LOCWIRE_ALLOW_PURE_PYTHON=1"] + DEFAULT_TESTEES[2]


def generate_python(into):
    files = [os.path.join("locationwire", "v1", f) for f in sorted(os.listdir(os.path.join(PROTO, "locationwire", "v1")))
             if f.endswith(".proto")] + [os.path.join("locationwire", "conformance", "v1", "testee.proto")]
    subprocess.run(["protoc", "-I", PROTO, f"--python_out={into}"] + files, check=True)
    sys.path.insert(0, into)


class Testee:
    """One running testee process."""

    def __init__(self, argv, t):
        self.argv, self.t = argv, t
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.name = " ".join(argv)

    def _read(self, n):
        data = b""
        while len(data) < n:
            ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT_S)
            if not ready:
                raise RuntimeError(f"no answer within {TIMEOUT_S} s")
            chunk = os.read(self.proc.stdout.fileno(), n - len(data))
            if not chunk:
                raise RuntimeError(f"testee closed stdout (exit status {self.proc.poll()})")
            data += chunk
        return data

    def exchange(self, request, extra=b""):
        """Sends request (plus `extra` raw bytes appended to it) and returns the TesteeResponse."""
        body = request.SerializeToString() + extra
        self.proc.stdin.write(struct.pack("<I", len(body)) + body)
        self.proc.stdin.flush()
        (n,) = struct.unpack("<I", self._read(4))
        return self.t.TesteeResponse.FromString(self._read(n))

    def close(self):
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return "killed (no exit after EOF)"


def build_vectors(t, v1):
    """(id, message type, binary or JSON input, checks, expected result kinds or None for "anything but
    runtime_error", tailor). tailor: drop the output checks a testee did not declare a feature for (as a runner
    would), so that protobuf-c still shows its binary output; untailored vectors send the checks as they are."""
    BIN, JSON = t.CHECK_BINARY_OUTPUT, t.CHECK_JSON_OUTPUT
    fixes = [
        v1.LocationFix(sequence=1, time_ms=1_700_000_000_000, latitude_e7=525_200_000, longitude_e7=134_050_000,
                       horizontal_accuracy_cm=850, altitude_cm=-3_400, speed_cm_s=0, reason=v1.FIX_REASON_PERIODIC,
                       source=v1.FIX_SOURCE_GNSS, battery_percent=0, is_mock=True, pressure_hpa=1013.25),
        v1.LocationFix(sequence=2, time_ms=1_700_000_005_000, latitude_e7=-338_700_000, longitude_e7=-1_800_000_000,
                       elapsed_realtime_ms=0, floor=-2, pressure_hpa=0.1, motion_activity=v1.MOTION_ACTIVITY_WALKING),
        v1.LocationFix(sequence=18_446_744_073_709_551_615, time_ms=-1, latitude_e7=0, longitude_e7=1),
    ]
    batch = v1.LocationBatch(device_id="device-\u00fc-\u4e16", batch_id=0x0123456789ABCDEF, boot_id=2**64 - 1,
                             sent_at_ms=1_700_000_010_000, fixes=fixes, live_fix=fixes[1])
    valid = batch.SerializeToString()
    unknown99 = valid + bytes([0x98, 0x06, 0x07])  # field 99, varint 7
    return [
        ("batch-valid", "locationwire.v1.LocationBatch", valid, [BIN, JSON], None, True),
        ("batch-unknown-field-99", "locationwire.v1.LocationBatch", unknown99, [BIN, JSON], None, True),
        ("batch-truncated", "locationwire.v1.LocationBatch", valid[:-3], [BIN], None, True),
        ("invalid-utf8-device-id", "locationwire.v1.LocationBatch", bytes.fromhex("0a02c328"), [BIN, JSON], None, True),
        ("json-input", "locationwire.v1.LocationBatch",
         '{"deviceId":"d","fixes":[{"sequence":"1","latitudeE7":0}]}', [BIN, JSON], None, True),
        ("json-unknown-field", "locationwire.v1.LocationBatch", '{"deviceId":"d","bogus":1}', [BIN, JSON], None, True),
        ("fix-pressure-negative-zero", "locationwire.v1.LocationFix",
         bytes.fromhex("0801") + bytes.fromhex("bd01") + struct.pack("<f", -0.0), [BIN, JSON], None, True),
        ("json-pressure-negative-zero", "locationwire.v1.LocationFix", '{"sequence":"1","pressureHpa":-0.0}',
         [BIN, JSON], None, True),
        ("string-with-nul", "locationwire.v1.LocationBatch", bytes.fromhex("0a03610062"), [BIN, JSON], None, True),
        ("unknown-group-99", "locationwire.v1.LocationBatch", bytes.fromhex("9b0608019c060a0164"), [BIN, JSON], None,
         True),
        ("fix-pressure-nan", "locationwire.v1.LocationFix", bytes.fromhex("bd01") + bytes.fromhex("0000c07f"),
         [BIN, JSON], None, True),
        # Protocol robustness: these have fixed expected answers.
        ("unknown-message-type", "locationwire.v1.NoSuchMessage", b"", [BIN], {"skipped"}, False),
        ("check-validate", "locationwire.v1.LocationBatch", valid, [BIN, t.CHECK_VALIDATE], {"skipped"}, False),
        ("check-unknown-enum-42", "locationwire.v1.LocationBatch", valid, [BIN, 42], {"runtime_error"}, False),
        ("batch-valid-untailored", "locationwire.v1.LocationBatch", valid, [BIN, JSON], {"decoded", "skipped"}, False),
    ]


def describe(resp):
    kind = resp.WhichOneof("result")
    if kind == "decoded":
        parts = []
        if resp.decoded.binary_output:
            parts.append("bin=" + resp.decoded.binary_output.hex())
        if resp.decoded.json_output:
            parts.append("json=" + resp.decoded.json_output)
        return "decoded " + " ".join(parts)
    if kind == "parse_error":
        return "parse_error " + repr(resp.parse_error.message)
    return f"{kind} {getattr(resp, kind)!r}" if kind else "NO RESULT"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--testee", action="append", help="a testee command line (repeatable)")
    parser.add_argument("--pure", action="store_true", help="also run the Python testee on pure-Python protobuf")
    args = parser.parse_args()
    commands = [shlex.split(c) for c in args.testee] if args.testee else DEFAULT_TESTEES + ([PURE_PYTHON] if args.pure else [])

    with tempfile.TemporaryDirectory() as gen:
        generate_python(gen)
        from locationwire.conformance.v1 import testee_pb2 as t
        from locationwire.v1 import location_batch_pb2, location_fix_pb2

        class V1:  # the two modules' names in one namespace
            pass
        for module in (location_fix_pb2, location_batch_pb2):
            for name in dir(module):
                setattr(V1, name, getattr(module, name))
        vectors = build_vectors(t, V1)

    failures, testees = [], []
    for argv in commands:
        testee = None
        try:
            testee = Testee(argv, t)
            hello = testee.exchange(t.TesteeRequest(hello=t.HelloRequest(protocol_version=1, runner="smoke.py")))
            if hello.WhichOneof("kind") != "hello" or hello.hello.protocol_version != 1:
                raise RuntimeError(f"bad hello answer: {hello}")
            testee.name = hello.hello.implementation
            testee.features = set(hello.hello.features)
            print(f"{testee.name} {hello.hello.version}: features "
                  f"{', '.join(t.Feature.Name(f) for f in hello.hello.features)}   ({' '.join(argv)})")
            testees.append(testee)
        except Exception as e:
            failures.append(f"{' '.join(argv)}: hello failed: {e}")
            if testee is not None:
                testee.proc.kill()
    width = max([len(x.name) for x in testees] + [10])

    needs = {t.CHECK_BINARY_OUTPUT: t.FEATURE_BINARY_OUTPUT, t.CHECK_JSON_OUTPUT: t.FEATURE_JSON_OUTPUT}
    for vector_id, message_type, data, checks, expected, tailor in vectors:
        shown = data.hex() if isinstance(data, bytes) else data
        print(f"\n== {vector_id}: {message_type} {'binary' if isinstance(data, bytes) else 'JSON'} {shown[:120]}"
              f"{'...' if len(shown) > 120 else ''}  checks={[t.Check.Name(c) if c in t.Check.values() else c for c in checks]}")
        outputs, kinds = {}, {}
        for testee in testees:
            sent = [c for c in checks if not tailor or needs.get(c) in testee.features]
            request = t.VectorRequest(vector_id=vector_id, message_type=message_type, checks=sent)
            if isinstance(data, bytes):
                request.binary_input = data
            else:
                request.json_input = data
            try:
                resp = testee.exchange(t.TesteeRequest(vector=request)).vector
            except Exception as e:
                failures.append(f"{testee.name} {vector_id}: {e}")
                print(f"  {testee.name:<{width}}  PROTOCOL FAILURE: {e}")
                continue
            kind = resp.WhichOneof("result")
            dropped = "" if sent == checks else f"[without {', '.join(t.Check.Name(c) for c in checks if c not in sent)}] "
            print(f"  {testee.name:<{width}}  {dropped}{describe(resp)}")
            if resp.vector_id != vector_id:
                failures.append(f"{testee.name} {vector_id}: vector_id echoed as {resp.vector_id!r}")
            if expected is not None and kind not in expected:
                failures.append(f"{testee.name} {vector_id}: expected {sorted(expected)}, got {kind}")
            if expected is None and kind in ("runtime_error", None):
                failures.append(f"{testee.name} {vector_id}: {kind}: {describe(resp)}")
            if kind == "decoded":
                outputs[testee.name] = resp.decoded
            kinds.setdefault(kind, []).append(testee.name)
        if len(kinds) > 1:
            print("  -> results differ: " + " | ".join(f"{k}: {', '.join(n)}" for k, n in kinds.items()))
        if len(outputs) > 1:
            for field in ("binary_output", "json_output"):
                values = {name: getattr(d, field) for name, d in outputs.items() if getattr(d, field)}
                if len(set(values.values())) > 1:
                    groups = {}
                    for name, value in values.items():
                        groups.setdefault(value, []).append(name)
                    print(f"  -> {field} differs: " + " | ".join(", ".join(g) for g in groups.values()))

    # The protocol's robustness rules: a request the testee does not understand gets runtime_error, echoing the id.
    print("\n== protocol: request with an unknown field (VectorRequest field 15) / vector without input")
    for testee in testees:
        vector = t.VectorRequest(vector_id="unknown-request-field", message_type="locationwire.v1.LocationFix",
                                 binary_input=b"", checks=[t.CHECK_BINARY_OUTPUT])
        vector_bytes = vector.SerializeToString() + bytes([0x78, 0x01])  # field 15, varint 1
        no_input = t.VectorRequest(vector_id="no-input", message_type="locationwire.v1.LocationFix")
        try:
            answers = [testee.exchange(t.TesteeRequest(), extra=bytes([0x12, len(vector_bytes)]) + vector_bytes).vector,
                       testee.exchange(t.TesteeRequest(vector=no_input)).vector]
        except Exception as e:
            failures.append(f"{testee.name} protocol: {e}")
            continue
        print(f"  {testee.name:<{width}}  " + " / ".join(describe(a) for a in answers))
        for resp, vector_id in zip(answers, ["unknown-request-field", "no-input"]):
            if resp.WhichOneof("result") != "runtime_error" or resp.vector_id != vector_id:
                failures.append(f"{testee.name} {vector_id}: expected runtime_error echoing the id, got {describe(resp)}")

    for testee in testees:
        status = testee.close()
        if status != 0:
            failures.append(f"{testee.name}: exit status {status} after EOF (expected 0)")
    print()
    if failures:
        print(f"FAILED ({len(failures)}):")
        for failure in failures:
            print("  " + failure)
        return 1
    print(f"OK: {len(testees)} testees answered {len(vectors)} vectors each without protocol failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
