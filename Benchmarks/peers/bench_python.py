#!/usr/bin/env python3
"""bench_python.py: Python's official protobuf on its upb backend, as a benchmark harness speaking
Benchmarks/peers/PROTOCOL.md on stdin/stdout.

    python3 Benchmarks/peers/bench_python.py --workloads DIR [--python-gen DIR]

Operations, one per iteration:
    decode      MessageClass.FromString(bytes): a new message (upb parses it in C into the message's arena)
    encode      SerializeToString() of a message decoded in prepare
    json-print  json_format.MessageToDict(message), written by json.dumps with separators (",", ":"): the same
                work as json_format.MessageToJson, whose output always has spaces after "," and ":" (it has no
                option for the compact layout of C++'s MessageToJsonString, which the workloads' JSON texts use)
    json-parse  json_format.Parse(text, MessageClass()) of the input's JSON text (a str, decoded in prepare)
json_format is pure Python whatever the backend, so the JSON operations measure Python, not upb; and every
operation is driven from Python, so no row of this harness is native upb (build-upb/bench_upb is). Imports the
code Benchmarks/peers/build.sh generates into build/python (protoc --python_out).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from itertools import repeat
from pathlib import Path

import google.protobuf
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import DecodeError

HERE = Path(__file__).resolve().parent
PROG = "bench_python"
IMPLEMENTATION = "python-protobuf-upb-backend"
WARMUP_MS = 200  # no JIT: CPython 3.11 specializes its bytecode after a few runs of a loop
NOTES = (
    "a Python harness over upb's C, not native upb; json-print and json-parse run json_format, which is pure Python "
    "whatever the backend; allocations and allocated_bytes are null: upb allocates its arenas with malloc, which "
    "tracemalloc does not see, so it would count only the Python objects"
)
TYPE_PACKAGE = "locationwire.v1."


class CommandError(Exception):
    """A command the harness cannot carry out: answered with {"error": ...}."""


def note(message: str):
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def load_protobuf(gen_dir: Path):
    from google.protobuf.internal import api_implementation

    backend = api_implementation.Type()
    if backend != "upb":
        variable = os.environ.get("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION", "")
        note(
            f"the protobuf backend is '{backend}', not 'upb' (PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION={variable!r});"
            " this harness measures upb only"
        )
        sys.exit(1)
    modules_dir = gen_dir / "locationwire" / "v1"
    modules = sorted(modules_dir.glob("*_pb2.py"))
    if not modules:
        note(f"no generated code in {modules_dir}; run Benchmarks/peers/build.sh first (or pass --python-gen)")
        sys.exit(1)
    sys.path.insert(0, str(gen_dir))
    for path in modules:
        importlib.import_module(f"locationwire.v1.{path.stem}")
    return google.protobuf.__version__


def read_frames(path: Path) -> list[bytes]:
    """Each frame: a 4-byte little-endian length and that many bytes, to the end of the file."""
    data = path.read_bytes()
    frames = []
    offset = 0
    while offset < len(data):
        if len(data) - offset < 4:
            raise CommandError(f"{path}: a frame's length is cut off")
        length = int.from_bytes(data[offset : offset + 4], "little")
        offset += 4
        if length > len(data) - offset:
            raise CommandError(f"{path}: a frame runs past the end")
        frames.append(data[offset : offset + length])
        offset += length
    return frames


class Workload:
    """One workload's inputs, and what the operations derive from them (made by the first prepare that needs it)."""

    def __init__(self, directory: Path, name: str):
        if not name or "/" in name:
            raise CommandError(f'bad workload name "{name}"')
        self.name = name
        self.directory = directory
        try:
            self.meta = json.loads((directory / f"{name}.meta.json").read_text())
        except FileNotFoundError:
            raise CommandError(f"no workload {name} in {directory}") from None
        except (OSError, ValueError) as error:
            raise CommandError(f"{name}.meta.json: {error}") from None
        type_name = self.meta.get("type") if isinstance(self.meta, dict) else None
        if not isinstance(type_name, str) or not type_name.startswith(TYPE_PACKAGE):
            raise CommandError(f"{name}.meta.json: no \"type\" in locationwire.v1")
        try:
            descriptor = descriptor_pool.Default().FindMessageTypeByName(type_name)
        except KeyError:
            raise CommandError(f"type {type_name} is not a generated message of proto/locationwire/v1") from None
        self.cls = message_factory.GetMessageClass(descriptor)
        self.inputs = read_frames(directory / f"{name}.binpb.frames")
        if len(self.inputs) != self.meta_int("inputs"):
            raise CommandError(f"{name}: {len(self.inputs)} frames, meta says {self.meta_int('inputs')}")
        total = sum(len(i) for i in self.inputs)
        if total != self.meta_int("input_bytes"):
            raise CommandError(f"{name}: {total} input bytes, meta says {self.meta_int('input_bytes')}")
        self._messages = None
        self.json_texts = None

    def meta_int(self, key: str) -> int:
        value = self.meta.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise CommandError(f'{self.name}.meta.json has no integer "{key}"')
        return value

    def decode_all(self) -> list:
        decoded = []
        for i, data in enumerate(self.inputs):
            try:
                decoded.append(self.cls.FromString(data))
            except DecodeError as error:
                raise CommandError(f"{self.name} input {i} does not decode as {self.cls.DESCRIPTOR.full_name}: {error}")
        return decoded

    def messages(self) -> list:
        """The decoded inputs the encodes and the JSON operations start from, kept once made."""
        if self._messages is None:
            self._messages = self.decode_all()
        return self._messages


