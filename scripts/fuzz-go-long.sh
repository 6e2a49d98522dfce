#!/usr/bin/env bash
# The long differential fuzzing run against protobuf-go (Go's protobuf runtime, conformance/testees/go), whose
# figures are committed: CI runs 200,000 inputs (.ci/run); this runs a million by default and writes the figures,
# the machine and the command to conformance/FUZZ-GO.md. Known differences: conformance/failures/go-protobuf.fuzz.txt.
#
#   scripts/fuzz-go-long.sh [--iterations N] [--seed S] [--locwire PATH]
#
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler (scripts/install-peers.sh).
# Unexplained findings are minimized and written to fuzz-findings/go-long/ (gitignored).
# Exit status: 0 every finding explained (the figures are written), 1 unexplained findings (the figures are
# written too, with the findings), 2 usage error or a failed build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

iterations=1000000
seed=20261123
locwire=""
while (($#)); do
  case "$1" in
    --iterations) iterations="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --locwire) locwire="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo pipefail/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz-go-long.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$locwire" ]]; then
  swift build -c release --product locwire >&2 || exit 2
  locwire="$(swift build -c release --show-bin-path)/locwire"
fi
testee=$(conformance/testees/go/build.sh) || exit 2

report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
# Findings' regression inputs go beside them, not into FuzzTesting/Regressions: a difference of protobuf-go's is no
# regression input for LocationWire's own fuzz targets.
"$locwire" fuzz --testee "$testee" --seed "$seed" --iterations "$iterations" --quiet --out fuzz-findings/go-long \
  --regressions fuzz-findings/go-long/regressions >"$report" || status=$?
if ((status > 1)); then cat "$report" >&2; exit 2; fi

go_version=$(go version | sed 's/^go version //')
protobuf_go=$(awk '$1 == "Major" || $1 == "Minor" || $1 == "Patch" { v = v (v == "" ? "" : ".") $3 } END { print v }' \
  /usr/share/gocode/src/google.golang.org/protobuf/internal/version/version.go)
python3 - "$report" "$iterations" "$seed" "$go_version" "$protobuf_go" <<'PY' >conformance/FUZZ-GO.md
import platform, re, subprocess, sys
path, iterations, seed, go_version, protobuf_go = sys.argv[1:]
text = open(path).read()
commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
run = re.search(r"(\d+) inputs in ([\d.]+) s \((\d+)/s\); testee started (\d+) time", text)
both = re.search(r"accepted by both: (\d+); rejected by both: (\d+); skipped by the testee: (\d+)", text)
signatures = re.findall(r"^  (\S+): (\d+), (?:explained: (.*)|UNEXPLAINED)$", text, re.M)
unexplained = sum(int(count) for _, count, reason in signatures if not reason)
findings = sum(int(count) for _, count, _ in signatures)
print(f"""# Differential fuzzing against protobuf-go: the long run

Written by `scripts/fuzz-go-long.sh --iterations {iterations} --seed {seed}` (commit {commit}, {platform.machine()},
{cores} cores): `locwire fuzz` sends the same mutated inputs to protobuf-go {protobuf_go} (Debian's
golang-google-protobuf-dev, {go_version}, through `conformance/testees/go`) and to LocationWire's own
implementation, and compares verdicts, re-encodings and JSON. CI runs the same for 200,000 inputs (`.ci/run`).

| Figure | Value |
|---|---|
| inputs | {int(run.group(1)):,} |
| run time | {run.group(2)} s ({int(run.group(3)):,} inputs/s) |
| accepted by both, same value | {int(both.group(1)):,} |
| rejected by both | {int(both.group(2)):,} |
| skipped by the testee | {int(both.group(3))} |
| testee starts (1 = no crash) | {run.group(4)} |
| findings | {findings:,} |
| **unexplained findings** | **{unexplained}** |

Findings by signature, each explained in `conformance/failures/go-protobuf.fuzz.txt` (the conformance vectors
that show each one are in `conformance/failures/go-protobuf.txt`):

| Signature | Inputs | Why |
|---|---|---|""")
for signature, count, reason in signatures:
    print(f"| `{signature}` | {int(count):,} | {(reason or '**UNEXPLAINED**').replace('|', '/')} |")
details = text.split("\nUNEXPLAINED ", 1)
if len(details) == 2:
    print("\nUnexplained findings, minimized (the inputs and ready-to-add vectors are in fuzz-findings/go-long/):\n")
    print("```\nUNEXPLAINED " + details[1].split("\nwritten to ")[0].strip() + "\n```")
print(f"""
Replay: `locwire fuzz --testee conformance/testees/go/build/go-testee --seed {seed} --iterations {iterations}`.""")
PY
cat conformance/FUZZ-GO.md
exit "$status"
