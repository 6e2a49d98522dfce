#!/usr/bin/env bash
# Two `locwire-server serve --postgres` processes share one PostgreSQL, as servers behind a load balancer would:
# overlapping batches of one installation are sent to both at once, and then psql counts what was stored.
# Exits non-zero unless every fix is stored exactly once and the acks agree (each fix ACCEPTED once, DUPLICATE
# in every other ack answering it), and unless both servers print the same token for the device.
#
#   Server/scripts/postgres-two-servers.sh [--binary PATH] [--batches N] [--keep-postgres]
#
# PostgreSQL comes from Server/scripts/start-postgres.sh (its default directory and port; started when not
# running, stopped afterwards only if this script started it, unless --keep-postgres). Each run uses a device id
# of its own, so runs do not see each other's rows. Without --binary the server is built with `swift build` in
# Server/.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$script")/../.."

binary=
batches=40
keep_postgres=false
while (($#)); do
  case $1 in
  --binary) binary=$2; shift 2 ;;
  --batches) batches=$2; shift 2 ;;
  --keep-postgres) keep_postgres=true; shift ;;
  -h | --help) sed -n '2,12p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "postgres-two-servers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

say() { printf '\n==> %s\n' "$*" >&2; }

if [[ -z $binary ]]; then
  say "Building locwire-server"
  (cd Server && swift build --product locwire-server >&2)
  binary="$(cd Server && swift build --show-bin-path)/locwire-server"
fi
[[ -x $binary ]] || { echo "no executable at $binary" >&2; exit 1; }

work=$(mktemp -d)
pids=()
started_postgres=false
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if $started_postgres && ! $keep_postgres; then Server/scripts/start-postgres.sh stop >&2 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

say "PostgreSQL"
pgdir=${LOCWIRE_POSTGRES_DIR:-/tmp/locwire-postgres}
if ! [[ -f $pgdir/data/postmaster.pid ]]; then started_postgres=true; fi
url=$(Server/scripts/start-postgres.sh)
echo "$url" >&2

device="two-servers-$(date +%s)-$$"
start_server() {
  local log=$1
  : >"$log"
  "$binary" serve --postgres "$url" --port 0 --device-id "$device" >"$log" 2>&1 &
  pids+=($!)
}

# Waits for a server's "listening on" line; prints its URL.
server_url() {
  local log=$1
  for _ in $(seq 1 300); do
    if grep -q '^locwire-server listening on ' "$log"; then
      sed -n 's/^locwire-server listening on //p' "$log" | head -n 1
      return 0
    fi
    sleep 0.1
  done
  echo "a server did not start; its output:" >&2
  cat "$log" >&2
  return 1
}

say "Two servers on one database (both started at once: both run the schema migration)"
start_server "$work/a.log"
start_server "$work/b.log"
url_a=$(server_url "$work/a.log")
url_b=$(server_url "$work/b.log")
# Only digests of tokens are stored, so the device's first token is made, and printed, by exactly one of them;
# the other says the device has one.
token_a=$(sed -n "s/^device $device bearer token: //p" "$work/a.log")
token_b=$(sed -n "s/^device $device bearer token: //p" "$work/b.log")
echo "A: $url_a" >&2
echo "B: $url_b" >&2
if [[ -n $token_a && -n $token_b ]] || [[ -z $token_a && -z $token_b ]]; then
  echo "FAIL: not exactly one server made a token for $device (A: '$token_a', B: '$token_b')" >&2
  exit 1
fi
if ! grep -q "^device $device has a bearer token" "$work/a.log" "$work/b.log"; then
  echo "FAIL: the server that made no token did not say the device has one" >&2
  exit 1
fi
token_a=${token_a:-$token_b}
echo "one server made the token for $device, the other found it" >&2

say "$batches overlapping batches of one installation, sent at once, alternately to A and B"
highest=$(python3 conformance/clients/python-uploader/uploader.py interleave "$url_a" "$url_b" --token "$token_a" --device "$device" \
  --batches "$batches")

say "What PostgreSQL holds"
read -r rows distinct lowest top < <(psql "$url" -X -A -t -F ' ' -c \
  "SELECT COUNT(*), COUNT(DISTINCT sequence), MIN(sequence), MAX(sequence) FROM fix WHERE device_id = '$device'")
echo "fix rows: $rows, distinct sequences: $distinct, from $lowest to $top (expected 1 to $highest, once each)" >&2
if [[ $rows != "$highest" || $distinct != "$highest" || $lowest != 1 || $top != "$highest" ]]; then
  echo "FAIL: the stored fixes are not 1..$highest exactly once" >&2
  exit 1
fi
# The ledger record must list exactly what the table holds (§server-durable): everything sent again, each batch
# to the other server this time, must be answered DUPLICATE throughout and store nothing.
python3 conformance/clients/python-uploader/uploader.py interleave "$url_b" "$url_a" --token "$token_a" --device "$device" \
  --batches "$batches" --expect duplicate >/dev/null
again=$(psql "$url" -X -A -t -c "SELECT COUNT(*) FROM fix WHERE device_id = '$device'")
if [[ $again != "$highest" ]]; then
  echo "FAIL: a resend stored more fixes ($again rows)" >&2
  exit 1
fi
echo "a resend of everything to the other server is all DUPLICATE; still $again rows" >&2

say "ok: two servers, one database, every fix stored once, acks agree"
