#!/usr/bin/env bash
# Installs the peer implementations LocationWire is checked and measured against, on Debian or Ubuntu, as root:
# protoc and libprotobuf (Google's C++ protobuf), protoc-c and libprotobuf-c, the C and C++ compilers and
# pkg-config that build their harnesses, zlib's headers (locwire stats; Swift's own Linux prerequisites list them too),
# valgrind for the benchmarks' instruction counts, binutils (objdump) and
# unzip for the fuzz builds' checks, spin for the session model check (model/), Google's Java protobuf with a JDK
# (libprotobuf-java ships protobuf.jar and protobuf-util.jar, JsonFormat's, but does not depend on gson and guava,
# which JsonFormat needs at run time: conformance/testees/java), Go with protobuf-go (Go's own protobuf
# runtime, whose testee conformance/testees/go builds offline from Debian's sources), and Python's official
# protobuf (upb) with jsonschema. Native upb needs nothing more: conformance/testees/upb/build.sh downloads the protobuf 7.36.2 source
# distribution with pip (checked against its SHA-256) and compiles upb's C sources with gcc.
# Run it yourself before Benchmarks/run.sh or the peer checks of Tests/peers/.
#
#   scripts/install-peers.sh [--ci]
#
# --ci also installs what the rest of CI uses (.ci/run's install step): sqlite3 (the load run's CLI limit), Chromium
# with Pillow and websocket-client (the browser check), groff and man (the man page check), the headers the static
# link of the release binaries needs (libcurl4-openssl-dev, libxml2-dev) and debootstrap (the bare root file system
# the release archive is tried in: scripts/release/). One apt-get update and
# one apt-get install in all, skipped when everything is there. (PostgreSQL: Server/scripts/start-postgres.sh
# install, which keeps Debian from starting a cluster of its own.)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

apt_packages=(protobuf-compiler libprotobuf-dev protobuf-c-compiler libprotobuf-c-dev pkg-config g++ gcc gzip zlib1g-dev libsqlite3-dev valgrind binutils unzip spin
  default-jdk-headless libprotobuf-java libgoogle-gson-java libguava-java
  golang-go golang-google-protobuf-dev)  # Go: conformance/testees/go
# buf-bin: the buf CLI in a wheel, for scripts/schema/ (lint and breaking-change checks of proto/).
pip_packages=("protobuf==7.36.2" "jsonschema==4.26.0" "buf-bin==1.75.0")
# The OpenAPI checks (proto/openapi.yaml): openapi-core 0.23 takes openapi-spec-validator below 0.9.
pip_packages+=("openapi-core==0.23.1" "openapi-spec-validator==0.8.5")
case "${1:-}" in
  --ci)
    apt_packages+=(sqlite3 chromium groff-base man-db time libcurl4-openssl-dev libxml2-dev debootstrap)
    pip_packages+=("pillow==13.0.0" "websocket-client==1.9.2")
    ;;
  "") ;;
  -h|--help) sed -n '2,/^set -euo pipefail/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "install-peers.sh: unknown argument $1 (--ci or nothing)" >&2; exit 2 ;;
esac
if ! dpkg -s "${apt_packages[@]}" >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "${pip_packages[@]}"

protoc --version
protoc-c --version | sed -n 1p
echo "protobuf-java $(dpkg-query -W -f='${Version}' libprotobuf-java), $(javac -version 2>&1)"
go version
buf --version | sed 's/^/buf /'
python3 -c 'import google.protobuf as p; from google.protobuf.internal import api_implementation as a; print("python protobuf", p.__version__, a.Type())'
if [[ "$(python3 -c 'from google.protobuf.internal import api_implementation as a; print(a.Type())')" != upb ]]; then
  echo "install-peers.sh: Python protobuf does not run on upb" >&2
  exit 1
fi
