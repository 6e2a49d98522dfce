#!/usr/bin/env bash
# Builds the Go testee on protobuf-go (google.golang.org/protobuf) as Debian packages it: protoc-gen-go is built
# from Debian's source of protobuf-go, the project's .proto files are generated into build/ (gitignored) next to
# this script, and main.go is compiled against them. Everything is offline: Go runs in GOPATH mode
# (GO111MODULE=off) with Debian's /usr/share/gocode as the second GOPATH entry, so no module proxy is asked.
# Progress goes to stderr; the last thing printed, on stdout, is the command that runs the testee.
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"
gocode="${GOCODE:-/usr/share/gocode}"   # Debian's GOPATH for packaged Go sources
module=google.golang.org/protobuf

for tool in protoc go; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: '$tool' not found; install it with: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler" >&2
    exit 1
  }
done
[[ -d "$gocode/src/$module/cmd/protoc-gen-go" ]] || {
  echo "build.sh: protobuf-go's source is not in $gocode/src/$module; install it with: apt-get install -y golang-google-protobuf-dev" >&2
  exit 1
}

# protobuf-go's version, for hello: internal/version/version.go holds Major, Minor, Patch and PreRelease.
version_file="$gocode/src/$module/internal/version/version.go"
version=$(awk '$1 == "Major" || $1 == "Minor" || $1 == "Patch" { v = v (v == "" ? "" : ".") $3 }
               $1 == "PreRelease" && $3 != "\"\"" { gsub(/"/, "", $3); pre = "-" $3 }
               END { print v pre }' "$version_file")
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "build.sh: cannot read protobuf-go's version from $version_file" >&2; exit 1; }

gopath="$build/gopath"
rm -rf "$gopath" "$build/bin"
mkdir -p "$gopath/src/locwiretestee" "$build/bin"
export GO111MODULE=off GOPATH="$gopath:$gocode" GOFLAGS= GOCACHE="${GOCACHE:-$build/cache}" CGO_ENABLED=0
echo "go: $(go version | sed 's/^go version //'), protobuf-go $version, $(protoc --version)" >&2

go build -o "$build/bin/protoc-gen-go" "$module/cmd/protoc-gen-go"

# The .proto files name no go_package: map each to a Go import path here. All of locationwire/v1 is one Go
# package (one proto package), the conformance protocol another; importing them registers every message in
# protoregistry.GlobalTypes, where main.go looks types up by full name.
gen_pkg=locwiretestee/gen
opts=()
for file in "$proto"/locationwire/v1/*.proto; do
  opts+=("--go_opt=Mlocationwire/v1/$(basename "$file")=$gen_pkg/locationwirev1;locationwirev1")
done
opts+=("--go_opt=Mlocationwire/conformance/v1/testee.proto=$gen_pkg/conformancev1;conformancev1")
PATH="$build/bin:$PATH" protoc -I "$proto" --go_out="$gopath/src" "${opts[@]}" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto

cp "$here/main.go" "$gopath/src/locwiretestee/main.go"
go vet locwiretestee
go build -trimpath -ldflags "-X main.protobufVersion=$version" -o "$build/go-testee.tmp" locwiretestee
mv -f "$build/go-testee.tmp" "$build/go-testee"

echo "go: built $build/go-testee" >&2
printf '%q\n' "$build/go-testee"
