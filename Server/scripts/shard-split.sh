#!/usr/bin/env bash
# Copies the PostgreSQL database of `locwire-server serve --postgres` into N empty databases, the shards of
# `serve --postgres-shard URL` (given in the same order) or of `serve --shard-map FILE` (--write-map makes it):
# each device's rows, its tokens included, go to the shard owning its bucket (the first 4 bytes of SHA-256 of
# the device id, Server/README.md "Shards"); operator tokens go to every shard. Then it counts the rows of
# every table in the source and the shards: each table's source count must be the sum of its shards', and no
# shard may hold a row of another's range.
#
#   Server/scripts/shard-split.sh --from URL --to URL [--to URL ...] [--range FIRST-LAST] [--write-map FILE]
#                                 [--binary PATH]
#
# --range (8 hex digits each, inclusive; default 00000000-ffffffff) splits only the buckets a shard owns, to
# split that shard later: its range is cut evenly over the --to databases, which replace it in the shard map.
# The targets get their schema from `locwire-server migrate` (--binary, else built with swift build) and must
# hold no rows. Stop every server first, or run it on a snapshot of the source: what servers write to the
# source after its tables are copied is not in the shards, and is lost when the servers move to them. The
# source is only read. Needs psql on PATH.
# Exit status: 0 when every count matches, 1 when a count does not (or a copy failed), 2 on a usage error or a
# target that is not empty.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

# The bucket of the row's device_id in SQL, equal to ShardMap.bucket(ofDevice:) (a Swift test checks it on
# this very line): PostgreSQL 11 or later.
bucket_sql="('x' || substr(encode(sha256(convert_to(device_id, 'UTF8')), 'hex'), 1, 8))::bit(32)::bigint"

# The tables of device data, each with device_id; operator_token is copied whole to every shard.
device_tables=(device_token installation fix fence_event lifecycle_event device_status assignment)
partitioned_tables=(fix fence_event)

usage() { sed -n '2,19p' "$script" | sed 's/^# \{0,1\}//' >&2; exit 2; }
fail() { echo "shard-split.sh: $*" >&2; exit 1; }

from=
targets=()
range=00000000-ffffffff
map_file=
binary=
while (($#)); do
  case $1 in
  --from) from=${2:-}; shift 2 ;;
  --to) targets+=("${2:-}"); shift 2 ;;
  --range) range=${2:-}; shift 2 ;;
  --write-map) map_file=${2:-}; shift 2 ;;
  --binary) binary=${2:-}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "shard-split.sh: unknown argument $1" >&2; usage ;;
  esac
