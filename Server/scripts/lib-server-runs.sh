# Shared by the runs in Server/scripts/measure/ (sourced, not run): building locwire-server and locwire-floor,
# starting `serve` (or a floor) and waiting for its URL, the sqlite3 CLI's insert limit, and replacing one section
# of Server/RESULTS.md.

# Builds the binaries unless SKIP_BUILD=1; sets $bin (locwire-server) and $floor_bin (locwire-floor).
# LOCWIRE_BUILD_CONFIGURATION=debug uses the debug build (the one `swift test` made, so CI need not build twice);
# figures are only meaningful from release, the default.
build_locwire_server() {
    local root=$1 configuration=${LOCWIRE_BUILD_CONFIGURATION:-release}
    if [ "${SKIP_BUILD:-0}" != 1 ]; then
        (cd "$root/Server" && swift build -c "$configuration" --product locwire-server >&2)
        (cd "$root/Server" && swift build -c "$configuration" --product locwire-floor >&2)
    fi
    local bin_path
    bin_path="$(cd "$root/Server" && swift build -c "$configuration" --show-bin-path)"
    bin="$bin_path/locwire-server"
    floor_bin="$bin_path/locwire-floor"
    [ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
}

# start_server LOG ARGS...: starts `serve` in the background with ARGS, waits (at most 120 s) until it prints
# its URL; sets $server_pid and $server_url.
start_server() {
    start_locwire "$1" "$bin" serve "${@:2}"
}

# start_floor LOG ARGS...: as start_server, for `locwire-floor` (floor (a) or (b) by its --storage).
start_floor() {
    start_locwire "$1" "$floor_bin" "${@:2}"
}

# start_locwire LOG BINARY ARGS...: starts BINARY with ARGS in the background and waits until it prints
# "listening on URL" (serve, a floor); sets $server_pid and $server_url.
start_locwire() {
    local log=$1 binary=$2
    shift 2
    local subcommand="${binary##*/} $1"
    : >"$log"
    "$binary" "$@" >>"$log" 2>&1 &
    server_pid=$!
    local waited=0
    until grep -q "listening on" "$log"; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "$subcommand exited before listening:" >&2
            cat "$log" >&2
            exit 2
        fi
        sleep 0.05
        waited=$((waited + 1))
        if [ "$waited" -gt 2400 ]; then
            echo "$subcommand did not listen within 120 s" >&2
            kill -9 "$server_pid" 2>/dev/null || true
            exit 2
        fi
    done
    server_url=$(grep -o "http://[^ ]*" "$log" | tail -n 1)
}

# CPU seconds (user + system) a live process has used so far.
process_cpu_seconds() {
    awk -v ticks="$(getconf CLK_TCK)" '{ print ($14 + $15) / ticks }' "/proc/$1/stat"
}

# A free TCP port on loopback (the crash soak restarts the server on the same one).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# replace_results_section FILE NAME CONTENT_FILE: puts CONTENT_FILE between <!-- NAME:begin --> and
# <!-- NAME:end --> in FILE, replacing what was there, or appends the section.
replace_results_section() {
    python3 - "$1" "$2" "$3" <<'PYTHON'
import pathlib, sys
path, name, content = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3]).read_text()
begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
section = f"{begin}\n{content.rstrip()}\n{end}\n"
text = path.read_text() if path.exists() else ""
if begin in text and end in text:
    head, rest = text.split(begin, 1)
    text = head + section + rest.split(end, 1)[1].lstrip("\n")
else:
    text = (text.rstrip() + "\n\n" if text.strip() else "") + section
path.write_text(text)
PYTHON
}

# The machine, for the results: CPU model, cores, memory, kernel, and the disk under the databases.
machine_line() {
    local cpu
    cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
    echo "$cpu, $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB, Linux $(uname -r)," \
        "$(df -T "$1" | awk 'NR == 2 { print $2 }') on $(df "$1" | awk 'NR == 2 { print $1 }')"
}

# bulk_insert_limit NAME: times the sqlite3 CLI inserting the fix rows of $work/NAME.sqlite (a database `serve`
# filled) into a fresh database with the same table and index, in one transaction, with the server's pragmas
# (WAL, synchronous FULL): the physical limit of load-sqlite.sh and ingest-floors.sh. Writes $work/limit.json; counts
# a short copy in $failures ($work and $failures are the calling script's).
bulk_insert_limit() {
    local source=$work/$1.sqlite rows start end sql_ms select_ms
    rows=$(sqlite3 "$source" "SELECT COUNT(*) FROM fix")
    sqlite3 "$source" ".schema fix" >"$work/fix-schema.sql"
    # The rows in the order the server stored them, as the CLI's own INSERT statements (blobs as X'..').
    {
        echo "PRAGMA synchronous = FULL;"
        echo "BEGIN;"
        sqlite3 -cmd ".mode insert fix" "$source" "SELECT * FROM fix ORDER BY received_at_ms, device_id, sequence"
        echo "COMMIT;"
    } >"$work/rows.sql"
    for target in limit-sql limit-select; do
        rm -f "$work/$target.sqlite"*
        sqlite3 "$work/$target.sqlite" "PRAGMA journal_mode = WAL;" >/dev/null
        sqlite3 "$work/$target.sqlite" <"$work/fix-schema.sql"
    done
    sync
    start=$(date +%s%N)
    sqlite3 "$work/limit-sql.sqlite" <"$work/rows.sql"
    end=$(date +%s%N)
    sql_ms=$(((end - start) / 1000000))
    start=$(date +%s%N)
    sqlite3 "$work/limit-select.sqlite" "PRAGMA synchronous = FULL; ATTACH '$source' AS served; BEGIN;
        INSERT INTO fix SELECT * FROM served.fix ORDER BY received_at_ms, device_id, sequence; COMMIT;"
    end=$(date +%s%N)
    select_ms=$(((end - start) / 1000000))
    local copied
    copied=$(sqlite3 "$work/limit-sql.sqlite" "SELECT COUNT(*) FROM fix")
    [ "$copied" = "$rows" ] || { echo "the bulk insert stored $copied of $rows rows" >&2; failures=$((failures + 1)); }
    echo "{\"rows\": $rows, \"sqlMs\": $sql_ms, \"selectMs\": $select_ms, \"sqlBytes\": $(stat -c %s "$work/rows.sql")}" \
        >"$work/limit.json"
    rm -f "$work/rows.sql"
}
