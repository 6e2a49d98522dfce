# Shared by the steps of .ci/steps/ (sourced): where the builds are, built once for every step that needs them.
# A step run alone builds what it needs; a later step finds it built (SwiftPM rebuilds only what changed).
root=${LOCWIRE_CI_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"

# Every CI build of the release locwire and of locwire-server links the Swift runtime and Foundation statically
# (Package.swift), so the `release` step packs the binaries the other steps built and ran. It only changes links,
# and it must be the same in every step: a build without it would link the shared runtime over the static binary.
# The root's flags apply to release builds only; the Server's test bundle, which links locwire-server's module,
# cannot take them, so server_build builds the tests without them (below).
export LOCWIRE_STATIC_STDLIB=1

# Swift Testing's log without a line per started or passed test: failures, suites and the closing
# "Test run with N tests ... passed" line stay (CI's record reads that line to see that tests ran).
quiet_test_log() {
  grep -vE '^◇ |^✔ Test ("|[^ ]+\([^)]*\) )'
}

# The debug locwire that `swift build` and `swift test` make.
locwire_debug() {
  swift build --product locwire >&2
  echo "$root/.build/debug/locwire"
}

# The debug locwire the quick tier built, for the packages lane: asking SwiftPM again there would wait for the root
# lane's hold on .build (and replan when the slow tests' manifest variable differs). Built when missing.
locwire_debug_built() {
  if [[ -x $root/.build/debug/locwire ]]; then echo "$root/.build/debug/locwire"; else locwire_debug; fi
}

# The release locwire, for the long checks (fuzzing, simulations, cross-checks). It is built in the Benchmarks
# package's build folder: the benchmark driver links nearly every module locwire does, so one release compilation
# of them serves both (about 300 CPU seconds saved). A binary newer than every source is taken as it is, without
# asking SwiftPM, whose lock on that folder the benchmarks step may be holding for minutes in the other lane.
locwire_release() {
  local bin="$root/Benchmarks/.build/release/locwire"
  if [[ ! -x $bin || -n $(find Sources Package.swift -newer "$bin" -print -quit) ]]; then
    swift build -c release --package-path Benchmarks --product locwire >&2
  fi
  echo "$bin"
}

# The server package's debug build (Hummingbird, GRDB, postgres-nio: a first build takes minutes). A binary newer
# than every source is taken as it is: asking SwiftPM would wait for the packages lane's `swift test`, which holds
# the Server folder's lock for minutes after the build it needs is done.
locwire_server() {
  local bin="$root/Server/.build/debug/locwire-server"
  if [[ ! -x $bin || -n $(find Sources Package.swift Server/Sources Server/Package.swift -newer "$bin" -print -quit) ]]
  then
    server_build >&2
  fi
  echo "$bin"
}

# The Server package's debug build with its tests, then locwire-server linked again statically: a relink, the
# modules are shared. The tests are built without LOCWIRE_STATIC_STDLIB, whose flags their bundle cannot link
# (it holds locwire-server's module beside Testing's shared runtime); `swift test --skip-build` runs them after.
server_build() {
  (cd "$root/Server" && env -u LOCWIRE_STATIC_STDLIB swift build --build-tests && swift build --product locwire-server)
}
