# tier: full
# lane: packages
# what: PostgreSQL: two serve --postgres processes share one database (every fix stored once, the acks agree), and the probe passes against serve --postgres
source .ci/lib.sh
url=$(Server/scripts/start-postgres.sh)
trap 'Server/scripts/start-postgres.sh stop >/dev/null 2>&1 || true' EXIT
Server/scripts/postgres-two-servers.sh --binary "$(locwire_server)"
Server/scripts/probe-reference.sh --bin "$(locwire_server)" --postgres "$url" --quiet
