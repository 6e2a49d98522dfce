#!/usr/bin/env bash
# Builds bench_go, the protobuf-go harness (bench_go/main.go), into build-go/ (gitignored) next to this script.
# Offline, as the Go conformance testee builds: conformance/testees/go/protobuf-go.sh runs Go in GOPATH mode on
# Debian's source of protobuf-go and generates proto/ with protoc-gen-go into build-go/gopath. Compiled with
# `go build`'s defaults, which are a release build: go build has no -O levels, and optimization and inlining are
# on unless -gcflags turns them off. -trimpath only keeps this machine's paths out of the binary; the version
# hello reports is set with -ldflags -X. Prints nothing on stdout.
# Usage: Benchmarks/peers/build-go.sh && Benchmarks/peers/build-go/bench_go --workloads DIR
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build-go"
exec 3>&1 1>&2
source "$root/conformance/testees/go/protobuf-go.sh"   # pbgo_setup, pbgo_generate

gopath="$build/gopath"
pbgo_setup "$gopath" "$build/cache"
pbgo_generate locwirebench/gen
mkdir -p "$gopath/src/locwirebench"
cp "$here/bench_go/main.go" "$gopath/src/locwirebench/main.go"
go vet locwirebench
go build -trimpath -ldflags "-X main.protobufVersion=$pbgo_version" -o "$build/bench_go.tmp" locwirebench
mv -f "$build/bench_go.tmp" "$build/bench_go"
echo "build-go.sh: built $build/bench_go" >&2
