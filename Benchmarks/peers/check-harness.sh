#!/usr/bin/env bash
# Checks that a benchmark harness speaks PROTOCOL.md: starts `HARNESS_CMD --workloads WORKLOAD_DIR`, sends hello,
# then prepare, run and memory of every operation it announces on every workload of the directory, and fails on
# an {"error": ...} answer, a malformed answer (not one line of JSON, missing or mistyped members, a check missing
# where PROTOCOL.md requires it), a harness that dies or hangs, or one that does not exit 0 on quit. It also sends
# one command that must fail (an unknown workload) and expects an {"error": ...} answer to it.
#
# Usage: check-harness.sh [--iterations N] [--only WORKLOAD]... [--op OPERATION]... [--timeout S] \
#          HARNESS_CMD WORKLOAD_DIR
#   HARNESS_CMD is one word or a quoted command line, e.g. Benchmarks/peers/build/bench_cpp or
#   "python3 Benchmarks/peers/bench_python.py". Each run and memory command uses N iterations (default: the
#   workload's input count, one full rotation, so every input goes through every operation).
# Output (stdout), one line per (workload, operation), so that two harnesses' outputs can be compared with diff
# or join: WORKLOAD OPERATION then the checks (checksum=..., encoded_bytes=..., json_bytes=...), ns/op of the run
# and the memory figures; or "not-applicable: REASON". Checks that differ from the workload's metadata
# (encoded_bytes against canonical_bytes, json_bytes against json_bytes) are noted on stderr, not failed: which
# implementation is right is the coordinator's question. Exit status 0 when every answer was well-formed.
# Needs python3.
set -euo pipefail
exec python3 - "$@" <<'PYTHON'
import argparse, json, os, queue, re, shlex, subprocess, sys, threading

parser = argparse.ArgumentParser(prog="check-harness.sh")
parser.add_argument("--iterations", type=int, default=0, help="iterations per run/memory (default: the input count)")
parser.add_argument("--only", action="append", default=[], help="check only this workload (repeatable)")
parser.add_argument("--op", action="append", default=[], help="check only this operation (repeatable)")
parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for one answer (default 600)")
parser.add_argument("harness")
parser.add_argument("workloads")
args = parser.parse_args()

failures = 0


def fail(message):
    global failures
    failures += 1
    print(f"check-harness: FAIL: {message}", file=sys.stderr, flush=True)


def note(message):
    print(f"check-harness: {message}", file=sys.stderr, flush=True)


workloads = sorted(f[: -len(".meta.json")] for f in os.listdir(args.workloads) if f.endswith(".meta.json"))
if args.only:
    missing = set(args.only) - set(workloads)
    if missing:
        sys.exit(f"check-harness: no such workload in {args.workloads}: {' '.join(sorted(missing))}")
    workloads = [w for w in workloads if w in args.only]
if not workloads:
    sys.exit(f"check-harness: no *.meta.json in {args.workloads}")
meta = {w: json.load(open(os.path.join(args.workloads, w + ".meta.json"))) for w in workloads}

command = shlex.split(args.harness) + ["--workloads", args.workloads]
process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lines = queue.Queue()


def reader():
    for line in process.stdout:
        lines.put(line)
    lines.put(None)


threading.Thread(target=reader, daemon=True).start()


def ask(text):
    """Sends one command and returns its answer, parsed: a JSON object on one line."""
    try:
        process.stdin.write(text + "\n")
        process.stdin.flush()
    except BrokenPipeError:
        sys.exit(f"check-harness: FAIL: the harness closed its input before '{text}' (exit status {process.wait()})")
    try:
        line = lines.get(timeout=args.timeout)
    except queue.Empty:
        process.kill()
        sys.exit(f"check-harness: FAIL: no answer to '{text}' within {args.timeout:g} s")
    if line is None:
        sys.exit(f"check-harness: FAIL: the harness ended without answering '{text}' (exit status {process.wait()})")
    if not line.endswith("\n"):
        fail(f"'{text}': the answer does not end with a newline")
    try:
        answer = json.loads(line)
    except ValueError:
        fail(f"'{text}': the answer is not JSON: {line.rstrip()[:300]}")
        return {}
    if not isinstance(answer, dict):
        fail(f"'{text}': the answer is not a JSON object: {line.rstrip()[:300]}")
        return {}
    return answer


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    return (isinstance(value, (int, float))) and not isinstance(value, bool)


def expect(text, answer, condition, what):
    if not condition:
        fail(f"'{text}': {what}; got {json.dumps(answer)[:300]}")
    return bool(condition)


hello = ask("hello")
operations = hello.get("operations")
expect("hello", hello, isinstance(hello.get("implementation"), str) and hello["implementation"] != "",
       "no implementation name")
expect("hello", hello, isinstance(hello.get("version"), str), "no version string")
expect("hello", hello, is_int(hello.get("warmup_ms")) and hello["warmup_ms"] >= 0,
       "warmup_ms is not a non-negative integer")
