#!/usr/bin/env bash
# Builds bench_upb, the native upb harness, into build-upb/ (gitignored) next to this script: upb's C runtime and
# the FileDescriptorSet come from conformance/testees/upb/build.sh (the protobuf 7.36.2 sdist, -O3 -DNDEBUG), the
# harness and the shared timing code are compiled here at -O3 -DNDEBUG too. Separate from build.sh, which deletes
# build/ and builds the C++ and protobuf-c harnesses. Prints nothing on stdout.
# Usage: Benchmarks/peers/build-upb.sh && Benchmarks/peers/build-upb/bench_upb --workloads DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build-upb"
cc=${CC:-gcc}
exec 3>&1 1>&2

"$root/conformance/testees/upb/build.sh" >/dev/null
upb="$root/conformance/testees/upb/build"
src="$upb/protobuf-7.36.2"
counter="$here/../Sources/CMallocCounter"
rm -rf "$build"
mkdir -p "$build"
flags=(-std=gnu11 -O3 -DNDEBUG -fno-strict-aliasing)
"$cc" "${flags[@]}" -Wall -Wextra -I "$counter/include" -c "$here/bench_common.c" -o "$build/bench_common.o"
"$cc" "${flags[@]}" -Wall -Wextra -I "$counter/include" -c "$counter/MallocCounter.c" -o "$build/MallocCounter.o"
"$cc" "${flags[@]}" -Wall -Wextra -isystem "$src" -isystem "$src/utf8_range" -I "$here" -I "$root/conformance/testees/upb" \
  -DUPB_SDIST_VERSION='"7.36.2"' -DUPB_DESCRIPTORS="\"$upb/locationwire.descriptors.binpb\"" \
  -c "$here/bench_upb.c" -o "$build/bench_upb.o"
"$cc" "${flags[@]}" -Wall -Wextra -isystem "$src" -isystem "$src/utf8_range" -c "$root/conformance/testees/upb/schema.c" \
  -o "$build/schema.o"
# MallocCounter.o defines malloc & co. for the allocation counts, as in bench_c.
"$cc" -O3 -o "$build/bench_upb" "$build/bench_upb.o" "$build/schema.o" "$build/bench_common.o" "$build/MallocCounter.o" "$upb/libupb.a" -lm
nm -D --defined-only "$build/bench_upb" | grep -qw malloc || { echo "build-upb.sh: bench_upb does not export malloc: allocation counts would be wrong" >&2; exit 1; }
echo "build-upb.sh: built $build/bench_upb" >&2
