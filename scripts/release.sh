#!/usr/bin/env bash
# Packs a release of LocationWire that needs no Swift toolchain: `locwire` and `locwire-server` linked with the
# Swift standard library and Foundation statically, with the schema, the descriptor set, the conformance vectors
# and their JSON Schema, the testee protocol, a Python testee and upload client, and checksums.
#
#   scripts/release.sh VERSION [--out DIR] [--locwire PATH --server PATH]
#
#   VERSION          the release's version, e.g. 1.0.0 (the archive is locationwire-VERSION-linux-ARCH.tar.gz)
#   --out DIR        where the archive goes (default: .build/release-archives)
#   --locwire PATH   pack this locwire instead of building it; --server PATH likewise for locwire-server. Both
#                    must have been built with LOCWIRE_STATIC_STDLIB=1 (CI packs the builds it makes anyway:
#                    the release locwire of the Benchmarks folder and the debug locwire-server of Server/)
#   -h, --help       this text
#
# Without --locwire and --server it builds both: LOCWIRE_STATIC_STDLIB=1 swift build -c release (Package.swift and
# Server/Package.swift say what that flag links). Either way each binary's dynamic dependencies are checked: only
# glibc, libstdc++, libgcc_s, zlib, SQLite, curl and libxml2 are admitted (the packages a bare Debian needs:
# libsqlite3-0, libcurl4, libxml2). scripts/release/try-archive.sh proves an archive in a bare root file system.
#
# Inside the archive (one folder, locationwire-VERSION/):
#   bin/locwire, bin/locwire-server       the tools
#   proto/                                the schema and the normative text (proto/README.md, HTTP.md, ...)
#   locationwire.descriptors.binpb        every file of proto/ as a FileDescriptorSet (protoc --include_imports)
#   conformance/vectors/, vectors.schema.json, README.md
#                                         the suite as data, the JSON Schema of its files, the testee protocol
#   conformance/testees/python/           a testee in Python, testee.py and schema.py (testee.py --descriptors
#                                         locationwire.descriptors.binpb: pip install protobuf, no protoc)
#   conformance/clients/python-uploader/  the upload client the mock server is tried with
#   Server/scripts/probe-reference.sh, mock-server-demo.sh, examples/
#                                         the reference server probed; the mock server judging the upload client
#   README.md, SHA256SUMS                 how to use it; the checksum of every other file
# and beside the archive, its own checksum in ARCHIVE.sha256. The last line printed (stdout) is the archive's path.
#
# Exit status: 0 packed, 1 a binary links what a bare system lacks, 2 usage error or a failed build.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
fail() { echo "release.sh: $*" >&2; exit 2; }