if not expect("hello", hello, isinstance(operations, list) and operations
              and all(isinstance(o, str) and o for o in operations) and len(set(operations)) == len(operations),
              "operations is not a non-empty list of distinct names"):
    sys.exit(1)
if args.op:
    unknown = set(args.op) - set(operations)
    if unknown:
        sys.exit(f"check-harness: the harness has no operation {' '.join(sorted(unknown))}")
    operations = [o for o in operations if o in args.op]
note(f"{hello['implementation']} {hello['version']}: {len(operations)} operations, {len(workloads)} workloads")

CHECKSUM = re.compile(r"^(0|[1-9][0-9]{0,19})$")
for workload in workloads:
    m = meta[workload]
    for operation in operations:
        text = f"prepare {workload} {operation}"
        answer = ask(text)
        if "error" in answer:
            fail(f"'{text}': error: {answer['error']}")
            continue
        if not expect(text, answer, isinstance(answer.get("ok"), bool), "no boolean ok"):
            continue
        if not answer["ok"]:
            if expect(text, answer, isinstance(answer.get("reason"), str) and answer["reason"],
                      "ok false without a reason"):
                print(f"{workload} {operation} not-applicable: {answer['reason']}", flush=True)
            continue
        checks = []
        if "checksum" in answer or operation in ("decode-read-all", "decode-expand"):
            c = answer.get("checksum")
            if expect(text, answer, isinstance(c, str) and CHECKSUM.match(c) and int(c) < 2**64,
                      "checksum is not a decimal string of a 64-bit unsigned number"):
                checks.append(f"checksum={c}")
        if "encoded_bytes" in answer or operation == "encode" or operation.startswith("encode-"):
            n = answer.get("encoded_bytes")
            if expect(text, answer, is_int(n) and n >= 0, "encoded_bytes is not a non-negative integer"):
                checks.append(f"encoded_bytes={n}")
                if n != m.get("canonical_bytes"):
                    note(f"{workload} {operation}: encoded_bytes {n}, "
                         f"the metadata's canonical_bytes {m.get('canonical_bytes')}")
        if "json_bytes" in answer or operation == "json-print":
            n = answer.get("json_bytes")
            if expect(text, answer, is_int(n) and n >= 0, "json_bytes is not a non-negative integer"):
                checks.append(f"json_bytes={n}")
                if n != m.get("json_bytes"):
                    note(f"{workload} {operation}: json_bytes {n}, the metadata's json_bytes {m.get('json_bytes')}")
        iterations = args.iterations or m.get("inputs", 1)
        text = f"run {workload} {operation} {iterations}"
        answer = ask(text)
        if "error" in answer:
            fail(f"'{text}': error: {answer['error']}")
            continue
        if not expect(text, answer, is_int(answer.get("ns")) and answer["ns"] >= 0, "ns is not a non-negative integer"):
            continue
        ns_per_op = answer["ns"] / iterations
        text = f"memory {workload} {operation} {iterations}"
        answer = ask(text)
        if "error" in answer:
            fail(f"'{text}': error: {answer['error']}")
            continue
        good = True
        for key in ("allocations", "allocated_bytes"):
            value = answer.get(key, "missing")
            good &= expect(text, answer, value is None or (is_number(value) and value >= 0),
                           f"{key} is not a non-negative number or null")
        rss = answer.get("peak_rss_kib", "missing")
        good &= expect(text, answer, rss is None or (is_int(rss) and rss > 0),
                       "peak_rss_kib is not a positive integer or null")
        if not good:
            continue
        print(f"{workload} {operation} {' '.join(checks)}{' ' if checks else ''}ns/op={ns_per_op:.1f} "
              f"allocations/op={answer['allocations']} bytes/op={answer['allocated_bytes']} "
              f"peak_rss_kib={answer['peak_rss_kib']}", flush=True)

# A command the harness cannot carry out gets an error answer (last: the coordinator stops after one).
text = f"prepare no-such-workload-{os.getpid()} {operations[0]}"
answer = ask(text)
expect(text, answer, isinstance(answer.get("error"), str) and answer["error"] != "",
       "an unknown workload is not answered with an error")
try:
    process.stdin.write("quit\n")
    process.stdin.flush()
    process.stdin.close()
except BrokenPipeError:
    pass
try:
    status = process.wait(timeout=args.timeout)
except subprocess.TimeoutExpired:
    process.kill()
    fail("the harness did not exit after quit")
    status = 0
if status != 0:
    fail(f"the harness exited with status {status} after quit")
extra = []
while True:
    try:
        line = lines.get(timeout=5)
    except queue.Empty:
        break
    if line is None:
        break
    extra.append(line)
if extra:
    fail(f"the harness wrote {len(extra)} line(s) after its last answer: {extra[0].rstrip()[:200]}")
if failures:
    sys.exit(f"check-harness: {failures} failure(s)")
note("every answer was well-formed")
PYTHON
