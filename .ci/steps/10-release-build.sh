# tier: full
# lane: root
# what: Release build of locwire, for the peer checks, fuzzing and simulations (in the Benchmarks package's build folder, whose driver links the same modules)
source .ci/lib.sh
locwire_release >/dev/null
