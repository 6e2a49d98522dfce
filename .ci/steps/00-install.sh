# tier: setup
# what: Install everything CI uses, first: the peers (protoc, C++, C, Go, Java, Python protobuf on upb), spin, valgrind, Chromium, PostgreSQL, sqlite3, man
source .ci/lib.sh
scripts/install-peers.sh --ci
Server/scripts/start-postgres.sh install
