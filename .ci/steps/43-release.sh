# tier: full
# lane: side
# what: Release without Swift: scripts/release.sh packs the static locwire and locwire-server CI built, and in a bare Debian root with python3 and three libraries the archive passes the conformance suite (Python testee), serve with probe, and the mock server judging the Python upload client
source .ci/lib.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The builds CI makes anyway, linked statically (lib.sh exports LOCWIRE_STATIC_STDLIB): the release locwire and the
# debug locwire-server. scripts/release.sh alone builds both in release.
archive=$(scripts/release.sh 0.0.0-ci --out "$out" --locwire "$(locwire_release)" --server "$(locwire_server)" |
  tail -1)
scripts/release/try-archive.sh "$archive"
