#!/usr/bin/env bash
# The long differential fuzzing runs: `locwire fuzz` against a peer testee for 1,000,000 inputs (CI runs 200,000),
# with the peer's known differences (conformance/failures/<implementation>.fuzz.txt), and the figures written to
# conformance/FUZZ-RESULTS.md, one section per peer (a rerun replaces that peer's section and leaves the others).
#
# Usage: scripts/measure/fuzz-long.sh [--iterations N] [--seed S] [--locwire PATH] PEER...
#   PEER is a folder of conformance/testees/ with a build.sh (cpp, python, upb, ...).
# Exit status: 0 when every run ended with 0 unexplained findings, 1 otherwise (the section still says so).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
iterations=1000000
seed=20261123
locwire=$root/.build/release/locwire
peers=()
while [ $# -gt 0 ]; do
  case $1 in
    --iterations) iterations=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --locwire) locwire=$2; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) peers+=("$1"); shift ;;
  esac
done
[ ${#peers[@]} -gt 0 ] || { echo "usage: scripts/measure/fuzz-long.sh [--iterations N] [--seed S] PEER..." >&2; exit 2; }
if [ ! -x "$locwire" ]; then
  swift build -c release --product locwire >&2 || exit 1
fi
results=conformance/FUZZ-RESULTS.md
if [ ! -f "$results" ]; then
  cat >"$results" <<'HEADER'
# Long differential fuzzing runs

Written by `scripts/measure/fuzz-long.sh`, one section per peer: `locwire fuzz` sends the same mutated inputs to the peer's
testee and to LocationWire's built-in implementation and classifies every disagreement by signature; a signature
is *explained* when the peer's `conformance/failures/<implementation>.fuzz.txt` lists it with its reason. CI runs
200,000 inputs per peer (`.ci/run`); these are the 1,000,000-input runs.
HEADER
fi

status=0
for peer in "${peers[@]}"; do
  echo "==> building $peer" >&2
  command=$("conformance/testees/$peer/build.sh") || { echo "scripts/measure/fuzz-long.sh: building $peer failed" >&2; exit 1; }
  out=$(mktemp -d)
  echo "==> fuzzing $peer: $iterations inputs, seed $seed" >&2
  # --regressions into the scratch folder: a long run must not leave files in FuzzTesting/Regressions.
  "$locwire" fuzz --testee "$command" --seed "$seed" --iterations "$iterations" --quiet --out "$out/findings" \
    --regressions "$out/regressions" >"$out/report.txt" 2>&1
  code=$?
  [ $code -eq 0 ] || status=1
  cat "$out/report.txt" >&2
  name=$(sed -n 's/^Differential fuzzing of \(.*\) against .*/\1/p' "$out/report.txt" | head -1)
  section=$(
    echo "## $peer${name:+ (\`$name\`)}"
    echo
    echo "\`scripts/measure/fuzz-long.sh --iterations $iterations --seed $seed $peer\`, $(date -u +%Y-%m-%d), exit status $code."
    echo
    echo '```'
    # The report without machine-specific paths and timing: the replay line names this checkout.
    sed -e '/^replay: /d' -e "s#$root/##g" -e 's/ in [0-9.]* s ([0-9]*\/s)//' "$out/report.txt"
    echo '```'
  )
  python3 - "$results" "$peer" "$section" <<'PY'
import re, sys
path, peer, section = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
pattern = re.compile(r"^## " + re.escape(peer) + r"( \(.*\))?\n.*?(?=^## |\Z)", re.S | re.M)
text = pattern.sub(lambda m: section + "\n\n", text, count=1) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section + "\n"
open(path, "w").write(text.rstrip("\n") + "\n")
PY
  rm -rf "$out"
done
echo "==> wrote $results" >&2
exit $status
