# tier: setup
# what: Install everything CI uses, first: the peers (protoc, C++, C, Go, Java, Python protobuf on upb), spin, valgrind, Chromium, PostgreSQL, sqlite3, man, debootstrap; the bare Debian root (made when missing)
source .ci/lib.sh
scripts/install-peers.sh --ci
Server/scripts/start-postgres.sh install
# The bare Debian root the release archive is tried in: made once and kept in /var/cache, remade only when missing.
scripts/release/make-bare-root.sh >/dev/null
