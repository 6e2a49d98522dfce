# Shared by Server/scripts/load-sqlite.sh, load-postgres.sh and crash-soak.sh (sourced, not run): building
# locwire-server, starting `serve` and waiting for its URL, and replacing one section of Server/RESULTS.md.

# Builds the binary unless SKIP_BUILD=1; sets $bin. LOCWIRE_BUILD_CONFIGURATION=debug uses the debug build
# (the one `swift test` made, so CI need not build twice); figures are only meaningful from release, the default.
build_locwire_server() {
    local root=$1 configuration=${LOCWIRE_BUILD_CONFIGURATION:-release}
    if [ "${SKIP_BUILD:-0}" != 1 ]; then
        (cd "$root/Server" && swift build -c "$configuration" --product locwire-server >&2)
    fi
    bin="$(cd "$root/Server" && swift build -c "$configuration" --show-bin-path)/locwire-server"
    [ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
}

# start_server LOG ARGS...: starts `serve` in the background with ARGS, waits (at most 120 s) until it prints
# its URL; sets $server_pid and $server_url.
start_server() {
    local log=$1
    shift
    : >"$log"
    "$bin" serve "$@" >>"$log" 2>&1 &
    server_pid=$!
    local waited=0
    until grep -q "listening on" "$log"; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "serve exited before listening:" >&2
            cat "$log" >&2
            exit 2
        fi
        sleep 0.05
        waited=$((waited + 1))
        if [ "$waited" -gt 2400 ]; then
            echo "serve did not listen within 120 s" >&2
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