done
[[ -n $from && ${#targets[@]} -ge 1 ]] || usage
if ! [[ $range =~ ^([0-9a-fA-F]{8})-([0-9a-fA-F]{8})$ ]]; then
  echo "shard-split.sh: --range is FIRST-LAST, 8 hex digits each" >&2
  exit 2
fi
low=$((16#${BASH_REMATCH[1]}))
high=$((16#${BASH_REMATCH[2]}))
((low <= high)) || { echo "shard-split.sh: --range starts after it ends" >&2; exit 2; }
command -v psql >/dev/null || { echo "shard-split.sh: psql is not on PATH" >&2; exit 2; }

if [[ -z $binary ]]; then
  (cd "$(dirname "$script")/.." && swift build --product locwire-server >&2)
  binary="$(cd "$(dirname "$script")/.." && swift build --show-bin-path)/locwire-server"
fi
[[ -x $binary ]] || { echo "shard-split.sh: no executable at $binary" >&2; exit 2; }

sql() { psql "$1" -X -q -A -t -v ON_ERROR_STOP=1 -c "$2"; }
shown() { sed -E 's#://([^:@/]*):[^@/]*@#://\1@#' <<<"$1"; } # the URL without its password

# Target i of n owns [low + floor(i*size/n), low + floor((i+1)*size/n) - 1]: with the whole range, the rule of
# `serve --postgres-shard` (ShardMap(evenlyOver:)).
n=${#targets[@]}
size=$((high - low + 1))
firsts=()
lasts=()
for ((i = 0; i < n; i++)); do
  firsts+=($((low + i * size / n)))
  lasts+=($((low + (i + 1) * size / n - 1)))
  printf 'shard %d buckets %08x-%08x: %s\n' $((i + 1)) "${firsts[i]}" "${lasts[i]}" "$(shown "${targets[i]}")"
done

echo "==> schema of each shard (locwire-server migrate)" >&2
for target in "${targets[@]}"; do
  "$binary" migrate --postgres "$target" >&2 || fail "cannot migrate $(shown "$target")"
  held=0
  for table in "${device_tables[@]}" operator_token; do
    held=$((held + $(sql "$target" "SELECT COUNT(*) FROM $table")))
  done
  if ((held > 0)); then
    echo "shard-split.sh: $(shown "$target") already holds $held rows: it fills empty databases only" >&2
    exit 2
  fi
done

# The same day partitions as the source, so that the rows land in days retention drops whole.
for table in "${partitioned_tables[@]}"; do
  partitions=$(sql "$from" "SELECT c.relname || '|' || pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('$table')
    AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'")
  while IFS='|' read -r name bound; do
    [[ -n $name ]] || continue
    for target in "${targets[@]}"; do
      sql "$target" "CREATE TABLE IF NOT EXISTS $name PARTITION OF $table $bound" >/dev/null
    done
  done <<<"$partitions"
done

columns() {
  sql "$from" "SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position)
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '$1'"
}

echo "==> copying" >&2
for table in "${device_tables[@]}" operator_token; do
  cols=$(columns "$table")
  for ((i = 0; i < n; i++)); do
    where=TRUE
    [[ $table == operator_token ]] || where="$bucket_sql BETWEEN ${firsts[i]} AND ${lasts[i]}"
    psql "$from" -X -q -v ON_ERROR_STOP=1 -c "COPY (SELECT $cols FROM $table WHERE $where) TO STDOUT" |
      psql "${targets[i]}" -X -q -v ON_ERROR_STOP=1 -c "COPY $table ($cols) FROM STDIN" ||
      fail "copying $table into $(shown "${targets[i]}") failed: empty that database and run again"
  done
done

echo "==> counts" >&2
mismatches=0
printf '%-16s %10s' table source
for ((i = 0; i < n; i++)); do printf ' %10s' "shard $((i + 1))"; done
printf ' %10s\n' sum
for table in "${device_tables[@]}" operator_token; do
  in_range="$bucket_sql BETWEEN $low AND $high"
  [[ $table == operator_token ]] && in_range=TRUE
  source_count=$(sql "$from" "SELECT COUNT(*) FROM $table WHERE $in_range")
  printf '%-16s %10d' "$table" "$source_count"
  sum=0
  for ((i = 0; i < n; i++)); do
    count=$(sql "${targets[i]}" "SELECT COUNT(*) FROM $table")
    printf ' %10d' "$count"
    if [[ $table == operator_token ]]; then
      ((count == source_count)) || mismatches=$((mismatches + 1))
    else
      sum=$((sum + count))
      stray=$(sql "${targets[i]}" "SELECT COUNT(*) FROM $table
        WHERE $bucket_sql NOT BETWEEN ${firsts[i]} AND ${lasts[i]}")
      if ((stray > 0)); then
        echo "shard $((i + 1)) holds $stray rows of $table outside its range" >&2
        mismatches=$((mismatches + 1))
      fi
    fi
  done
  if [[ $table == operator_token ]]; then
    printf ' %10s\n' "(each)"
  else
    printf ' %10d\n' "$sum"
    ((sum == source_count)) || mismatches=$((mismatches + 1))
  fi
done
outside=$(sql "$from" "SELECT COUNT(*) FROM device_token WHERE $bucket_sql NOT BETWEEN $low AND $high")
((outside == 0)) || echo "note: the source holds $outside tokens of devices outside $range; they were not copied" >&2

if [[ -n $map_file ]]; then
  {
    echo "["
    for ((i = 0; i < n; i++)); do
      comma=,
      ((i == n - 1)) && comma=
      printf '  {"url": "%s", "firstBucket": "%08x", "lastBucket": "%08x"}%s\n' \
        "$(shown "${targets[i]}")" "${firsts[i]}" "${lasts[i]}" "$comma"
    done
    echo "]"
  } >"$map_file"
  echo "wrote $map_file (passwords left out: serve takes PGPASSWORD); add the other shards' entries to it" >&2
fi

if ((mismatches > 0)); then
  echo "FAIL: $mismatches counts do not match" >&2
  exit 1
fi
echo "ok: every table's rows are in the shard of their device, once"
