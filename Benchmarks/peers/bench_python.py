#!/usr/bin/env python3
"""bench_python.py: Python's official protobuf on its upb backend, on the workloads of a directory.

    python3 Benchmarks/peers/bench_python.py --workloads DIR [--samples K] [--min-sample-ms M] [--only WORKLOAD]...
                                             [--op OPERATION]... [--warmup-ms W] [--python-gen DIR]

Operations: decode (FromString), decode-read-all (FromString, then read every field recursively and every
element of repeated fields), encode (SerializeToString), json-print (json_format.MessageToJson, default
options), json-parse (json_format.Parse of that JSON into a new message). json_format is pure Python whatever the
backend, so the JSON rows measure Python, not upb; and every operation is driven from Python, so none of the rows is
native upb (issue 14: the label says so). Same method and output as bench_cpp
and bench_c (README.md); allocations_per_op is null. Imports the code build.sh generated into build/python.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import sys
import time
from itertools import repeat
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROG = "bench_python"
IMPLEMENTATION = "python-protobuf-upb-backend"
OPERATIONS = ["decode", "decode-read-all", "encode", "json-print", "json-parse"]


def fail(message: str, status: int = 1):
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(status)


def note(message: str):
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def positive_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def non_negative_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text}")
    return value


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def parse_args():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", required=True, type=Path, help="directory of NAME.binpb + NAME.json")
    parser.add_argument("--samples", type=positive_int, default=15, help="samples per operation (default 15)")
    parser.add_argument("--min-sample-ms", type=positive_float, default=100.0, help="minimum length of a sample")
    parser.add_argument("--warmup-ms", type=non_negative_float, default=200.0, help="minimum warm-up (default 200)")
    parser.add_argument("--only", action="append", default=[], metavar="WORKLOAD", help="run only these workloads")
    parser.add_argument("--op", action="append", default=[], choices=OPERATIONS, help="run only these operations")
    parser.add_argument("--alloc-ops", type=int, default=1000, help="accepted for symmetry; Python counts none")
    parser.add_argument(
        "--python-gen", type=Path, default=HERE / "build" / "python", help="generated code (default build/python)"
    )
    return parser.parse_args()


def load_protobuf(gen_dir: Path):
    from google.protobuf.internal import api_implementation

    backend = api_implementation.Type()
    if backend != "upb":
        fail(
            f"the protobuf backend is '{backend}', not 'upb' "
            f"(PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION={os.environ.get('PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION', '')!r});"
            " this harness measures upb only"
        )
    modules_dir = gen_dir / "locationwire" / "v1"
    modules = sorted(modules_dir.glob("*_pb2.py"))
    if not modules:
        fail(f"no generated code in {modules_dir}; run Benchmarks/peers/build.sh first (or pass --python-gen)")
    sys.path.insert(0, str(gen_dir))
    for path in modules:
        importlib.import_module(f"locationwire.v1.{path.stem}")
    import google.protobuf
    from google.protobuf import descriptor_pool, json_format, message_factory

    return google.protobuf.__version__, descriptor_pool.Default(), message_factory, json_format


def load_workloads(directory: Path, only: list[str]):
    if not directory.is_dir():
        fail(f"cannot open workload directory {directory}")
    names = sorted(p.name[: -len(".binpb")] for p in directory.iterdir() if p.name.endswith(".binpb") and len(p.name) > 6)
    for name in only:
        if name not in names:
            fail(f"--only {name}: no {name}.binpb in {directory}")
    if only:
        names = [n for n in names if n in only]
    if not names:
        fail(f"no *.binpb workloads in {directory}")
    workloads = []
    for name in names:
        data = (directory / f"{name}.binpb").read_bytes()
        meta_path = directory / f"{name}.json"
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as error:
            fail(f"{meta_path}: {error}")
        if not isinstance(meta, dict) or not isinstance(meta.get("type"), str):
            fail(f"{meta_path}: metadata has no \"type\"")
        fixes = meta.get("fixes")
        if not isinstance(fixes, int) or isinstance(fixes, bool) or fixes < 0:
            fail(f"{meta_path}: \"fixes\" must be a non-negative integer")
        workloads.append({"name": name, "type": meta["type"], "fixes": fixes, "data": data})
    return workloads


# --- reading every field ----------------------------------------------------------------------------------------

SCALAR, MESSAGE, REPEATED_SCALAR, REPEATED_MESSAGE, MAP_SCALAR, MAP_MESSAGE = range(6)


def make_reader(descriptor, readers):
    """A function that reads every field of a message of this type (getattr; unset fields give their default),
    recurses into present sub-messages and every element of repeated fields and maps; returns the number of
    values read."""
    if descriptor.full_name in readers:
        return readers[descriptor.full_name]
    plan = []

    def read(message):
        count = 0
        for name, kind, sub in plan:
            value = getattr(message, name)
            if kind == SCALAR:
                count += 1
            elif kind == MESSAGE:
                if message.HasField(name):
                    count += sub[0](value)
            elif kind == REPEATED_SCALAR:
                for _ in value:
                    count += 1
            elif kind == REPEATED_MESSAGE:
                read_element = sub[0]
                for element in value:
                    count += read_element(element)
            elif kind == MAP_SCALAR:
                for key in value:
                    value[key]
                    count += 2
            else:
                read_value = sub[0]
                for key in value:
                    count += 1 + read_value(value[key])
        return count

    readers[descriptor.full_name] = read
    for field in descriptor.fields:
        sub = []
        message_type = field.message_type
        if message_type is not None and message_type.GetOptions().map_entry:
            value_type = message_type.fields_by_name["value"].message_type
            kind = MAP_MESSAGE if value_type is not None else MAP_SCALAR
            if value_type is not None:
                sub.append(make_reader(value_type, readers))
        elif field.is_repeated:
            kind = REPEATED_MESSAGE if message_type is not None else REPEATED_SCALAR
            if message_type is not None:
                sub.append(make_reader(message_type, readers))
        elif message_type is not None:
            kind = MESSAGE
            sub.append(make_reader(message_type, readers))
        else:
            kind = SCALAR
        plan.append((field.name, kind, sub))
    return read


# --- measurement ------------------------------------------------------------------------------------------------

def percentile(sorted_values, fraction):
    """Linear interpolation between closest ranks, as bench_common.c."""
    position = fraction * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def measure(run, args):
    """Warm-up for at least --warmup-ms (doubling the batch while a batch takes under 1 ms), then --samples
    samples of at least --min-sample-ms, each a series of batches of about min(1 ms, M/10)."""
    now = time.perf_counter_ns
    gc.collect()
    warmup_ns = args.warmup_ms * 1e6
    batch = 1
    warmup_start = now()
    while True:
        start = now()
        run(batch)
        end = now()
        per_op = (end - start) / batch
        if end - warmup_start >= warmup_ns:
            break
        if end - start < 1_000_000:
            batch *= 2
    sample_ns = args.min_sample_ms * 1e6
    target_batch_ns = min(1e6, sample_ns / 10)
    batch = max(1, int(target_batch_ns / per_op)) if per_op > 0 else 1000
    samples = []
    for _ in range(args.samples):
        operations = 0
        start = now()
        while True:
            run(batch)
            operations += batch
            elapsed = now() - start
            if elapsed >= sample_ns:
                break
        samples.append(elapsed / operations)
    samples.sort()
    return {
        "median": round(percentile(samples, 0.5), 2),
        "p10": round(percentile(samples, 0.1), 2),
        "p90": round(percentile(samples, 0.9), 2),
    }


class Sink:
    value = 0


def operations_for(cls, data, json_format, readers):
    """(name, check, run) per operation; check() raises on a wrong result, run(n) does n operations."""
    from_string = cls.FromString
    decoded = from_string(data)
    reader = make_reader(cls.DESCRIPTOR, readers)
    json_text = json_format.MessageToJson(decoded)
    sink = Sink()

    def expect_input(what, got):
        if got != data:
            at = next((i for i, (a, b) in enumerate(zip(got, data)) if a != b), min(len(got), len(data)))
            raise AssertionError(
                f"{what}: the result re-encodes to {len(got)} bytes, the input has {len(data)}; first difference at offset {at}"
            )

    def check_decode():
        expect_input("decode", from_string(data).SerializeToString())

    def run_decode(n):
        for _ in repeat(None, n):
            message = from_string(data)
        sink.value = message

    def check_decode_read_all():
        message = from_string(data)
        values = reader(message)
        if values <= 0:
            raise AssertionError("decode-read-all read no values")
        expect_input("decode-read-all", message.SerializeToString())
        note(f"  decode-read-all reads {values} values per message")

    def run_decode_read_all(n):
        total = 0
        for _ in repeat(None, n):
            total += reader(from_string(data))
        sink.value = total

    def check_encode():
        expect_input("encode", decoded.SerializeToString())

    def run_encode(n):
        serialize = decoded.SerializeToString
        for _ in repeat(None, n):
            out = serialize()
        sink.value = out

    def check_json():
        back = json_format.Parse(json_format.MessageToJson(decoded), cls())
        expect_input("json-print/json-parse", back.SerializeToString())

    def run_json_print(n):
        to_json = json_format.MessageToJson
        for _ in repeat(None, n):
            out = to_json(decoded)
        sink.value = out

    def run_json_parse(n):
        parse = json_format.Parse
        for _ in repeat(None, n):
            out = parse(json_text, cls())
        sink.value = out

    return [
        ("decode", check_decode, run_decode),
        ("decode-read-all", check_decode_read_all, run_decode_read_all),
        ("encode", check_encode, run_encode),
        ("json-print", check_json, run_json_print),
        ("json-parse", check_json, run_json_parse),
    ]


def main():
    args = parse_args()
    version, pool, message_factory, json_format = load_protobuf(args.python_gen)
    workloads = load_workloads(args.workloads, args.only)
    note(f"protobuf {version} (upb), {len(workloads)} workloads, {args.samples} samples of >= {args.min_sample_ms:g} ms")
    readers = {}
    for w in workloads:
        try:
            descriptor = pool.FindMessageTypeByName(w["type"])
        except KeyError:
            fail(f"{w['name']}: type {w['type']} is not in the descriptor pool (not a message of proto/locationwire/v1?)")
        cls = message_factory.GetMessageClass(descriptor)
        try:
            ops = operations_for(cls, w["data"], json_format, readers)
        except Exception as error:  # noqa: BLE001 - any decode/print failure is fatal
            fail(f"{w['name']}: the input does not decode or print as {w['type']}: {error!r}")
        for name, check, run in ops:
            if args.op and name not in args.op:
                continue
            try:
                check()
            except Exception as error:  # noqa: BLE001
                fail(f"{w['name']} {name}: check failed: {error}")
            ns = measure(run, args)
            record = {
                "implementation": IMPLEMENTATION,
                "version": version,
                "workload": w["name"],
                "operation": name,
                "bytes": len(w["data"]),
                "fixes": w["fixes"],
                "ns_per_op": ns,
                "samples": args.samples,
                "allocations_per_op": None,
            }
            print(json.dumps(record), flush=True)
            note(
                f"{w['name']:<24} {name:<15} median {ns['median']:12.1f} ns (p10 {ns['p10']:.1f}, p90 {ns['p90']:.1f}), "
                f"{len(w['data']) * 1e3 / ns['median']:.2f} MB/s"
            )


if __name__ == "__main__":
    main()
