#!/usr/bin/env bash
# Builds the python-behavior testee: generates the *_pb2 modules from the project's .proto files into build/gen
# (gitignored) next to this script. Progress goes to stderr; the last line, on stdout, is the command that runs
# the testee.
# Needs: protoc (Debian: apt-get install -y protobuf-compiler) and the protobuf package for the python3 on PATH
#   (pip install protobuf).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"
python="${PYTHON:-python3}"

command -v protoc >/dev/null 2>&1 || { echo "build.sh: 'protoc' not found (apt-get install -y protobuf-compiler)" >&2; exit 1; }
"$python" -c 'import google.protobuf' 2>/dev/null || { echo "build.sh: $python cannot import google.protobuf (pip install protobuf)" >&2; exit 1; }

rm -rf "$build/gen"
mkdir -p "$build/gen"
protoc -I "$proto" --python_out="$build/gen" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto
# Fail here, not in the runner, if the generated code does not load.
"$python" -c "import sys; sys.path.insert(0, sys.argv[1]); import locationwire.conformance.v1.testee_pb2" "$build/gen"
echo "python-behavior: generated $build/gen" >&2
printf '%q %q\n' "$python" "$here/testee.py"
