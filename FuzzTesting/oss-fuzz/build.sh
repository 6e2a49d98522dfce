#!/bin/bash -eu
# Builds LocationWire's libFuzzer targets for OSS-Fuzz and ClusterFuzzLite (.clusterfuzzlite/build.sh runs this
# file). Inputs, as the OSS-Fuzz builder sets them: SRC (the source lives in $SRC/locationwire, or set
# PROJECT_SRC), OUT (binaries, dictionaries and seed corpora go here), WORK (scratch), SANITIZER (address,
# thread, or coverage for coverage builds). LIB_FUZZING_ENGINE, CC, CXX, CFLAGS and CXXFLAGS are not used:
# the package has no C code, and for Swift the engine comes from SwiftPM's --sanitize=fuzzer (as in
# base-builder-swift's precompile_swift and swift-protobuf's OSS-Fuzz build); Swift supports libFuzzer only.
#
# Output, for each of the 8 targets T (FuzzTesting/Package.swift):
#   $OUT/T                   the fuzzer, Swift standard library and Foundation linked statically
#   $OUT/T.dict              libFuzzer dictionary, generated from proto/ (FuzzTesting/tools/make_dictionaries.py)
#   $OUT/T_seed_corpus.zip   seeds: conformance vectors, fixtures, regressions (FuzzTesting/tools/make_corpus.py)

# The shebang's -eu does not hold when the script is run as `bash build.sh` (as .clusterfuzzlite/build.sh does).
set -euo pipefail

PROJECT_SRC="${PROJECT_SRC:-$SRC/locationwire}"
FUZZ="$PROJECT_SRC/FuzzTesting"
SANITIZER="${SANITIZER:-address}"
TARGETS="FuzzLocationBatch FuzzBatchAck FuzzRegionAssignment FuzzRegionRequest FuzzFenceEvent FuzzTrackingPolicy
FuzzValidation FuzzJSON"

if [ -n "${FUZZING_ENGINE:-}" ] && [ "$FUZZING_ENGINE" != libfuzzer ]; then
    echo "build.sh: Swift targets support only libFuzzer, not $FUZZING_ENGINE" >&2
    exit 1
fi

# In the OSS-Fuzz image: copies llvm-symbolizer-swift to $OUT/llvm-symbolizer (Swift symbol demangling).
if command -v precompile_swift > /dev/null 2>&1; then
    . precompile_swift
fi

# The flags of precompile_swift's SWIFT6_2FLAGS (SwiftPM's own --sanitize for tools-version >= 6), without CFLAGS.
FLAGS=(-c release --static-swift-stdlib -Xswiftc -static-stdlib --scratch-path "$WORK/locationwire-fuzz-build")
if [ "$SANITIZER" = coverage ]; then
    FLAGS+=(--sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping)
else
    # SwiftPM passes its sanitizers as separate -sanitize=X flags in a random (Set) order and swiftc keeps only the
    # last one, so add the combined flag, which comes after them (see FuzzTesting/README.md).
    FLAGS+=(--sanitize=fuzzer "--sanitize=$SANITIZER" -Xswiftc "-sanitize=fuzzer,$SANITIZER")
fi
if [ -n "${EXTRA_SWIFT_BUILD_FLAGS:-}" ]; then
    # shellcheck disable=SC2206
    FLAGS+=($EXTRA_SWIFT_BUILD_FLAGS)
fi

cd "$FUZZ"
echo "build.sh: swift build ${FLAGS[*]}"
swift build "${FLAGS[@]}"
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)"
for target in $TARGETS; do
    # Fail rather than ship a fuzzer without coverage counters, or without ASan when that is the sanitizer.
    SECTIONS="$(objdump -h "$BIN/$target")"
    if ! grep -q __sancov_cntrs <<<"$SECTIONS"; then
        echo "build.sh: $target has no coverage instrumentation" >&2
        exit 1
    fi
    if [ "$SANITIZER" = address ] && ! grep -q asan_globals <<<"$SECTIONS"; then
        echo "build.sh: $target has no ASan instrumentation" >&2
        exit 1
    fi
    cp "$BIN/$target" "$OUT/$target"
done

# Dictionaries from the schema.
python3 "$FUZZ/tools/make_dictionaries.py" --repo "$PROJECT_SRC" --out "$OUT"

# Seed corpora. Fixtures come from the locwire CLI, built without sanitizers in its own scratch folder (or
# LOCWIRE, an already built one, as in .ci/run); SEED_FIXTURES=0 leaves them out (the vectors and regressions remain).
CORPUS_ARGS=(--repo "$PROJECT_SRC" --out "$WORK/locationwire-seeds" --zip "$OUT")
if [ "${SEED_FIXTURES:-1}" = 1 ] && [ -n "${LOCWIRE:-}" ]; then
    CORPUS_ARGS+=(--locwire "$LOCWIRE")
elif [ "${SEED_FIXTURES:-1}" = 1 ]; then
    (cd "$PROJECT_SRC" && swift build -c release --product locwire --scratch-path "$WORK/locationwire-cli-build")
    LOCWIRE="$(cd "$PROJECT_SRC" && swift build -c release --scratch-path "$WORK/locationwire-cli-build" --show-bin-path)/locwire"
    CORPUS_ARGS+=(--locwire "$LOCWIRE")
fi
python3 "$FUZZ/tools/make_corpus.py" "${CORPUS_ARGS[@]}"

ls -l "$OUT"
