#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for the reference server's tests, CI and load runs
# (`locwire-server serve --postgres URL`). Prints the cluster's URL on standard output, nothing else; progress goes
# to standard error.
#
#   Server/scripts/start-postgres.sh [--dir DIR] [--port PORT]   start (or find running) a cluster; print its URL
#   Server/scripts/start-postgres.sh stop [--dir DIR]            stop it (the data stay in DIR; rm -rf DIR to
#                                                                forget them)
#   Server/scripts/start-postgres.sh stop --immediate [--dir DIR] stop it as a crash would (pg_ctl -m immediate:
#                                                                no checkpoint; the next start replays the WAL)
#   Server/scripts/start-postgres.sh install                     only install PostgreSQL when missing (CI's
#                                                                install step)
#
# DIR defaults to $LOCWIRE_POSTGRES_DIR or /tmp/locwire-postgres, PORT to $LOCWIRE_POSTGRES_PORT or 55432 (not
# 5432, so that a system cluster is never touched); the variables give every script that starts PostgreSQL through
# this one another cluster (CI's lanes run two side by side). The database and its role are both `locwire`, password `locwire`: the cluster
# listens on 127.0.0.1 only and is meant to be thrown away.
#
# Idempotent and fast: a second start with a running cluster only prints the URL; a stopped one is started again
# with its data (initdb runs once per DIR). When initdb is missing, Debian's `postgresql` is installed with
# apt-get (its binaries land in /usr/lib/postgresql/<version>/bin), without the `main` cluster Debian would
# otherwise create and start on 5432. initdb refuses to run as root, so under root (CI) the cluster belongs to
# the `postgres` user, and DIR must be a place that user can reach (/tmp is).
#
# Commits are synced (fsync on, synchronous_commit on, the defaults, set explicitly): timings measured here are
# those of a durable server.
set -euo pipefail

action=start
if [[ ${1:-} == start || ${1:-} == stop || ${1:-} == install ]]; then
  action=$1
  shift
fi
dir=${LOCWIRE_POSTGRES_DIR:-/tmp/locwire-postgres}
port=${LOCWIRE_POSTGRES_PORT:-55432}
stop_mode=fast
while (($#)); do
  case $1 in
  --dir) dir=$2; shift 2 ;;
  --port) port=$2; shift 2 ;;
  --immediate) stop_mode=immediate; shift ;;
  -h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "start-postgres.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || { echo "start-postgres.sh: --port must be a number, not $port" >&2; exit 2; }

database=locwire
role=locwire
password=locwire
data="$dir/data"

say() { printf 'start-postgres.sh: %s\n' "$*" >&2; }

# The directory of initdb and pg_ctl: PATH first, then Debian's versioned directories (newest first).
find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  local candidate
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [[ -x $candidate/initdb ]]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

install_postgres() {
  command -v apt-get >/dev/null 2>&1 ||
    { say "no initdb found and no apt-get to install PostgreSQL: install PostgreSQL's server binaries"; exit 1; }
  say "installing Debian's postgresql with apt-get"
  # Debian's package creates and starts a `main` cluster on 5432 unless told not to; this script wants none.
  if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
    mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends postgresql >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends postgresql >&2; }
}

bin=$(find_bin) || { install_postgres; bin=$(find_bin) || { say "postgresql installed but no initdb found"; exit 1; }; }
if [[ $action == install ]]; then
  say "PostgreSQL's server binaries are in $bin"
  exit 0
fi

# Runs a command as the cluster's owner: `postgres` under root (initdb and postgres refuse root), else oneself.
# runuser (util-linux) lives in /usr/sbin, which a minimal PATH may lack.
runuser=$(PATH="$PATH:/usr/sbin:/sbin" command -v runuser || true)
as_owner() {
  if ((EUID != 0)); then
    "$@"
  elif [[ -n $runuser ]]; then
    "$runuser" -u postgres -- "$@"
  else
    su postgres -s /bin/sh -c '"$0" "$@"' -- "$@"
  fi
}

if ((EUID == 0)) && ! id postgres >/dev/null 2>&1; then
  PATH="$PATH:/usr/sbin:/sbin" useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
fi

running() { [[ -f $data/PG_VERSION ]] && as_owner "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; }

if [[ $action == stop ]]; then
  if running; then
    as_owner "$bin/pg_ctl" stop -D "$data" -m "$stop_mode" -w >&2
  else
    say "no cluster running in $dir"
  fi
  exit 0
fi

mkdir -p "$dir"
if ((EUID == 0)); then
  chown postgres: "$dir"
  as_owner test -w "$dir" ||
    { say "$dir is not reachable by the postgres user (a parent directory is closed to it); use --dir under /tmp"; exit 1; }
fi

if [[ ! -f $data/PG_VERSION ]]; then
  say "initdb in $data"
  # --no-sync: initdb's own files need no sync for a throwaway cluster; the server itself runs with fsync on.
  as_owner "$bin/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C \
    --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
fi

if running; then
  # Started before, maybe on another port: answer with the port it really listens on.
  actual=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null || true)
  if [[ -n $actual && $actual != "$port" ]]; then
    say "the cluster in $dir already runs on port $actual, not $port; stop it first to change the port"
    exit 1
  fi
else
  say "starting PostgreSQL ($("$bin/postgres" --version)) on 127.0.0.1:$port"
  # The socket goes into DIR, so no /var/run/postgresql is needed; max_connections leaves room for several
  # servers' pools (20 connections each by default) and a test run's.
  as_owner "$bin/pg_ctl" start -D "$data" -l "$dir/postgres.log" -w -t 60 -o "-c listen_addresses=127.0.0.1 \
-c port=$port -c unix_socket_directories=$dir -c fsync=on -c synchronous_commit=on -c max_connections=200" >&2 ||
    { tail -n 20 "$dir/postgres.log" >&2; exit 1; }
fi

psql_super() { as_owner "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d postgres "$@"; }
if [[ -z $(psql_super -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$role'") ]]; then
  psql_super -c "CREATE ROLE $role LOGIN PASSWORD '$password'"
fi
if [[ -z $(psql_super -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'") ]]; then
  psql_super -c "CREATE DATABASE $database OWNER $role"
fi

echo "postgres://$role:$password@127.0.0.1:$port/$database"
