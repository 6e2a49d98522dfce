#!/usr/bin/env bash
# Builds the Go testee on protobuf-go (google.golang.org/protobuf) as Debian packages it: protoc-gen-go is built
# from Debian's source of protobuf-go, the project's .proto files are generated into build/ (gitignored) next to
# this script, and main.go is compiled against them. Everything is offline: Go runs in GOPATH mode
# (GO111MODULE=off) with Debian's /usr/share/gocode as the second GOPATH entry, so no module proxy is asked
# (protobuf-go.sh, shared with the benchmark harness, does the setup and the generation).
# Progress goes to stderr; the last thing printed, on stdout, is the command that runs the testee.
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$here/build"
source "$here/protobuf-go.sh"   # pbgo_setup, pbgo_generate, pbgo_build: shared with Benchmarks/peers/build-go.sh

pbgo_setup "$build/gopath" "$build/cache"
pbgo_generate locwiretestee/gen
pbgo_build "$here/main.go" locwiretestee "$build/go-testee"

echo "go: built $build/go-testee" >&2
printf '%q\n' "$build/go-testee"
