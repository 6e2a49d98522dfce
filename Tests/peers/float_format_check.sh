#!/usr/bin/env bash
# Checks that locwire prints floats exactly as protobuf's C++ JSON printer does, on COUNT float bit patterns
# (edges, every power of two and ten, and random patterns). Needs protoc, libprotobuf-dev, g++ and a built locwire.
# Usage: Tests/peers/float_format_check.sh [LOCWIRE] [COUNT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
locwire=${1:-$root/.build/release/locwire}
count=${2:-2000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
protoc -I"$root/proto" --cpp_out="$work" "$root"/proto/locationwire/v1/*.proto
g++ -O2 -std=c++17 -I"$work" "$here/float_format_check.cc" "$work"/locationwire/v1/*.pb.cc \
  $(pkg-config --cflags --libs protobuf) -o "$work/check"
"$work/check" "$count" 20261121 "$work/batch.binpb" "$work/cpp.json"
"$locwire" convert --type LocationBatch --from binpb --to json "$work/batch.binpb" > "$work/locwire.json"
if cmp -s "$work/cpp.json" "$work/locwire.json"; then
  echo "float formatting: locwire matches C++ MessageToJsonString on $count float bit patterns"
else
  echo "float formatting: locwire differs from C++; first differing fixes:" >&2
  python3 - "$work/cpp.json" "$work/locwire.json" <<'PY' >&2
import json, sys
a = json.load(open(sys.argv[1]))["fixes"]; b = json.load(open(sys.argv[2]))["fixes"]
shown = 0
for index, (x, y) in enumerate(zip(a, b)):
    if x != y:
        print(index, "C++:", x, "locwire:", y); shown += 1
        if shown == 20: break
PY
  exit 1
fi
