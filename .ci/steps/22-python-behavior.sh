# tier: full
# lane: root
# what: Semantic and behaviour vectors against python-behavior, the second implementation written from the spec text
source .ci/lib.sh
# Every vector whose expectation comes from the Swift validator or engines must also be what an independent reading
# of proto/README.md and proto/BEHAVIOR.md gives; the failure list is empty, so any disagreement fails CI.
"$(locwire_release)" conformance run --testee "$(conformance/testees/python-behavior/build.sh)" --filter semantic \
  --filter recording --filter fences --filter planning --filter arming \
  --failures conformance/failures/python-behavior.txt