class Prepared:
    """A prepared (workload, operation): what one iteration calls on which items (one per input), and its cursor,
    which persists across runs."""

    def __init__(self, items: list, operation):
        self.items = items
        self.operation = operation
        self.cursor = 0


class Sink:
    """Where each loop's last result goes after the second clock read."""

    value = None


# --- the timing loop ---------------------------------------------------------------------------------------------


def print_json(message) -> str:
    """json-print's operation (see the module's docstring)."""
    return json.dumps(json_format.MessageToDict(message), separators=(",", ":"), ensure_ascii=False)


def timed_loop(p: Prepared, iterations: int) -> int:
    """The protocol's loop: the operation on item[cursor] and the cursor, nothing else between the clock reads;
    returns the elapsed ns. One loop serves every operation: decode and encode call the library's C function
    directly (cls.FromString(data), cls.SerializeToString(message)), and the JSON operations add one Python call
    (about 50 ns) to operations that take tens of microseconds or more."""
    items = p.items
    operation = p.operation
    count = len(items)
    cursor = p.cursor
    last = None
    now = time.perf_counter_ns
    start = now()
    for _ in repeat(None, iterations):
        last = operation(items[cursor])
        cursor += 1
        if cursor == count:
            cursor = 0
    elapsed = now() - start
    p.cursor = cursor
    Sink.value = last
    return elapsed


OPERATIONS = ["decode", "encode", "json-print", "json-parse"]


