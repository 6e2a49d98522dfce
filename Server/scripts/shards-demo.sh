#!/usr/bin/env bash
# A single PostgreSQL database moved into two shards, end to end: `serve --postgres` takes uploads from
# `locwire-server load`, is stopped, Server/scripts/shard-split.sh copies its database into two others, and
# `serve --postgres-shard A --postgres-shard B` then serves the same devices with the same tokens. Checked: every
# acknowledged fix is in exactly one shard, the one of its device, with its bytes (check-ack-journal.py), and
# the read-back through the sharded server gives every device all of its fixes; new uploads land in their
# device's shard; with shard B stopped, a device of A is answered 200 and a device of B 503 with Retry-After,
# also by a server started while B is down, and after B's restart B's device is answered again. Last, shard A is
# split: the upper half of its range is copied into the (emptied) source database and deleted from A, and
# `serve --shard-map` over the three shards still reads back every fix.
#
#   Server/scripts/shards-demo.sh [--binary PATH] [--ports P1,P2,P3] [--dir PREFIX] [--devices N] [--seconds S]
#                                 [--keep-postgres]
#
# Three throwaway clusters (Server/scripts/start-postgres.sh in PREFIX-1..3, default
# ${TMPDIR:-/tmp}/locwire-shards-demo, on ports 55441-55443 by default): the source and the two shards. Their
# `locwire` databases are emptied first: give it clusters of its own. It stops the clusters it started unless
# --keep-postgres. Without --binary the server is built with `swift build`. Exit status 0 when every check
# passes, 1 otherwise.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
root=$(cd "$(dirname "$script")/../.." && pwd)
# shellcheck source=Server/scripts/lib-server-runs.sh
. "$root/Server/scripts/lib-server-runs.sh"

binary=
ports=55441,55442,55443
prefix=${TMPDIR:-/tmp}/locwire-shards-demo
devices=40
seconds=5
keep_postgres=false
while (($#)); do
  case $1 in
  --binary) binary=$2; shift 2 ;;
  --ports) ports=$2; shift 2 ;;
  --dir) prefix=$2; shift 2 ;;
  --devices) devices=$2; shift 2 ;;
  --seconds) seconds=$2; shift 2 ;;
  --keep-postgres) keep_postgres=true; shift ;;
  -h | --help) sed -n '2,19p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "shards-demo.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
