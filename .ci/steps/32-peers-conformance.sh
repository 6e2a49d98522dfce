# tier: full
# lane: root
# what: Conformance: build the peer testees (C++, C, upb, Python, Go, Java, swift-protobuf), run every implementation, RESULTS.md current
source .ci/lib.sh
LOCWIRE_SERVER="$(locwire_server)" conformance/run-all.sh "$(locwire_release)"
git diff --exit-code -- conformance/RESULTS.md ||
  { echo "conformance/RESULTS.md is not current: commit the one conformance/run-all.sh wrote" >&2; exit 1; }
