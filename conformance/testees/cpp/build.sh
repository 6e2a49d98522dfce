#!/usr/bin/env bash
# Builds the C++ libprotobuf testee from the project's .proto files into build/ (gitignored) next to this script.
# Progress goes to stderr; the last thing printed, on stdout, is the command that runs the testee.
# Needs: protoc, g++, pkg-config and the protobuf development files
#   (Debian: apt-get install -y protobuf-compiler libprotobuf-dev g++ pkg-config).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"

for tool in protoc g++ pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: '$tool' not found; install it with: apt-get install -y protobuf-compiler libprotobuf-dev g++ pkg-config" >&2
    exit 1
  }
done
pkg-config --exists protobuf || {
  echo "build.sh: pkg-config does not know 'protobuf'; install it with: apt-get install -y libprotobuf-dev" >&2
  exit 1
}

rm -rf "$build/gen"
mkdir -p "$build/gen"
echo "cpp: $(protoc --version), libprotobuf $(pkg-config --modversion protobuf)" >&2
protoc -I "$proto" --cpp_out="$build/gen" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto

# The generated files register their descriptors at start-up, so linking all of them (as objects, not from an
# archive) makes every locationwire.v1 message findable by name.
# shellcheck disable=SC2046
g++ -std=c++17 -O2 -Wall -Wextra -I "$build/gen" -o "$build/cpp-testee.tmp" \
  "$here/main.cc" "$build"/gen/locationwire/v1/*.pb.cc "$build"/gen/locationwire/conformance/v1/testee.pb.cc \
  $(pkg-config --cflags --libs protobuf) -pthread
mv -f "$build/cpp-testee.tmp" "$build/cpp-testee"

echo "cpp: built $build/cpp-testee" >&2
printf '%q\n' "$build/cpp-testee"