IFS=, read -r -a port_list <<<"$ports"
((${#port_list[@]} == 3)) || { echo "shards-demo.sh: --ports takes three ports" >&2; exit 2; }

say() { printf '\n==> %s\n' "$*" >&2; }
failures=0
check() { # check DESCRIPTION COMMAND...: runs COMMAND, counts a failure when it fails
  local description=$1
  shift
  if "$@"; then echo "ok: $description"; else echo "FAIL: $description"; failures=$((failures + 1)); fi
}

if [[ -z $binary ]]; then
  LOCWIRE_BUILD_CONFIGURATION=${LOCWIRE_BUILD_CONFIGURATION:-debug} build_locwire_server "$root"
  binary=$bin
fi
bin=$binary
[[ -x $bin ]] || { echo "no executable at $bin" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/shards-demo.XXXXXX")
started=()
server_pid=
cleanup() {
  [[ -n $server_pid ]] && { kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
  if ! $keep_postgres; then
    for dir in "${started[@]}"; do "$root/Server/scripts/start-postgres.sh" stop --dir "$dir" >&2 || true; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

empty() { psql "$1" -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
  -c "DROP SCHEMA IF EXISTS public CASCADE" -c "CREATE SCHEMA public"; }

say "Three PostgreSQL clusters: the source and shards A and B"
urls=()
for i in 0 1 2; do
  dir="$prefix-$((i + 1))"
  [[ -f $dir/data/postmaster.pid ]] || started+=("$dir")
  urls+=("$("$root/Server/scripts/start-postgres.sh" --dir "$dir" --port "${port_list[i]}" 2>>"$work/postgres.log")")
  empty "${urls[i]}"
done
source_url=${urls[0]}
shard_a=${urls[1]}
shard_b=${urls[2]}
printf '%s\n' "${urls[@]}" >&2

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

say "serve --postgres (one database), $devices devices uploading for $seconds s"
start_server "$work/single.log" --port 0 --postgres "$source_url" --extra-devices $((devices - 1)) \
  --tokens-file "$work/tokens.json" --new-operator-token
"$bin" load --server "$server_url" --tokens-file "$work/tokens.json" --devices "$devices" --seconds "$seconds" \
  --fixes-per-batch 10 --ack-journal "$work/acks.csv" --format json --output "$work/load.json" --quiet
stop_server
tokens_before=$(sha256sum <"$work/tokens.json")
python3 "$root/Server/scripts/check-ack-journal.py" --postgres "$source_url" --journal "$work/acks.csv" |
  sed 's/^/  source: /'

device_of() { # device_of LOW HIGH: a device of tokens.json whose bucket is in [LOW, HIGH]
  python3 -c '
import hashlib, json, sys
low, high = int(sys.argv[2]), int(sys.argv[3])
bucket = lambda device: int(hashlib.sha256(device.encode()).hexdigest()[:8], 16)
print(next(d for d in json.load(open(sys.argv[1])) if low <= bucket(d) <= high))
' "$work/tokens.json" "$1" "$2"
}
get() { # get DEVICE [TOKEN]: "STATUS SECONDS RETRY-AFTER" of the device's read-back, with its token from the file
  local token=${2:-}
  [[ -n $token ]] ||
    token=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/tokens.json" "$1")
  curl -s -o /dev/null -D "$work/headers" -w '%{http_code} %{time_total}' -H "Authorization: Bearer $token" \
    "$server_url/v1/devices/$1/fixes"
  printf ' %s\n' "$(tr -d '\r' <"$work/headers" | sed -n 's/^[Rr]etry-[Aa]fter: //p')"
}
device_a=$(device_of 0 2147483647)
device_b=$(device_of 2147483648 4294967295)
# A token as issued before sharding: its first digits name a bucket of shard B, its device is in shard A.
legacy_token=ffffffff$(python3 -c 'import secrets; print(secrets.token_hex(28))')
psql "$source_url" -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO device_token (token_sha256, device_id, created_at_ms)
  VALUES ('$(printf '%s' "$legacy_token" | sha256sum | cut -c1-64)', '$device_a', 0)"

say "shard-split.sh --from source --to A --to B"
"$root/Server/scripts/shard-split.sh" --from "$source_url" --to "$shard_a" --to "$shard_b" --binary "$bin" \
  | tee "$work/split.txt"

say "serve --postgres-shard A --postgres-shard B, with the tokens made before the split"
start_server "$work/sharded.log" --port 0 --postgres-shard "$shard_a" --postgres-shard "$shard_b" \
  --extra-devices $((devices - 1)) --tokens-file "$work/tokens.json"
grep '^shard ' "$work/sharded.log"
check "serve's shard ranges are shard-split.sh's" \
  diff <(grep '^shard ' "$work/split.txt") <(grep '^shard ' "$work/sharded.log")
check "every token made before the split still works (the tokens file was not rewritten)" \
  test "$tokens_before" = "$(sha256sum <"$work/tokens.json")"
check "every acknowledged fix is in the shards once, with its bytes" \
  python3 "$root/Server/scripts/check-ack-journal.py" --postgres "$shard_a" --postgres "$shard_b" \
  --journal "$work/acks.csv"

# The read-back of every device through the sharded server gives each acknowledged fix.
read_back() {
  python3 - "$server_url" "$work/tokens.json" "$1" <<'PYTHON'
import collections, json, sys, urllib.request
url, tokens, journal = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
acked = collections.defaultdict(set)
for line in open(journal):
    device, install, sequence, _ = line.strip().split(",")
    acked[device].add((int(install) % 2**64, int(sequence) % 2**64))  # the journal's are signed, as stored
missing = read = 0
for device, token in tokens.items():
    request = urllib.request.Request(f"{url}/v1/devices/{device}/fixes", headers={"Authorization": f"Bearer {token}"})
    answer = json.load(urllib.request.urlopen(request, timeout=30))
    assert not answer["truncated"], device
    got = {(int(item["installId"]), int(item["fix"].get("sequence", 0))) for item in answer["fixes"]}
    read += len(got)
    missing += len(acked[device] - got)
print(f"  read back {read} fixes of {len(tokens)} devices; acknowledged but not read back: {missing}")
sys.exit(1 if missing or not read else 0)
PYTHON
}
check "the read-back of every device through the sharded server gives all its acknowledged fixes" \
  read_back "$work/acks.csv"
read -r status_legacy _ < <(get "$device_a" "$legacy_token")
check "a token from before sharding whose digits name shard B finds its device in shard A ($status_legacy)" \
  test "$status_legacy" = 200

say "More uploads, now through the sharded server"
"$bin" load --server "$server_url" --tokens-file "$work/tokens.json" --devices "$devices" --seconds 3 \
  --fixes-per-batch 10 --seed 2 --ack-journal "$work/acks-sharded.csv" --format json \
  --output "$work/load-sharded.json" --quiet
cat "$work/acks.csv" "$work/acks-sharded.csv" >"$work/acks-all.csv"
check "every fix acknowledged before and after the split is in the shards once" \
  python3 "$root/Server/scripts/check-ack-journal.py" --postgres "$shard_a" --postgres "$shard_b" \
  --journal "$work/acks-all.csv"
check "the read-back through the sharded server gives every fix acknowledged before and after the split" \
  read_back "$work/acks-all.csv"
bucket_sql=$(sed -n 's/^bucket_sql="\(.*\)"$/\1/p' "$root/Server/scripts/shard-split.sh")
stray_a=$(psql "$shard_a" -XAtc "SELECT COUNT(*) FROM fix WHERE $bucket_sql > 2147483647")
stray_b=$(psql "$shard_b" -XAtc "SELECT COUNT(*) FROM fix WHERE $bucket_sql <= 2147483647")
check "no fix in a shard of another's range (A: $stray_a, B: $stray_b)" test "$stray_a$stray_b" = 00

say "Shard B stopped: its devices get 503 with Retry-After, A's are served"
# One request of a device of each shard, while B is down: A's answered 200, B's 503 with Retry-After.
outage_answers() {
  local status_a time_a status_b time_b retry_b
  read -r status_a time_a _ < <(get "$device_a")
  read -r status_b time_b retry_b < <(get "$device_b")
  echo "  $device_a (shard A): $status_a in ${time_a} s; $device_b (shard B): $status_b in ${time_b} s," \
    "Retry-After: ${retry_b:-none}"
  check "$1: A's device is served while B is down" test "$status_a" = 200
  check "$1: B's device gets 503 with Retry-After, not 401" test "$status_b:${retry_b:+set}" = 503:set
}
"$root/Server/scripts/start-postgres.sh" stop --dir "$prefix-3" >&2
outage_answers "running server"

say "The sharded server killed and started again while B is down"
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null || true
start_server "$work/sharded-again.log" --port 0 --postgres-shard "$shard_a" --postgres-shard "$shard_b" \
  --extra-devices $((devices - 1)) --tokens-file "$work/tokens.json"
outage_answers "server started while B is down"

say "Shard B restarted"
"$root/Server/scripts/start-postgres.sh" --dir "$prefix-3" --port "${port_list[2]}" >/dev/null 2>>"$work/postgres.log"
status_b=
for _ in $(seq 1 30); do
  read -r status_b time_b _ < <(get "$device_b")
  [[ $status_b == 200 ]] && break
  sleep 1
done
echo "  $device_b (shard B): $status_b"
check "B's device is served again after B's restart" test "$status_b" = 200
stop_server

say "Shard A split: the upper half of its range (40000000-7fffffff) moved into the emptied source database"
empty "$source_url"
"$root/Server/scripts/shard-split.sh" --from "$shard_a" --range 40000000-7fffffff --to "$source_url" --binary "$bin"
for table in device_token installation fix fence_event lifecycle_event device_status assignment; do
  psql "$shard_a" -X -q -v ON_ERROR_STOP=1 -c "DELETE FROM $table WHERE $bucket_sql BETWEEN 1073741824 AND 2147483647"
done
cat >"$work/shards.json" <<JSON
[{"url": "$shard_a", "firstBucket": "00000000", "lastBucket": "3fffffff"},
 {"url": "$source_url", "firstBucket": "40000000", "lastBucket": "7fffffff"},
 {"url": "$shard_b", "firstBucket": "80000000", "lastBucket": "ffffffff"}]
JSON
start_server "$work/three.log" --port 0 --shard-map "$work/shards.json" --extra-devices $((devices - 1)) \
  --tokens-file "$work/tokens.json"
grep '^shard ' "$work/three.log"
check "after the split, every acknowledged fix is in the three shards once" \
  python3 "$root/Server/scripts/check-ack-journal.py" --shard-map "$work/shards.json" --journal "$work/acks-all.csv"
check "after the split, the read-back through the three shards gives every acknowledged fix" \
  read_back "$work/acks-all.csv"
check "the tokens still work after the split (the tokens file was not rewritten)" \
  test "$tokens_before" = "$(sha256sum <"$work/tokens.json")"
stop_server

if ((failures > 0)); then
  echo "shards-demo: $failures checks failed" >&2
  exit 1
fi
echo "shards-demo: every check passed"
