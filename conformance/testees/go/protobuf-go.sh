# Sourced (not run) by the scripts that build Go programs on protobuf-go as Debian packages it: this folder's
# build.sh (the conformance testee) and Benchmarks/peers/build-go.sh (the benchmark harness). One place for how
# Go is run offline, how the project's .proto files become Go code and how a program is compiled against them.
#
#   source conformance/testees/go/protobuf-go.sh
#   pbgo_setup GOPATH_DIR CACHE_DIR   # checks the tools, exports Go's GOPATH-mode environment, sets $pbgo_version
#   pbgo_generate IMPORT_PATH         # builds protoc-gen-go, generates proto/ into GOPATH_DIR/src/IMPORT_PATH
#   pbgo_build MAIN_GO PACKAGE OUTPUT # compiles a one-file main package against it
#
# Go runs in GOPATH mode (GO111MODULE=off) with Debian's /usr/share/gocode as the second GOPATH entry, so no
# module proxy is asked and no go.mod or go.sum is needed (conformance/testees/README.md says why not a module).
# Needs: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler

pbgo_module=google.golang.org/protobuf
pbgo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"

# pbgo_setup GOPATH_DIR CACHE_DIR: fails (status 1, so `set -e` stops the caller) with the install command when
# a tool is missing; deletes and recreates GOPATH_DIR (generated code only); exports GO111MODULE, GOPATH, GOFLAGS, GOCACHE (CACHE_DIR unless GOCACHE is
# set) and CGO_ENABLED for every later `go` command; sets pbgo_version to protobuf-go's version (e.g. 1.28.1).
pbgo_setup() {
  local gopath="$1" cache="$2" gocode="${GOCODE:-/usr/share/gocode}" tool version_file
  for tool in protoc go; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "${0##*/}: '$tool' not found; install it with: apt-get install -y golang-go golang-google-protobuf-dev protobuf-compiler" >&2
      return 1
    }
  done
  [[ -d "$gocode/src/$pbgo_module/cmd/protoc-gen-go" ]] || {
    echo "${0##*/}: protobuf-go's source is not in $gocode/src/$pbgo_module; install it with: apt-get install -y golang-google-protobuf-dev" >&2
    return 1
  }

  # internal/version/version.go holds Major, Minor, Patch and PreRelease; the library has no exported version.
  version_file="$gocode/src/$pbgo_module/internal/version/version.go"
  pbgo_version=$(awk '$1 == "Major" || $1 == "Minor" || $1 == "Patch" { v = v (v == "" ? "" : ".") $3 }
                      $1 == "PreRelease" && $3 != "\"\"" { gsub(/"/, "", $3); pre = "-" $3 }
                      END { print v pre }' "$version_file")
  [[ $pbgo_version =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || { echo "${0##*/}: cannot read protobuf-go's version from $version_file" >&2; return 1; }

  rm -rf "$gopath"
  mkdir -p "$gopath/src" "$gopath/bin"
  export GO111MODULE=off GOPATH="$gopath:$gocode" GOFLAGS= GOCACHE="${GOCACHE:-$cache}" CGO_ENABLED=0
  echo "go: $(go version | sed 's/^go version //'), protobuf-go $pbgo_version, $(protoc --version)" >&2
}

# pbgo_generate IMPORT_PATH: builds protoc-gen-go from Debian's source into the first GOPATH entry's bin/ and
# generates the project's .proto files under src/IMPORT_PATH of it. The .proto files name no go_package, so each
# is mapped to a Go import path here: all of locationwire/v1 is one Go package, IMPORT_PATH/locationwirev1 (one
# proto package), the conformance protocol another, IMPORT_PATH/conformancev1. Importing them registers every
# message in protoregistry.GlobalTypes, where the programs look types up by full name.
pbgo_generate() {
  local gen_pkg="$1" gopath="${GOPATH%%:*}" proto="$pbgo_root/proto" file
  local opts=()
  go build -o "$gopath/bin/protoc-gen-go" "$pbgo_module/cmd/protoc-gen-go"
  for file in "$proto"/locationwire/v1/*.proto; do
    opts+=("--go_opt=Mlocationwire/v1/$(basename "$file")=$gen_pkg/locationwirev1;locationwirev1")
  done
  opts+=("--go_opt=Mlocationwire/conformance/v1/testee.proto=$gen_pkg/conformancev1;conformancev1")
  PATH="$gopath/bin:$PATH" protoc -I "$proto" --go_out="$gopath/src" "${opts[@]}" \
    "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto
}

# pbgo_build MAIN_GO PACKAGE OUTPUT: compiles the main package MAIN_GO (one file) as GOPATH_DIR/src/PACKAGE into
# OUTPUT, after go vet. `go build`'s defaults are Go's release build (it has no -O levels; optimization and
# inlining are on); -trimpath keeps this machine's paths out of the binary. The program's `var protobufVersion`
# is set to protobuf-go's version, which the library does not export.
pbgo_build() {
  local main_go="$1" package="$2" output="$3" gopath="${GOPATH%%:*}"
  mkdir -p "$gopath/src/$package"
  cp "$main_go" "$gopath/src/$package/main.go"
  go vet "$package"
  go build -trimpath -ldflags "-X main.protobufVersion=$pbgo_version" -o "$output.tmp" "$package"
  mv -f "$output.tmp" "$output"
}
