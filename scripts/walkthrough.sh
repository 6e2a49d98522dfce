#!/usr/bin/env bash
# CONTRIBUTING.md's walk-through, run as a contributor would: it adds a throwaway optional LocationFix field with a
# range rule and a new warning code, exactly as the document's code blocks say (scripts/walkthrough_apply.py
# places each one where its `<!-- walkthrough: ... -->` line says), counts the places edited by hand, runs the one
# command (scripts/regenerate.sh), then the tests, the conformance suite and the Python readings, and checks that
# the new field and rules reached the vectors. It fails when the document and the code part ways: a block that no
# longer applies, a step the document forgot, a check that no longer passes.
#
#   scripts/walkthrough.sh              in a scratch clone of HEAD (a build from scratch: several minutes; CI runs
#                                       it so, beside the other steps, since the field's edit to LocationWire
#                                       rebuilds nearly every module anyway)
#   scripts/walkthrough.sh --in-place   in this checkout, which must have no uncommitted change; everything the
#                                       walk-through changed is put back at the end, pass or fail
#   scripts/walkthrough.sh --keep       in a scratch clone, kept afterwards for a look
#
# Needs the peers (scripts/install-peers.sh) for regenerate.sh and the Python readings. Exit status: 0 the
# walk-through holds, 1 it does not, 2 usage error or a missing tool.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOCWIRE_CI_ROOT=$root source "$root/.ci/lib.sh" # quiet_test_log
usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

mode=scratch keep=0
case "${1:-}" in
  "") ;;
  --in-place) mode=in-place ;;
  --keep) keep=1 ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
say() { printf 'walkthrough: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }
started=$SECONDS

if [[ $mode == in-place ]]; then
  work=$root
  [[ -z "$(git -C "$work" status --porcelain)" ]] ||
    { say "--in-place needs a checkout without uncommitted or untracked changes (git status)"; exit 2; }
  # Pass or fail, the checkout is left as it was found.
  trap 'git -C "$work" checkout --quiet -- . && git -C "$work" clean -fdq' EXIT
else
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/locwire-walkthrough.XXXXXX")
  work=$scratch/locationwire
  if ((keep)); then trap 'say "the scratch clone is kept in $work"' EXIT; else trap 'rm -rf "$scratch"' EXIT; fi
  git clone --quiet --no-hardlinks "$root" "$work"
  # The scratch clone builds the package (that is the point) but not swift-protobuf's code generator again: the
  # checkout's, from the same pinned package, writes the same code.
  plugin=$root/conformance/testees/swift-protobuf/SwiftProtobufTestee/.build/release/protoc-gen-swift
  [[ -x $plugin ]] && export PROTOC_GEN_SWIFT=$plugin
fi
cd "$work"
say "in $work ($mode)"

say "1. the document's edits (CONTRIBUTING.md, in order)"
python3 scripts/walkthrough_apply.py --root "$work" || fail "CONTRIBUTING.md's blocks do not apply to the code"

say "2. the one command: scripts/regenerate.sh"
scripts/regenerate.sh >/dev/null || fail "scripts/regenerate.sh failed after the document's edits"
changed=$(git status --porcelain | wc -l)
say "   $changed files differ from HEAD after it (the hand edits and what it rewrote)"

say "3. the new field and rules reached what is generated"
grep -q 'satelliteCount' Sources/LocationWire/Generated/Messages.swift || fail "no satelliteCount property generated"
grep -q 'fewSatellites' Sources/LocationWireValidation/Generated/ViolationCodes.swift ||
  fail "no Violation.Code.fewSatellites generated from the spec table"
grep -q '"few-satellites"' conformance/vectors/semantic.json || fail "no semantic vector expects few-satellites"
! git diff --quiet -- Tests/Goldens/every-field.json ||
  fail "upb's every-field goldens did not change (EveryFieldTests needs a sample that sets the new field)"

say "4. swift test"
set +o pipefail
swift test 2>&1 | quiet_test_log
status=${PIPESTATUS[0]}
set -o pipefail
((status == 0)) || fail "swift test failed after the walk-through"

locwire=$(swift build --show-bin-path)/locwire
say "5. the conformance suite against the built-in implementation"
"$locwire" conformance run --quiet || fail "the conformance suite failed after the walk-through"

say "6. the Python readings"
"$locwire" conformance run --testee "$(conformance/testees/python-behavior/build.sh)" --filter semantic \
  --filter recording --filter fences --filter planning --filter arming \
  --failures conformance/failures/python-behavior.txt --quiet ||
  fail "the Python behaviour reading disagrees after the walk-through"
conformance/testees/python-session/build.sh >/dev/null
"$locwire" conformance run --testee 'python3 conformance/testees/python-session/testee.py' --filter session \
  --filter ledger --failures conformance/failures/python-session.txt --quiet ||
  fail "the Python session reading disagrees after the walk-through"

say "the walk-through holds ($((SECONDS - started)) s)"
