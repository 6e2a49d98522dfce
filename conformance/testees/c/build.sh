#!/usr/bin/env bash
# Builds the protobuf-c testee from the project's .proto files into build/ (gitignored) next to this script.
# Progress goes to stderr; the last thing printed, on stdout, is the command that runs the testee.
# Needs: protoc-c, gcc, pkg-config and the protobuf-c development files
#   (Debian: apt-get install -y protobuf-c-compiler libprotobuf-c-dev gcc pkg-config).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"

for tool in protoc-c gcc pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: '$tool' not found; install it with: apt-get install -y protobuf-c-compiler libprotobuf-c-dev gcc pkg-config" >&2
    exit 1
  }
done
pkg-config --exists libprotobuf-c || {
  echo "build.sh: pkg-config does not know 'libprotobuf-c'; install it with: apt-get install -y libprotobuf-c-dev" >&2
  exit 1
}

rm -rf "$build/gen"
mkdir -p "$build/gen"
echo "c: $(protoc-c --version | sed -n 1p), libprotobuf-c $(pkg-config --modversion libprotobuf-c)" >&2
protoc-c -I "$proto" --c_out="$build/gen" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto

# protobuf-c has no registry by name: list every message descriptor the locationwire/v1 headers declare.
(
  cd "$build/gen"
  for header in locationwire/v1/*.pb-c.h; do
    printf '#include "%s"\n' "$header"
  done >v1_headers.inc
  sed -n 's/^extern const ProtobufCMessageDescriptor \([a-z0-9_]*\);$/\&\1,/p' locationwire/v1/*.pb-c.h >v1_descriptors.inc
)
[[ -s "$build/gen/v1_descriptors.inc" ]] || { echo "build.sh: found no message descriptors in the generated headers" >&2; exit 1; }
echo "c: $(wc -l <"$build/gen/v1_descriptors.inc") locationwire.v1 message types" >&2

# Warnings only for main.c: protobuf-c's generated initialisers trip -Wmissing-braces.
# shellcheck disable=SC2046
(
  cd "$build/gen"
  gcc -std=c11 -O2 -w -I . $(pkg-config --cflags libprotobuf-c) -c locationwire/v1/*.pb-c.c locationwire/conformance/v1/testee.pb-c.c
)
# shellcheck disable=SC2046
gcc -std=c11 -O2 -Wall -Wextra -I "$build/gen" $(pkg-config --cflags libprotobuf-c) -o "$build/c-testee.tmp" \
  "$here/main.c" "$build"/gen/*.pb-c.o $(pkg-config --libs libprotobuf-c)
mv -f "$build/c-testee.tmp" "$build/c-testee"

echo "c: built $build/c-testee" >&2
printf '%q\n' "$build/c-testee"
