#!/usr/bin/env bash
# Builds bench_go, the protobuf-go harness (bench_go/main.go), into build-go/ (gitignored) next to this script.
# Offline, as the Go conformance testee builds: conformance/testees/go/protobuf-go.sh runs Go in GOPATH mode on
# Debian's source of protobuf-go, generates proto/ with protoc-gen-go into build-go/gopath and compiles the
# harness with `go build`'s defaults, which are a release build: go build has no -O levels, and optimization and
# inlining are on unless -gcflags turns them off. Prints nothing on stdout.
# Usage: Benchmarks/peers/build-go.sh && Benchmarks/peers/build-go/bench_go --workloads DIR
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build-go"
exec 1>&2 # everything this script and its tools print goes to stderr
source "$root/conformance/testees/go/protobuf-go.sh"   # pbgo_setup, pbgo_generate, pbgo_build

pbgo_setup "$build/gopath" "$build/cache"
pbgo_generate locwirebench/gen
pbgo_build "$here/bench_go/main.go" locwirebench "$build/bench_go"
echo "build-go.sh: built $build/bench_go" >&2
