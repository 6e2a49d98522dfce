# tier: quick
# what: The conformance suite against the built-in implementation (swift run locwire conformance run)
source .ci/lib.sh
"$(locwire_debug)" conformance run
