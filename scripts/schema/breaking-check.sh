#!/usr/bin/env bash
# The breaking-change check of proto/ against its release (proto/README.md "Stability", `§stability`): builds the
# current schema as a buf image, leaves the experimental messages, enums, fields and enum values out of it and out
# of the release image (scripts/schema/strip_experimental.py), and runs `buf breaking` with buf.yaml's rules
# (WIRE_JSON, and no message or package deleted) over locationwire.v1, locationwire.session.v1 and
# locationwire.conformance.v1. Offline: buf reads only the two images.
#
#   scripts/schema/breaking-check.sh [--against IMAGE] [--root DIR]
#
#   --against IMAGE  the release image to compare with (default: the newest proto/released/locationwire-v*.binpb)
#   --root DIR       a folder holding buf.yaml and proto/ to check (default: this repository; mutations.py passes a
#                    changed copy)
#   -h, --help       this text
#
# Prints each break as `proto/FILE:LINE:COLUMN: RULE_ID: buf's message`. A deliberate break needs a new package
# version (locationwire.v2 beside v1), not a new image.
#
# Exit status: 0 no break, 1 breaking changes (listed), 2 usage error, a missing tool (buf: pip's buf-bin,
# scripts/install-peers.sh; Python protobuf) or a schema that does not build.
set -euo pipefail
repository=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
fail() { echo "breaking-check.sh: $*" >&2; exit 2; }

against="" root=$repository
while (($#)); do
  case "$1" in
    --against) [[ $# -ge 2 ]] || fail "--against needs an image"; against=$2; shift 2 ;;
    --root) [[ $# -ge 2 ]] || fail "--root needs a folder"; root=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown argument: $1" ;;
  esac
done

command -v buf >/dev/null || fail "buf not found (scripts/install-peers.sh installs pip's buf-bin)"
python3 -c 'import google.protobuf' 2>/dev/null || fail "Python protobuf not found (scripts/install-peers.sh)"
[[ -f $root/buf.yaml && -d $root/proto ]] || fail "$root holds no buf.yaml and proto/"
if [[ -z $against ]]; then
  against=$({ find "$repository/proto/released" -name 'locationwire-v*.binpb' 2>/dev/null || true; } | sort -V | tail -1)
  [[ -n $against ]] || fail "no release image in proto/released/ (see proto/released/README.md)"
fi
[[ -f $against ]] || fail "no release image $against"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && buf build -o "$tmp/current.binpb") 2>"$tmp/build.log" ||
  { cat "$tmp/build.log" >&2; fail "buf build failed on $root/proto"; }
strip="$repository/scripts/schema/strip_experimental.py"
python3 "$strip" "$tmp/current.binpb" "$tmp/current.stable.binpb" 2>/dev/null ||
  fail "strip_experimental.py failed on the current image"
python3 "$strip" "$against" "$tmp/released.stable.binpb" 2>/dev/null ||
  fail "strip_experimental.py failed on $against"

status=0
buf breaking "$tmp/current.stable.binpb" --against "$tmp/released.stable.binpb" --config "$root/buf.yaml" \
  --error-format=json >"$tmp/breaks.json" 2>"$tmp/breaking.log" || status=$?
if ((status == 0)); then
  echo "breaking-check.sh: no breaking change of the stable schema against $(basename "$against")"
  exit 0
fi
[[ -s $tmp/breaks.json ]] || { cat "$tmp/breaking.log" >&2; fail "buf breaking failed (exit $status)"; }
# buf's JSON lines carry the rule id, which its text format leaves out.
python3 - "$tmp/breaks.json" <<'EOF'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        b = json.loads(line)
        # A deleted package has no file of its own.
        where = f"proto/{b['path']}:{b.get('start_line', 0)}:{b.get('start_column', 0)}" if "path" in b else "proto/"
        print(f"{where}: {b['type']}: {b['message']}")
EOF
echo "breaking-check.sh: $(grep -c . "$tmp/breaks.json") breaking change(s) against $(basename "$against")" \
  "(a deliberate break needs a new package version: proto/README.md \"Stability\")" >&2
exit 1
