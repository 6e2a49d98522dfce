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

# make_work_dir NAME: sets $work to a fresh directory under $TMPDIR, removed at exit unless $keep is 1 (--keep);
# at exit, the server still in $server_pid is killed.
make_work_dir() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
    server_pid=
    trap remove_work_dir EXIT
}

remove_work_dir() {
    [ -n "${server_pid:-}" ] && kill -9 "$server_pid" 2>/dev/null || true
    if [ "${keep:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}

# floors_run_shape SHORT: sets $devices, $seconds and $rounds of the side-by-side runs (ingest-floors.sh,
# postgres-floors.sh): $FLOORS_DEVICES devices (default 200) in a closed loop for $FLOORS_SECONDS s (20), in
# $FLOORS_ROUNDS rounds (2); with SHORT 1 (the CI form) 50 devices for 3 s, one round.
floors_run_shape() {
    if [ "$1" = 1 ]; then
        devices=50 seconds=3 rounds=1
    else
        devices=${FLOORS_DEVICES:-200} seconds=${FLOORS_SECONDS:-20} rounds=${FLOORS_ROUNDS:-2}
    fi
}

# CPU seconds (user + system) a live process has used so far.
process_cpu_seconds() {
    awk -v ticks="$(getconf CLK_TCK)" '{ print ($14 + $15) / ticks }' "/proc/$1/stat"
}

# drop_server_tables URL: drops every table `serve --postgres` makes, so that the next serve starts on an empty
# schema (migrations, tokens and all).
drop_server_tables() {
    psql -X -q "$1" -c "DROP TABLE IF EXISTS fix, fence_event, lifecycle_event, device_status, assignment,
        installation, device_token, operator_token, schema_migration CASCADE" >/dev/null
}

# postmaster_pid URL: the process id of the local PostgreSQL cluster at URL (the parent of a backend), so that its
# CPU can be read from /proc; fails when the cluster is not on this machine.
postmaster_pid() {
    local parent
    # The backend's /proc entry is read while its session is open (psql's \! runs a shell command mid-session).
    parent=$(psql -X -qtA "$1" 2>/dev/null <<'PSQL' | tail -n 1
SELECT pg_backend_pid() AS backend \gset
\setenv LOCWIRE_BACKEND :backend
\! awk '{ sub(/.*\) /, ""); print $2 }' "/proc/$LOCWIRE_BACKEND/stat" 2>/dev/null
PSQL
    )
    if [ -z "$parent" ] || [ "$(cat "/proc/$parent/comm" 2>/dev/null)" != postgres ]; then
        echo "PostgreSQL is unreachable or not on this machine (its CPU is read from /proc)" >&2
        return 1
    fi
    echo "$parent"
}

# postgres_cpu_seconds POSTMASTER_PID: CPU seconds (user + system) of one cluster so far: the postmaster, its
# live children (backends, WAL writer, checkpointer) and, through the postmaster's cutime and cstime, the children
# it has reaped, so a backend that exits mid-run still counts. Other clusters on the machine are not counted.
postgres_cpu_seconds() {
    local children
    children=$(pgrep -P "$1" | sed 's|.*|/proc/&/stat|' | tr '\n' ' ')
    # shellcheck disable=SC2086 # one path per child
    awk -v ticks="$(getconf CLK_TCK)" -v postmaster="/proc/$1/stat" '
        { sub(/.*\) /, ""); sum += $12 + $13 }
        FILENAME == postmaster { sum += $14 + $15 }
        END { print sum / ticks }' "/proc/$1/stat" $children 2>/dev/null || true
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

# finish_measure SECTION STATUS: the end of a measurement run: prints $work/section.md; the short form ($short 1)
# ends there, passing only if STATUS is 0; the full form puts the text in the SECTION section of
# Server/RESULTS.md, and then fails unless STATUS is 0 (the figures of a run with errors are kept, to be read).
finish_measure() {
    local section=$1 status=$2
    cat "$work/section.md"
    if [ "$short" = 1 ]; then
        if [ "$status" != 0 ]; then echo "$section --short: FAIL" >&2; exit 1; fi
        echo "$section --short: pass"
        exit 0
    fi
    replace_results_section "$root/Server/RESULTS.md" "$section" "$work/section.md"
    echo "wrote the $section section of Server/RESULTS.md" >&2
    if [ "$status" != 0 ]; then echo "$section: failures (above)" >&2; exit 1; fi
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
