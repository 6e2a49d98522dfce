#!/usr/bin/env bash
# Builds the native upb testee: upb's C sources, taken from the protobuf source distribution on PyPI (the same
# 7.36.2 as the Python wheel the python testee runs on), compiled at -O3 -DNDEBUG into a static library, and
# testee.c linked against it. The testee builds its MiniTables at run time, from a FileDescriptorSet of proto/
# that this script makes with protoc; nothing is generated from the .proto files as C code.
# Everything goes to build/ (gitignored) next to this script; the sdist is downloaded once and kept there.
# Progress goes to stderr; the last thing printed, on stdout, is the command that runs the testee.
# Needs: python3 with pip (to download the sdist), protoc, and gcc or clang ($CC; default gcc).
#   (Debian: apt-get install -y python3-pip protobuf-compiler gcc)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"
version=7.36.2
# The sdist's SHA-256 as PyPI lists it, checked on every build, also for a cached copy.
sha256=497d0463ff3316681da6c0b9e8d06cb465d61abce00b613ab42226175644d1bb
sdist="$build/protobuf-$version.tar.gz"
src="$build/protobuf-$version"
cc=${CC:-gcc}
cflags=(-std=gnu11 -O3 -DNDEBUG -fno-strict-aliasing)

for tool in "$cc" protoc ar sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: '$tool' not found; install it with: apt-get install -y protobuf-compiler gcc binutils coreutils" >&2
    exit 1
  }
done

mkdir -p "$build"
if [[ ! -f "$sdist" ]]; then
  echo "upb: downloading the protobuf $version sdist from PyPI" >&2
  python3 -m pip download --quiet --no-binary :all: --no-deps "protobuf==$version" \
    -d "$build/download" >&2 || true
  [[ -f "$build/download/protobuf-$version.tar.gz" ]] || {
    echo "build.sh: pip did not download protobuf-$version.tar.gz (needs python3 -m pip and network)" >&2
    exit 1
  }
  mv "$build/download/protobuf-$version.tar.gz" "$sdist"
  rm -rf "$build/download"
fi
echo "$sha256  $sdist" | sha256sum --check --quiet >&2 || {
  echo "build.sh: $sdist does not have the expected SHA-256; delete it to download it again" >&2
  exit 1
}
if [[ ! -f "$src/.unpacked" ]]; then
  rm -rf "$src"
  tar -xzf "$sdist" -C "$build"
  touch "$src/.unpacked"
fi

# The upb sources: the runtime (arena, messages, MiniTables, wire decoder and encoder), the MiniTable builder and
# the reflection (upb_DefPool) that turns a FileDescriptorSet into MiniTables at run time, descriptor.proto's own
# MiniTables (which reflection parses FileDescriptorProtos with) and those of json_enumvalue_options.proto (an
# enum value option reflection reads), and utf8_range (upb's UTF-8 check). Left out:
# upb/text and upb/util (text format, unused), python/ (the CPython binding) and the fast-table decoder, which the
# sdist does not ship. upb's JSON codec (upb/json) is not in the sdist either.
lib="$build/libupb.a"
objects="$build/obj"
mapfile -t sources < <(
  cd "$src"
  find upb/base upb/hash upb/lex upb/mem upb/message upb/mini_descriptor upb/mini_table upb/port upb/reflection \
    upb/wire -name '*.c' | sort
  echo google/protobuf/descriptor.upb_minitable.c
  echo google/protobuf/json_enumvalue_options.upb_minitable.c
  echo utf8_range/utf8_range.c
)
stamp="$build/libupb.flags"
want="$cc $("$cc" -dumpfullversion 2>/dev/null || "$cc" -dumpversion) ${cflags[*]} ${#sources[@]}"
if [[ ! -f "$lib" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  echo "upb: compiling ${#sources[@]} upb sources with $cc ${cflags[*]}" >&2
  rm -rf "$objects" "$lib"
  mkdir -p "$objects"
  # Two at a time: CI machines and the shared development box have two cores.
  printf '%s\n' "${sources[@]}" | (cd "$src" && xargs -P "${UPB_JOBS:-2}" -I{} sh -c \
    'o="$1/$(echo "$2" | tr / _ | sed "s/\.c$/.o/")"; '"$cc"' '"${cflags[*]}"' -w -I. -Iutf8_range -c "$2" -o "$o"' \
    _ "$objects" {})
  ar rcs "$lib.tmp" "$objects"/*.o
  mv -f "$lib.tmp" "$lib"
  echo "$want" >"$stamp"
  printf '%s\n' "${sources[@]}" >"$build/libupb.sources"
fi

# The schema, read at run time: every locationwire.v1 file and the testee protocol, with their imports.
protoc -I "$proto" --include_imports --descriptor_set_out="$build/locationwire.descriptors.binpb.tmp" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto
mv -f "$build/locationwire.descriptors.binpb.tmp" "$build/locationwire.descriptors.binpb"

"$cc" "${cflags[@]}" -Wall -Wextra -isystem "$src" -isystem "$src/utf8_range" -DUPB_SDIST_VERSION="\"$version\"" \
  -o "$build/upb-testee.tmp" "$here/testee.c" "$here/schema.c" "$lib"
mv -f "$build/upb-testee.tmp" "$build/upb-testee"

echo "upb: built $build/upb-testee (upb from protobuf $version, $cc -O3 -DNDEBUG)" >&2
printf '%q %q\n' "$build/upb-testee" "$build/locationwire.descriptors.binpb"
