#!/usr/bin/env python3
"""Times this implementation's fence engine on a FenceRequest file (protobuf binary): `locwire-bench engines` runs
it on the same trace as the Swift engine, in the same run. Usage: bench_fences.py REQUEST [ROUNDS]. Prints the
median time of `fences.run` in nanoseconds. Runs build.sh first when the generated modules are missing."""
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
if not os.path.isdir(os.path.join(here, "build", "gen", "locationwire")):
    subprocess.run([os.path.join(here, "build.sh")], check=True, stdout=subprocess.DEVNULL)
sys.path.insert(0, here)

import fences  # noqa: E402
import pb  # noqa: E402

request = pb.t.FenceRequest()
with open(sys.argv[1], "rb") as file:
    request.ParseFromString(file.read())
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
times = []
for _ in range(max(1, min(rounds, 3))):
    start = time.perf_counter_ns()
    fences.run(request)
    times.append(time.perf_counter_ns() - start)
times.sort()
print(times[len(times) // 2])
