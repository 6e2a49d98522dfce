# tier: quick
# what: Everything generated from proto/ is current: descriptor set, goldens, swift-protobuf code, vectors, fuzz inputs
source .ci/lib.sh
# The debug build generates the same bytes as the release one (the generator is deterministic) and is already built.
scripts/regenerate.sh --check --locwire "$(locwire_debug)"
