# tier: full
# lane: side
# what: libFuzzer: OSS-Fuzz's build.sh with the engines' environment (one sanitized build), its binaries run their seeds and dictionaries, replay the regression corpus, then fuzz every target for 10 s, two at a time (any finding fails; fuzz.sh smoke is the 60 s round)
source .ci/lib.sh
# One sanitized build serves both checks: the binaries OSS-Fuzz would ship are the ones fuzzed here (fuzz.sh takes
# them from FUZZ_BIN instead of building its own).
export LOCWIRE="$(locwire_release)"
oss=$(mktemp -d)
trap 'rm -rf "$oss"' EXIT
mkdir -p "$oss/src/locationwire" "$oss/out" "$oss/work"
git archive HEAD | tar -x -C "$oss/src/locationwire"
SRC="$oss/src" OUT="$oss/out" WORK="$oss/work" SANITIZER=address FUZZING_ENGINE=libfuzzer \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer bash "$oss/src/locationwire/.clusterfuzzlite/build.sh" >"$oss/build.log" 2>&1 ||
  { tail -40 "$oss/build.log"; exit 1; }
for target in $(FuzzTesting/fuzz.sh targets); do
  test -f "$oss/out/$target.dict" && test -f "$oss/out/${target}_seed_corpus.zip"
  mkdir -p "$oss/seeds/$target" && unzip -q "$oss/out/${target}_seed_corpus.zip" -d "$oss/seeds/$target"
  "$oss/out/$target" -runs=2000 -dict="$oss/out/$target.dict" "$oss/seeds/$target" >"$oss/$target.log" 2>&1 ||
    { tail -20 "$oss/$target.log"; exit 1; }
  echo "ok: \$OUT/$target ran 2000 inputs from its seed corpus and dictionary"
done
export FUZZ_BIN="$oss/out" SKIP_BUILD=1 FUZZ_WORK="$oss/fuzz-work"
FuzzTesting/fuzz.sh replay FuzzTesting/Regressions
FuzzTesting/fuzz.sh run 10 -j 2
