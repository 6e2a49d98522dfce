#!/usr/bin/env bash
# Builds the peer testees from their scripts (C++, upb through Python and native, protobuf-c, swift-protobuf,
# protobuf-java, protobuf-go and the two Python readings), runs the conformance suite against them and against the built-in implementation (each with its failure
# list), and writes the results matrix, conformance/RESULTS.md.
#
# Usage: conformance/run-all.sh [LOCWIRE]      (LOCWIRE defaults to .build/release/locwire, built if missing)
# Exit status: 0 when every implementation ran with only its documented failures, 1 otherwise.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
locwire=${1:-$root/.build/release/locwire}
if [ ! -x "$locwire" ]; then
  swift build -c release --product locwire >&2 || exit 1
fi
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

builtin_command="'$locwire' conformance testee"
declare -a names=(builtin)
declare -A commands=([builtin]="$builtin_command")
# The last two are the independent Python readings of the session rules and of validation and behaviour: they
# answer no codec vectors, and judge the families whose expectations come from the reference engines.
for peer in cpp python upb c swift-protobuf java go python-session python-behavior; do
  echo "==> building $peer" >&2
  if ! command=$(conformance/testees/$peer/build.sh); then
    echo "conformance/run-all.sh: building $peer failed" >&2
    exit 1
  fi
  names+=("$peer")
  commands[$peer]=$command
done

status=0
for name in "${names[@]}"; do
  echo "==> conformance run: $name" >&2
  if ! "$locwire" conformance run --testee "${commands[$name]}" --format json --output "$reports/$name.json"; then
    status=1
    "$locwire" conformance run --testee "${commands[$name]}" --quiet | grep -E '^(FAIL|CRASH|TIMEOUT|UNEXPECTED-PASS|STALE)' -A3 >&2 || true
  fi
done

files=()
for name in "${names[@]}"; do files+=("$reports/$name.json"); done
"$locwire" conformance matrix "${files[@]}" --output conformance/RESULTS.md

# Servers over HTTP (proto/HTTP.md): the probe against the reference server. $LOCWIRE_SERVER names a built
# locwire-server; without it, probe-reference.sh builds one (the Server package: minutes on a first build).
echo "==> probe: the reference server over HTTP" >&2
server_bin=()
if [ -n "${LOCWIRE_SERVER:-}" ]; then server_bin=(--bin "$LOCWIRE_SERVER"); fi
if ! Server/scripts/probe-reference.sh "${server_bin[@]}" --format markdown --name "locwire-server (reference)" \
  --quiet >"$reports/http.md"; then
  status=1
fi
{ echo; cat "$reports/http.md"; } >>conformance/RESULTS.md
echo "==> wrote conformance/RESULTS.md" >&2
exit $status
