#!/usr/bin/env bash
# Builds the peer benchmark harnesses into build/ (gitignored) next to this script:
#   build/bench_cpp   C++ libprotobuf (protoc --cpp_out)
#   build/bench_c     protobuf-c (protoc-c --c_out)
#   build/python/     Python code (protoc --python_out) that bench_python.py imports
# from the project's proto/locationwire/v1/*.proto, compiled with -O3 -DNDEBUG, libprotobuf linked statically. Prints nothing on stdout; progress and
# errors go to stderr. Exit status 1 when a tool is missing or a step fails.
# Needs (Debian): apt-get install -y protobuf-compiler libprotobuf-dev protobuf-c-compiler libprotobuf-c-dev \
#   g++ gcc pkg-config
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
proto="$root/proto"
build="$here/build"
exec 3>&1 1>&2 # everything this script and its tools print goes to stderr

say() { printf 'build.sh: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

install_hint="apt-get install -y protobuf-compiler libprotobuf-dev protobuf-c-compiler libprotobuf-c-dev g++ gcc pkg-config"
for tool in protoc protoc-c g++ gcc pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; install it with: $install_hint"
done
pkg-config --exists protobuf || die "pkg-config does not know 'protobuf'; install it with: apt-get install -y libprotobuf-dev"
pkg-config --exists libprotobuf-c || die "pkg-config does not know 'libprotobuf-c'; install it with: apt-get install -y libprotobuf-c-dev"
shopt -s nullglob
protos=("$proto"/locationwire/v1/*.proto)
((${#protos[@]} > 0)) || die "no .proto files in $proto/locationwire/v1"

say "$(protoc --version) + libprotobuf $(pkg-config --modversion protobuf); $(protoc-c --version | sed -n 1p) + libprotobuf-c $(pkg-config --modversion libprotobuf-c); $(g++ --version | sed -n 1p)"
rm -rf "$build"
mkdir -p "$build/gen/cpp" "$build/gen/c" "$build/python" "$build/obj/cpp" "$build/obj/c"

say "generating code for ${#protos[@]} files of proto/locationwire/v1"
protoc -I "$proto" --cpp_out="$build/gen/cpp" --python_out="$build/python" "${protos[@]}"
protoc-c -I "$proto" --c_out="$build/gen/c" "${protos[@]}"

# protobuf-c has no registry by name: list every message descriptor the generated headers declare.
(
  cd "$build/gen/c"
  for header in locationwire/v1/*.pb-c.h; do printf '#include "%s"\n' "$header"; done >headers.inc
  sed -n 's/^extern const ProtobufCMessageDescriptor \([a-z0-9_]*\);$/\&\1,/p' locationwire/v1/*.pb-c.h >descriptors.inc
)
[[ -s "$build/gen/c/descriptors.inc" ]] || die "found no message descriptors in the generated protobuf-c headers"
say "protobuf-c: $(wc -l <"$build/gen/c/descriptors.inc") message descriptors"

# Compile everything with up to $(nproc) jobs at once.
jobs_max=$(nproc 2>/dev/null || echo 2)
pids=()
names=()
spawn() { # NAME COMMAND...
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  names+=("$1")
  shift
  "$@" &
  pids+=("$!")
}
# Full strength (issue 14): the harnesses and the generated code at -O3 without assertions, as a release build of
# a server is, and libprotobuf linked from its static archive, so its calls go through no PLT.
optimize="-O3 -DNDEBUG"
cxxflags="$(pkg-config --cflags protobuf)"
cflags="$(pkg-config --cflags libprotobuf-c)"
# shellcheck disable=SC2086
counter="$here/../Sources/CMallocCounter"
spawn bench_common.o gcc -std=gnu11 $optimize -Wall -Wextra -I "$counter/include" -c "$here/bench_common.c" \
  -o "$build/obj/bench_common.o"
spawn MallocCounter.o gcc -std=gnu11 $optimize -Wall -Wextra -I "$counter/include" -c "$counter/MallocCounter.c" \
  -o "$build/obj/MallocCounter.o"
# shellcheck disable=SC2086
spawn bench_cpp.o g++ -std=c++17 $optimize -Wall -Wextra $cxxflags -I "$build/gen/cpp" -I "$here" -c "$here/bench_cpp.cc" \
  -o "$build/obj/cpp/bench_cpp.o"
# shellcheck disable=SC2086
spawn bench_c.o gcc -std=gnu11 $optimize -Wall -Wextra $cflags -I "$build/gen/c" -I "$here" -c "$here/bench_c.c" \
  -o "$build/obj/c/bench_c.o"
for source in "$build"/gen/cpp/locationwire/v1/*.pb.cc; do
  # shellcheck disable=SC2086
  spawn "$(basename "$source")" g++ -std=c++17 $optimize $cxxflags -I "$build/gen/cpp" -c "$source" \
    -o "$build/obj/cpp/$(basename "${source%.cc}").o"
done
for source in "$build"/gen/c/locationwire/v1/*.pb-c.c; do
  # -w: protobuf-c's generated initialisers trip -Wmissing-braces.
  # shellcheck disable=SC2086
  spawn "$(basename "$source")" gcc -std=gnu11 $optimize -w $cflags -I "$build/gen/c" -c "$source" \
    -o "$build/obj/c/$(basename "${source%.c}").o"
done
failed=()
for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${names[$i]}"); done
((${#failed[@]} == 0)) || die "compilation failed: ${failed[*]}"
say "compiled ${#pids[@]} files"

# The generated C++ files register their descriptors at start-up, so linking all of them as objects (not from an
# archive) makes every message findable by name. MallocCounter.o defines malloc & co. for the allocation counts.
# shellcheck disable=SC2046
g++ $optimize -o "$build/bench_cpp" "$build"/obj/cpp/*.o "$build/obj/bench_common.o" "$build/obj/MallocCounter.o" \
  -Wl,-Bstatic $(pkg-config --libs-only-l protobuf) -Wl,-Bdynamic $(pkg-config --libs-only-L protobuf) -lz -pthread -lm
# shellcheck disable=SC2046
gcc $optimize -o "$build/bench_c" "$build"/obj/c/*.o "$build/obj/bench_common.o" "$build/obj/MallocCounter.o" $(pkg-config --libs libprotobuf-c) -lm
for binary in bench_cpp bench_c; do
  nm -D --defined-only "$build/$binary" | grep -qw malloc || die "$binary does not export malloc: allocation counts would be wrong"
done
say "built $build/bench_cpp, $build/bench_c and $build/python"