class Harness:
    def __init__(self, directory: Path, version: str):
        self.directory = directory
        self.version = version
        self.workloads: dict[str, Workload] = {}
        self.prepared: dict[tuple[str, str], Prepared] = {}

    def workload(self, name: str) -> Workload:
        if name not in self.workloads:
            self.workloads[name] = Workload(self.directory, name)
        return self.workloads[name]

    def hello(self):
        return {
            "implementation": IMPLEMENTATION,
            "version": self.version,
            "operations": OPERATIONS,
            "warmup_ms": WARMUP_MS,
            "notes": NOTES,
        }

    def prepare(self, name: str, operation: str):
        if operation not in OPERATIONS:
            raise CommandError(f"unknown operation {operation}")
        w = self.workload(name)
        json_path = self.directory / f"{name}.json.frames"
        if operation.startswith("json-") and not json_path.exists():
            reason = f"the workload has no JSON texts ({name}.json.frames): it measures binary only"
            return {"ok": False, "reason": reason}
        # Every input must decode, whatever the operation; decode itself keeps no decoded messages.
        messages = w.decode_all() if operation == "decode" else w.messages()
        answer = {"ok": True}
        if operation == "encode":
            total = 0
            for i, message in enumerate(messages):
                encoded = message.SerializeToString()
                if w.cls.FromString(encoded) != message:
                    raise CommandError(f"{name} input {i}: its encoding decodes to a different message")
                total += len(encoded)
            canonical = w.meta_int("canonical_bytes")
            if total != canonical:
                raise CommandError(f"{name}: the encodings total {total} bytes, meta canonical_bytes is {canonical}")
            answer["encoded_bytes"] = total
        elif operation.startswith("json-"):
            if w.json_texts is None:
                raw = read_frames(json_path)
                if len(raw) != len(w.inputs):
                    raise CommandError(f"{name}: {len(raw)} JSON texts for {len(w.inputs)} inputs")
                w.json_texts = [text.decode("utf-8") for text in raw]
            printed_bytes = 0
            differing = 0
            for i, message in enumerate(messages):
                # JSON carries no unknown fields: compare with the decoded input without them.
                expected = w.cls()
                expected.CopyFrom(message)
                expected.DiscardUnknownFields()
                if json_format.Parse(w.json_texts[i], w.cls()) != expected:
                    raise CommandError(f"{name} input {i}: its JSON text parses to a different message")
                printed = print_json(message)
                if json_format.Parse(printed, w.cls()) != expected:
                    raise CommandError(f"{name} input {i}: the printed JSON parses to a different message")
                printed_bytes += len(printed.encode("utf-8"))
                differing += printed != w.json_texts[i]
            if operation == "json-print":
                answer["json_bytes"] = printed_bytes
                if differing:
                    note(
                        f"{name} json-print: {differing} of {len(messages)} texts differ from {name}.json.frames "
                        f"({printed_bytes} bytes against {w.meta_int('json_bytes')}); each parses back to the same"
                        " message"
                    )
        cls = w.cls
        if operation == "decode":
            p = Prepared(w.inputs, cls.FromString)
        elif operation == "encode":
            p = Prepared(messages, cls.SerializeToString)
        elif operation == "json-print":
            p = Prepared(messages, print_json)
        else:
            parse = json_format.Parse
            p = Prepared(w.json_texts, lambda text: parse(text, cls()))
        self.prepared[(name, operation)] = p
        return answer

    def prepared_for(self, name: str, operation: str) -> Prepared:
        p = self.prepared.get((name, operation))
        if p is None:
            raise CommandError(f"{name} {operation} was not prepared")
        return p

    def run(self, name: str, operation: str, iterations: int):
        p = self.prepared_for(name, operation)
        return {"ns": timed_loop(p, iterations)}

    def memory(self, name: str, operation: str, iterations: int):
        p = self.prepared_for(name, operation)
        Path("/proc/self/clear_refs").write_text("5")
        timed_loop(p, iterations)
        peak = None
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
        if peak is None:
            raise CommandError("/proc/self/status has no VmHWM")
        return {"allocations": None, "allocated_bytes": None, "peak_rss_kib": peak}

    def answer(self, line: str):
        """The answer to one command line, or None for quit."""
        words = line.split(" ")
        command, arity = words[0], len(words)
        if command == "hello" and arity == 1:
            return self.hello()
        if command == "prepare" and arity == 3:
            return self.prepare(words[1], words[2])
        if command in ("run", "memory") and arity == 4:
            try:
                iterations = int(words[3])
            except ValueError:
                iterations = 0
            if iterations < 1:
                raise CommandError(f'ITERATIONS must be a positive integer, got "{words[3]}"')
            return (self.run if command == "run" else self.memory)(words[1], words[2], iterations)
        if command == "release" and arity == 2:
            # Drops the workload's inputs and every operation prepared on it: one workload in memory at a time.
            self.workloads.pop(words[1], None)
            for key in [key for key in self.prepared if key[0] == words[1]]:
                del self.prepared[key]
            return {"ok": True}
        if command == "quit" and arity == 1:
            return None
        if command not in ("hello", "prepare", "run", "memory", "release", "quit"):
            raise CommandError(f'unknown command "{command}"')
        raise CommandError(f'wrong number of words for {command}: "{line}"')


def main():
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", required=True, type=Path, help="the workload directory (PROTOCOL.md)")
    parser.add_argument(
        "--python-gen", type=Path, default=HERE / "build" / "python", help="generated code (default build/python)"
    )
    args = parser.parse_args()
    if not args.workloads.is_dir():
        note(f"cannot open workload directory {args.workloads}")
        sys.exit(1)
    harness = Harness(args.workloads, load_protobuf(args.python_gen))
    for line in sys.stdin:
        try:
            answer = harness.answer(line.rstrip("\n"))
        except CommandError as error:
            answer = {"error": str(error)}
        except Exception as error:  # noqa: BLE001 - the library's failure: answered, and the coordinator stops
            answer = {"error": f"{type(error).__name__}: {error}"}
        if answer is None:
            break
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
