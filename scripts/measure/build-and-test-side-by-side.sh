#!/usr/bin/env bash
# The main job's first build and `swift test`, at two commits side by side: each round makes a fresh clone of each
# commit (base first, then head), times `swift build --product locwire` (what `swift run locwire conformance run`
# builds first) and then `swift test` (which builds the tests too), so both sides see the same machine. Timings
# swing by about 30% with the machine's load: compare the two columns of one run, never runs of different days.
#
#   scripts/measure/build-and-test-side-by-side.sh BASE HEAD [--rounds N] [--work DIR]
#
# Prints a Markdown table, one row per round and side. Exit status: 0, 1 when a build or test run failed (its log
# is kept in the work folder), 2 for a usage error.
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
rounds=2 work="" commits=()
while (($#)); do
  case $1 in
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-and-test-side-by-side.sh: unknown option $1" >&2; exit 2 ;;
    *) commits+=("$1"); shift ;;
  esac
done
((${#commits[@]} == 2)) || { echo "usage: build-and-test-side-by-side.sh BASE HEAD [--rounds N]" >&2; exit 2; }
for commit in "${commits[@]}"; do
  git -C "$repository" rev-parse --verify --quiet "$commit^{commit}" >/dev/null ||
    { echo "build-and-test-side-by-side.sh: no commit $commit" >&2; exit 2; }
done
work=${work:-$(mktemp -d "${TMPDIR:-/tmp}/side-by-side.XXXXXX")}
mkdir -p "$work"

echo "| round | commit | first build (s) | swift test (s) | tests |"
echo "|---:|---|---:|---:|---|"
for round in $(seq 1 "$rounds"); do
  for commit in "${commits[@]}"; do
    clone="$work/clone"
    rm -rf "$clone"
    git clone --quiet --no-hardlinks "$repository" "$clone"
    git -C "$clone" checkout --quiet "$commit"
    log="$work/$commit-$round"
    start=$SECONDS
    (cd "$clone" && swift build --product locwire) >"$log-build.log" 2>&1 ||
      { echo "the build of $commit failed: $log-build.log" >&2; exit 1; }
    build=$((SECONDS - start))
    start=$SECONDS
    (cd "$clone" && swift test) >"$log-test.log" 2>&1 ||
      { echo "swift test at $commit failed: $log-test.log" >&2; exit 1; }
    tests=$((SECONDS - start))
    echo "| $round | $commit | $build | $tests | $(grep -o 'Test run with [0-9]* tests' "$log-test.log" | head -1) |"
  done
done
rm -rf "$work/clone"
