# tier: full
# lane: packages
# what: PostgreSQL: two serve --postgres processes share one database; every fix stored once, the acks agree
source .ci/lib.sh
Server/scripts/postgres-two-servers.sh --binary "$(locwire_server)"
