# tier: full
# lane: side
# what: PostgreSQL: two serve --postgres processes share one database (every fix stored once, the acks agree); the probe passes against serve --postgres, and its well-formed requests and the server's answers match proto/openapi.yaml; retention removes old rows beside the ingest (SQLite and PostgreSQL); postgres-floors.sh's short form (no load errors, every acknowledged fix stored once, the COPY floor's rows all copied); one database moved into shards serves every fix, and a stopped shard answers only its own devices 503; the shard soak's short form (kill -9, pg_ctl stop -m immediate: nothing lost, doubled or misplaced, every device acked again)
source .ci/lib.sh
# A cluster of its own: the packages lane's server tests run theirs (the default, 55432) at the same time.
export LOCWIRE_POSTGRES_DIR=/tmp/locwire-postgres-side LOCWIRE_POSTGRES_PORT=55436
url=$(Server/scripts/start-postgres.sh)
record=$(mktemp)
trap 'Server/scripts/start-postgres.sh stop >/dev/null 2>&1 || true; rm -f "$record"' EXIT
Server/scripts/postgres-two-servers.sh --binary "$(locwire_server)"
Server/scripts/probe-reference.sh --bin "$(locwire_server)" --postgres "$url" --quiet --record "$record"
# The exchanges the probe just had, against the OpenAPI document: the document cannot drift from the server.
python3 scripts/judges/openapi_exchanges.py "$record"
# Retention beside the ingest, short: old rows all removed, later rows all kept, on SQLite and PostgreSQL.
LOCWIRE_BUILD_CONFIGURATION=debug Server/scripts/measure/retention-under-load.sh --short --no-build --postgres "$url"
# The PostgreSQL floors, short: the current build alone (CI has no build before), errors and rows only.
Server/scripts/measure/postgres-floors.sh --short --after "$(locwire_server)" --postgres "$url"
# One database moved into two shards (three clusters of its own, on 55441-55443): every acknowledged fix read back
# through serve --postgres-shard, a stopped shard's devices answered 503 and the other's 200, a later split.
Server/scripts/shards-demo.sh --binary "$(locwire_server)"
# Two servers over two shards (clusters on 55701-55702) under kill -9 of a server and pg_ctl stop -m immediate of
# a shard: every acknowledged fix in its shard once, no 401, the other shard's devices acked all through the
# outage, the stopped shard's devices acked again after it (the long form's figures: Server/RESULTS.md).
LOCWIRE_BUILD_CONFIGURATION=debug Server/scripts/measure/shard-soak.sh --short --no-build
