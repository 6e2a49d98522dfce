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

rm -rf "$build/gen" "$build/obj"
mkdir -p "$build/gen" "$build/obj"
echo "cpp: $(protoc --version), libprotobuf $(pkg-config --modversion protobuf)" >&2
protoc -I "$proto" --cpp_out="$build/gen" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto

# Compile the generated files and main.cc side by side (about twice as fast on two cores). The generated files
# register their descriptors at start-up, so linking all of them (as objects, not from an archive) makes every
# locationwire.v1 message findable by name.
cflags="$(pkg-config --cflags protobuf)"
pids=()
for source in "$build"/gen/locationwire/v1/*.pb.cc "$build"/gen/locationwire/conformance/v1/testee.pb.cc; do
  # shellcheck disable=SC2086
  g++ -std=c++17 -O2 $cflags -I "$build/gen" -c "$source" -o "$build/obj/$(basename "${source%.cc}").o" &
  pids+=("$!")
done
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra $cflags -I "$build/gen" -c "$here/main.cc" -o "$build/obj/main.o" &
pids+=("$!")
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[[ $failed == 0 ]] || { echo "build.sh: compilation failed" >&2; exit 1; }
# shellcheck disable=SC2046
g++ -o "$build/cpp-testee.tmp" "$build"/obj/*.o $(pkg-config --libs protobuf) -pthread
mv -f "$build/cpp-testee.tmp" "$build/cpp-testee"

echo "cpp: built $build/cpp-testee" >&2
printf '%q\n' "$build/cpp-testee"
