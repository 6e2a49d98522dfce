# tier: full
# lane: root
# what: Release build of locwire, for the peer checks, fuzzing and simulations
source .ci/lib.sh
locwire_release >/dev/null
