# tier: full
# what: OSS-Fuzz build.sh with the engines' environment: the binaries it leaves in $OUT run
source .ci/lib.sh
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
