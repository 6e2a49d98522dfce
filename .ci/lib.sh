# Shared by the steps of .ci/steps/ (sourced): where the builds are, built once for every step that needs them.
# A step run alone builds what it needs; a later step finds it built (SwiftPM rebuilds only what changed).
root=${LOCWIRE_CI_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"

# The debug locwire that `swift build` and `swift test` make.
locwire_debug() {
  swift build --product locwire >&2
  echo "$root/.build/debug/locwire"
}

# The release locwire, for the long checks (fuzzing, simulations, cross-checks).
locwire_release() {
  swift build -c release --product locwire >&2
  echo "$root/.build/release/locwire"
}

# The server package's debug build (Hummingbird, GRDB, postgres-nio: a first build takes minutes).
locwire_server() {
  (cd Server && swift build --build-tests >&2)
  echo "$root/Server/.build/debug/locwire-server"
}
