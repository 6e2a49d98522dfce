# tier: full
# lane: root
# what: Float formatting against C++ MessageToJsonString on 2,000,000 bit patterns
source .ci/lib.sh
Tests/peers/float_format_check.sh "$(locwire_release)" 2000000
