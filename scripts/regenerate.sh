#!/usr/bin/env bash
# Regenerates everything that is made from proto/, so a schema change is one command (and CI can tell when it
# was forgotten).
#
#   scripts/regenerate.sh [--check] [--locwire PATH]
#
#   (default)        rewrite the files in place
#   --check          regenerate into a temporary folder and compare; list every stale file with a short diff
#   --locwire PATH   the locwire CLI to generate the vectors and fixtures with (default: the one
#                    swift build --product locwire builds, the debug one)
#   -h, --help       this text
#
# What it covers, in order:
#   1. Tests/Goldens/locationwire.descriptors.binpb   protoc --include_imports, every file of proto/
#   2. scripts/codegen/generate.py (from proto/locationwire/v1 and proto/locationwire/conformance/v1 with their
#      comments; its docstring lists the files):
#      Sources/LocationWire/Generated/*.swift         every message's struct and Field list, every enum
#      Sources/LocationWireConformance/Generated/TesteeProtocol.swift
#                                                     the testee protocol: every message's struct and FieldTable,
#                                                     every enum
#      Sources/LocationWire/Messages/LocationFix+Columns.swift
#                                                     LocationFix's compact column mapping
#      Sources/LocationWireValidation/Generated/ViolationCodes.swift
#                                                     Violation.Code from proto/README.md's table of validation rules
#      Tests/LocationWireConformanceTests/Generated/HandWrittenLines.swift
#                                                     the codec lines each field needs (the forgotten-field test)
#      Benchmarks/peers/generated/*.inc               the C++ harness's per-field code
#      proto/README.md                                its generated spans (fields without presence, future columns,
#                                                     the stability list)
#   3. Tests/Goldens/every-field.json                 Tests/peers/every_field_goldens.py (upb)
#   4. Tests/LocationWireTests/PeerGoldens.swift      Tests/peers/peer_goldens.py (upb bytes, C++ JSON)
#   5. conformance/testees/swift-protobuf/SwiftProtobufTestee/Sources/LocationWireSwiftProtobuf/
#                                                     conformance/testees/swift-protobuf/generate.sh
#   6. conformance/vectors/*.json                     locwire conformance generate
#   7. libFuzzer dictionaries and seed corpora        FuzzTesting/tools/make_dictionaries.py, make_corpus.py
#      These are not committed (fuzz.sh prepare makes them into $FUZZ_WORK, default FuzzTesting/work/): written
#      there by default; with --check generated into the temporary folder, to prove they still build from proto/.
#   8. proto/jsonschema/*.schema.json                  scripts/codegen/jsonschema_gen.py: a JSON Schema of each
#      message's proto3 JSON (locationwire.v1 and conformance.v1); the folder's *.md files are written by hand
#
# Exit status: 0 everything current (or rewritten), 1 stale files (--check), 2 usage error, missing tool or a
# generator that failed. Progress goes to standard error; with --check the stale files are listed on stdout.
# Needs the peers (scripts/install-peers.sh): protoc, Python protobuf on upb, g++, pkg-config, libprotobuf-dev;
# and the Swift toolchain (swift format formats the generated Swift). The swift-protobuf step builds
# protoc-gen-swift (about 90 s the first time).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
fail() { echo "regenerate.sh: $*" >&2; exit 2; }
progress() { echo "regenerate.sh: $*" >&2; }

check=0
locwire=""
while (($#)); do
  case "$1" in
    --check) check=1; shift ;;
    --locwire) [[ $# -ge 2 ]] || { usage >&2; fail "--locwire needs a path"; }; locwire="$2"; shift 2 ;;
    --locwire=*) locwire="${1#--locwire=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; fail "unknown argument: $1" ;;
  esac
done

# The tools, before anything is written: a missing peer is a setup problem (2), not a stale file (1).
for tool in protoc python3 g++ pkg-config swift diff; do
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' not found (scripts/install-peers.sh installs the peers)"
done
backend="$(python3 -c 'from google.protobuf.internal import api_implementation as a; print(a.Type())' 2>/dev/null ||
  true)"
[[ "$backend" == upb ]] ||
  fail "Python protobuf on upb not found (scripts/install-peers.sh)"
pkg-config --exists protobuf || fail "libprotobuf-dev not found (scripts/install-peers.sh)"
if [[ -n "$locwire" ]]; then
  [[ -x "$locwire" ]] || fail "--locwire $locwire is not an executable"
  locwire="$(cd "$(dirname "$locwire")" && pwd)/$(basename "$locwire")"
