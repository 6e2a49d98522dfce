#!/usr/bin/env bash
# Starts the reference server (locwire-server serve) on a loopback port with a fresh database, a region catalogue,
# a policy, a rate limit and an in-flight limit, runs `locwire-server probe` against it with 429 and 503
# required and this checkout's conformance/vectors, and stops the server. For CI and for conformance/run-all.sh
# (the "HTTP servers" section of conformance/RESULTS.md).
#
#   Server/scripts/probe-reference.sh [--bin PATH] [--postgres URL] [PROBE OPTIONS...]
#
#   --bin PATH       the locwire-server executable (default: built with swift build in Server/)
#   --postgres URL   serve --postgres URL (a fresh device id, so earlier runs on the database do not matter)
#                    instead of a fresh SQLite file
#   PROBE OPTIONS    passed to probe as they are, e.g. --format junit --output probe.xml, or --format markdown
#                    --name "locwire-server (reference)"
#
# Exit status: the probe's (0 every check passed, 1 a check failed, 2 usage error or no server), or 2 when the
# server does not start. The server's output goes to standard error when it fails to start.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
bin=""
if [[ "${1:-}" == "--bin" ]]; then
  bin="$2"
  shift 2
fi
storage=()
device=device-1
if [[ "${1:-}" == "--postgres" ]]; then
  storage=(--postgres "$2")
  device="probe-$(date +%s)-$$"
  shift 2
fi
if [[ -z "$bin" ]]; then
  (cd "$here" && swift build --product locwire-server >&2) || { echo "probe-reference.sh: build failed" >&2; exit 2; }
  bin="$(cd "$here" && swift build --show-bin-path)/locwire-server"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A 2 s body time-out keeps the slow-client check short; 2 requests in flight and 20 requests per second make
# 503 and 429 real answers the probe can provoke, while the probe waits out the ones its other checks meet.
# 20, not more: the 429 check sends 2 at a time, so it outpaces the limit only while the server answers faster
# than the limit refills. Under CI's parallel lanes PostgreSQL answered under 50 a second, and a limit of 50
# was never reached (status.429.rate-limit failed with 256 acked); 20 leaves a margin of 2.5 over that. The
# waits it adds to the other checks cost about 20 s a run.
[[ ${#storage[@]} -eq 0 ]] && storage=(--database "$work/probe.sqlite" --durability normal)
"$bin" serve --port 0 "${storage[@]}" --device-id "$device" --body-timeout-seconds 2 \
  --rate-limit 20 --max-in-flight 2 \
  --catalogue "$root/examples/catalogue.geojson" --policy "$root/examples/walker-policy.json" \
  --new-operator-token --retain-days 30 \
  >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!

for _ in $(seq 1 100); do
  grep -q 'bearer token' "$work/serve.out" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
url="$(sed -n 's/^locwire-server listening on //p' "$work/serve.out")"
token="$(sed -n "s/^device $device bearer token: //p" "$work/serve.out")"
operator="$(sed -n "s/^operator bearer token: //p" "$work/serve.out")"
if [[ -z "$url" || -z "$token" ]]; then
  echo "probe-reference.sh: the server did not start" >&2
  cat "$work/serve.out" "$work/serve.err" >&2
  exit 2
fi

# --allow-erase: the device is this run's own, so the erasure check (which erases all its data) may run.
# The operator token, the retention the policy must state and a place the catalogue covers make the checks of
# §http-operator-token, §http-retention-stated and §http-regions-held applicable. The vectors replayed are this
# checkout's, named explicitly: the probe would otherwise look for them up from the current directory.
"$bin" probe --server "$url" --token "$token" --device-id "$device" --vectors "$root/conformance/vectors" \
  --require-status 429,503 --stall-seconds 10 \
  --allow-erase --operator-token "$operator" --expect-retention-days 30 --regions-at 45.3,14.6 "$@"