version="" out="$root/.build/release-archives" locwire="" server=""
while (($#)); do
  case "$1" in
    --out) [[ $# -ge 2 ]] || fail "--out needs a folder"; out=$2; shift ;;
    --locwire) [[ $# -ge 2 ]] || fail "--locwire needs a path"; locwire=$2; shift ;;
    --server) [[ $# -ge 2 ]] || fail "--server needs a path"; server=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; fail "unknown option $1" ;;
    *) [[ -z $version ]] || fail "one VERSION only (got $version and $1)"; version=$1 ;;
  esac
  shift
done
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || { usage >&2; fail "VERSION must be like 1.0.0"; }
[[ -n $locwire && -n $server || -z $locwire && -z $server ]] || fail "--locwire and --server go together"

# One list of link flags in two manifests: a difference would ship one binary that still needs Swift.
flags() { sed -n '/^let staticStandardLibrary/,/^    \] : \[\]/p' "$1" | grep -o '"-[^"]*"' | tr '\n' ' '; }
[[ "$(flags Package.swift)" == "$(flags Server/Package.swift)" && -n "$(flags Package.swift)" ]] ||
  fail "Package.swift and Server/Package.swift list different static link flags (staticStandardLibrary)"

if [[ -z $locwire ]]; then
  echo "release.sh: building locwire and locwire-server (release, static standard library)" >&2
  LOCWIRE_STATIC_STDLIB=1 swift build -c release --product locwire >&2 || fail "swift build of locwire failed"
  locwire="$(swift build -c release --show-bin-path)/locwire"
  (cd Server && LOCWIRE_STATIC_STDLIB=1 swift build -c release --product locwire-server >&2) ||
    fail "swift build of locwire-server failed"
  server="$(cd Server && swift build -c release --show-bin-path)/locwire-server"
fi
for binary in "$locwire" "$server"; do [[ -x $binary ]] || fail "$binary is not an executable"; done

# What each binary needs at run time, beside the loader: nothing of Swift's.
admitted='^(libc|libm|libdl|libpthread|librt|libutil|libstdc\+\+|libgcc_s|libz|libsqlite3|libcurl|libxml2'
admitted+='|ld-linux-[a-z0-9-]+)\.so'
for binary in "$locwire" "$server"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  refused=$(grep -vE "$admitted" <<<"$needed" || true)
  if [[ -n $refused ]]; then
    echo "release.sh: $binary needs libraries a system without Swift lacks: $(tr '\n' ' ' <<<"$refused")" >&2
    echo "release.sh: build it with LOCWIRE_STATIC_STDLIB=1" >&2
    exit 1
  fi
done

name="locationwire-$version"
archive="$out/$name-linux-$(uname -m).tar.gz"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir="$stage/$name"
mkdir -p "$dir/bin" "$dir/conformance/testees/python" "$dir/conformance/clients"
cp "$locwire" "$dir/bin/locwire"
cp "$server" "$dir/bin/locwire-server"
# The debug server CI packs carries its symbols; stripped, it is a third of the size and runs the same.
strip --strip-debug "$dir/bin/locwire" "$dir/bin/locwire-server"
git ls-files -z proto | xargs -0 -I{} cp --parents {} "$dir"
cp Tests/Goldens/locationwire.descriptors.binpb "$dir/locationwire.descriptors.binpb"
cp -r conformance/vectors "$dir/conformance/vectors"
cp conformance/vectors.schema.json conformance/README.md "$dir/conformance/"
cp conformance/testees/python/testee.py conformance/testees/python/schema.py "$dir/conformance/testees/python/"
cp -r conformance/clients/python-uploader "$dir/conformance/clients/"
# The two runs of the reference server a team starts with, and what they read, where the scripts look for them.
mkdir -p "$dir/Server/scripts" "$dir/examples"
cp Server/scripts/probe-reference.sh Server/scripts/mock-server-demo.sh "$dir/Server/scripts/"
cp examples/catalogue.geojson examples/walker-policy.json "$dir/examples/"
find "$dir" -name __pycache__ -prune -exec rm -rf {} +
commit=$(git rev-parse HEAD)
cat >"$dir/README.md" <<EOF
# LocationWire $version

Built from commit $commit on $(uname -m) Linux with glibc $(ldd --version | head -1 | awk '{print $NF}') or newer.
The tools need no Swift toolchain; on Debian or Ubuntu they need only \`libsqlite3-0\`, \`libcurl4\` and \`libxml2\`.

    bin/locwire conformance run --vectors conformance/vectors --testee "YOUR TESTEE COMMAND"
    bin/locwire-server serve                        # the reference server on 127.0.0.1:8080, SQLite in ./
    bin/locwire-server probe --help                 # the HTTP judge of a server (yours)
    bin/locwire-server mock-server --help           # a fault-injecting server for your upload client
    Server/scripts/probe-reference.sh --bin bin/locwire-server     # the probe against the reference server
    LOCWIRE_SERVER=bin/locwire-server STEPS=correct Server/scripts/mock-server-demo.sh
                                                    # the mock server judging the Python upload client

The testee protocol is \`proto/locationwire/conformance/v1/testee.proto\` (conformance/README.md). A testee in
Python that needs only \`pip install protobuf\`:

    bin/locwire conformance run --vectors conformance/vectors \\
      --testee "python3 conformance/testees/python/testee.py --descriptors locationwire.descriptors.binpb"

\`SHA256SUMS\` has the checksum of every other file: \`sha256sum -c SHA256SUMS\`.
EOF
(cd "$dir" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
mkdir -p "$out"
# Fixed owner and times: the same binaries and files give the same archive.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(git log -1 --format=%ct)" -C "$stage" -czf \
  "$archive" "$name"
(cd "$out" && sha256sum "$(basename "$archive")" >"$(basename "$archive").sha256")
echo "release.sh: $(du -h "$archive" | cut -f1) $archive" >&2
echo "$archive"