fi

tmp="$(mktemp -d)"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
# Where the committed files go: in place, or (--check) the same paths under a temporary copy of the layout.
if ((check)); then out="$tmp/fresh"; else out="$root"; fi
mkdir -p "$out/Tests/Goldens" "$out/Tests/LocationWireTests"

started=$SECONDS
step() { progress "[$1/8] $2 ($((SECONDS - started)) s)"; }
stale=()    # committed paths (files or folders) that differ from a fresh generation
reports=()  # a short diff for each

# Records REL (a file or folder) as stale, with the head of its diff, when the committed REL differs from $out/REL.
compare() {
  local rel="$1" rc=0
  diff -ru "$root/$rel" "$out/$rel" >"$tmp/compare.diff" 2>&1 || rc=$?
  ((rc == 0)) && return 0
  stale+=("$rel")
  reports+=("$(shorten "$tmp/compare.diff")")
}

# The first 24 lines of a diff, each cut to 160 columns, with the paths made readable.
shorten() {
  local lines
  lines=$(wc -l <"$1")
  sed -e "s#$out/#regenerated/#g" -e "s#$root/#committed/#g" "$1" | cut -c1-160 | sed -n 1,24p
  if ((lines > 24)); then echo "... ($lines diff lines in all)"; fi
}

step 1 "descriptor set of proto/ (protoc $(protoc --version | cut -d' ' -f2))"
protos=(proto/locationwire/v1/*.proto proto/locationwire/conformance/v1/*.proto proto/locationwire/session/v1/*.proto)
descriptors="$out/Tests/Goldens/locationwire.descriptors.binpb"
protoc -Iproto --include_imports --descriptor_set_out="$descriptors" "${protos[@]}" || fail "protoc failed on proto/"

step 2 "Swift, C++ and spec text per field (scripts/codegen/generate.py)"
# The declarations take their doc comments from the .proto comments: a descriptor set with source info, of the wire
# protocol and the testee protocol (the session formats are not generated: proto/README.md's stability list reads
# their comments).
annotated="$tmp/generated-packages.descriptors.binpb"
protoc -Iproto --include_imports --include_source_info --descriptor_set_out="$annotated" proto/locationwire/v1/*.proto \
  proto/locationwire/conformance/v1/*.proto proto/locationwire/session/v1/*.proto ||
  fail "protoc failed on proto/locationwire/v1, conformance/v1 or session/v1"
# It prints the paths it wrote, relative to $out.
python3 scripts/codegen/generate.py --descriptors "$annotated" --out "$out" >"$tmp/codegen.list" ||
  fail "scripts/codegen/generate.py failed"

step 3 "every-field goldens (upb)"
python3 Tests/peers/every_field_goldens.py --descriptors "$descriptors" --out "$out/Tests/Goldens/every-field.json" ||
  fail "Tests/peers/every_field_goldens.py failed"

step 4 "PeerGoldens.swift (upb bytes, C++ JSON)"
python3 Tests/peers/peer_goldens.py --descriptors "$descriptors" \
  --out "$out/Tests/LocationWireTests/PeerGoldens.swift" ||
  fail "Tests/peers/peer_goldens.py failed"

if ((check)); then
  compare Tests/Goldens/locationwire.descriptors.binpb
  while read -r generated_path; do compare "$generated_path"; done <"$tmp/codegen.list"
  compare Tests/Goldens/every-field.json
  compare Tests/LocationWireTests/PeerGoldens.swift
fi

step 5 "swift-protobuf generated code (conformance/testees/swift-protobuf/generate.sh)"
generated=conformance/testees/swift-protobuf/SwiftProtobufTestee/Sources/LocationWireSwiftProtobuf
if ((check)); then
  # generate.sh --check prints its diff on stdout and exits 1 when stale; any other failure is a tool problem.
  rc=0
  conformance/testees/swift-protobuf/generate.sh --check >"$tmp/swift-protobuf.diff" 2>"$tmp/swift-protobuf.log" ||
    rc=$?
  if ((rc == 1)) && grep -q 'is stale' "$tmp/swift-protobuf.log"; then
    stale+=("$generated/")
    reports+=("$(shorten "$tmp/swift-protobuf.diff")")
  elif ((rc != 0)); then
    tail -n 20 "$tmp/swift-protobuf.log" >&2
    fail "conformance/testees/swift-protobuf/generate.sh --check failed (exit $rc)"
  fi
else
  conformance/testees/swift-protobuf/generate.sh >&2 || fail "conformance/testees/swift-protobuf/generate.sh failed"
fi

if [[ -z "$locwire" ]]; then
  # The debug build: `swift test` has usually built it already, and the generator writes the same bytes in any
  # configuration (a release build would cost minutes for seconds saved).
  progress "building locwire (swift build --product locwire)"
  swift build --product locwire >&2 || fail "swift build --product locwire failed"
  locwire="$(swift build --show-bin-path)/locwire"
fi

# A field of proto/ without its decode case (rows keep it as an unknown field, which cannot be compacted) stops the
# vector generator: say where to look.
vectors_hint="locwire conformance generate failed (a new field without its hand-written decode or encode lines?"
vectors_hint+=" swift test --filter EveryFieldTests names them)"
step 6 "conformance vectors ($locwire conformance generate)"
if ((check)); then
  # The generator reads conformance/regressions and conformance/data beside the folder it writes: give it the
  # committed ones.
  mkdir -p "$out/conformance"
  cp -R conformance/regressions "$out/conformance/regressions"
  cp -R conformance/data "$out/conformance/data"
  (cd "$out" && "$locwire" conformance generate --output conformance/vectors >/dev/null 2>"$tmp/vectors.log") ||
    { cat "$tmp/vectors.log" >&2; fail "$vectors_hint"; }
  compare conformance/vectors
else
  "$locwire" conformance generate || fail "$vectors_hint"
fi

step 7 "libFuzzer dictionaries and seed corpora (FuzzTesting/tools)"
if ((check)); then work="$tmp/fuzz-work"; else work="${FUZZ_WORK:-$root/FuzzTesting/work}"; fi
python3 FuzzTesting/tools/make_dictionaries.py --out "$work/dicts" --descriptor-set "$descriptors" >"$tmp/dicts.log" ||
  { cat "$tmp/dicts.log" >&2; fail "FuzzTesting/tools/make_dictionaries.py failed"; }
# fuzz.sh prepare leaves the seeds read-only (libFuzzer must never write them); make_corpus.py replaces them.
if [[ -d "$work/seeds" ]]; then chmod -R u+w "$work/seeds"; fi
python3 FuzzTesting/tools/make_corpus.py --out "$work/seeds" --locwire "$locwire" >"$tmp/corpus.log" ||
  { cat "$tmp/corpus.log" >&2; fail "FuzzTesting/tools/make_corpus.py failed"; }
chmod -R a-w "$work/seeds"/*
for target in $(FuzzTesting/fuzz.sh targets); do
  [[ -s "$work/dicts/$target.dict" ]] || fail "make_dictionaries.py wrote no dictionary for $target"
  [[ -n "$(ls -A "$work/seeds/$target")" ]] || fail "make_corpus.py wrote no seeds for $target"
done
progress "dictionaries and seeds for $(FuzzTesting/fuzz.sh targets | wc -l) targets in $work (not committed)"

step 8 "JSON Schemas (scripts/codegen/jsonschema_gen.py)"
# The comments become descriptions: a descriptor set with source info. With --check, the folder's hand-written
# pages are copied beside the fresh schemas, so that comparing the folder compares the schemas.
protoc -Iproto --include_imports --include_source_info --descriptor_set_out="$tmp/jsonschema.descriptors.binpb" \
  "${protos[@]}" || fail "protoc failed on proto/"
if ((check)); then mkdir -p "$out/proto/jsonschema" && cp proto/jsonschema/*.md "$out/proto/jsonschema/"; fi
python3 scripts/codegen/jsonschema_gen.py --descriptors "$tmp/jsonschema.descriptors.binpb" --out "$out" >/dev/null ||
  fail "scripts/codegen/jsonschema_gen.py failed"
if ((check)); then compare proto/jsonschema; fi

if ((check)); then
  if ((${#stale[@]})); then
    echo "Stale (committed differs from a fresh generation; run scripts/regenerate.sh and commit the result):"
    for i in "${!stale[@]}"; do
      echo
      echo "== ${stale[$i]}"
      echo "${reports[$i]}"
    done
    progress "${#stale[@]} stale: ${stale[*]} ($((SECONDS - started)) s)"
    exit 1
  fi
  progress "everything generated from proto/ is current ($((SECONDS - started)) s)"
else
  progress "done ($((SECONDS - started)) s); review with git status and git diff"
fi
