# tier: full
# lane: root
# what: Differential fuzzing: 25,000 inputs each against C++, upb through Python, native upb, protobuf-java and protobuf-go
source .ci/lib.sh
# The 1 M runs are scripts/measure/fuzz-long.sh (conformance/FUZZ-RESULTS.md); known differences of each peer are listed in
# conformance/failures/<implementation>.fuzz.txt.
locwire=$(locwire_release)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for peer in cpp python upb java go; do
  testee=$(conformance/testees/$peer/build.sh 2>/dev/null)
  echo "-- $peer: $testee"
  "$locwire" fuzz --testee "$testee" --seed 20261121 --iterations 25000 --quiet --out "$out/$peer"
done
