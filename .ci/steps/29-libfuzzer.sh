# tier: full
# what: libFuzzer: the regression corpus, then every target for 60 s, two at a time (any finding fails)
source .ci/lib.sh
export LOCWIRE="$(locwire_release)"
FuzzTesting/fuzz.sh build
FuzzTesting/fuzz.sh replay FuzzTesting/Regressions
SKIP_BUILD=1 FuzzTesting/fuzz.sh smoke -j 2
