#!/usr/bin/env bash
# Builds the swift-protobuf testee (`swift build -c release` of the SwiftProtobufTestee package) into
# SwiftProtobufTestee/.build (gitignored). Uses the committed generated code; generate.sh regenerates it and
# `generate.sh --check` tells whether it is stale. Progress goes to stderr; the last thing printed, on stdout, is
# the command that runs the testee.
# Needs: a Swift 6.2+ toolchain; swift-protobuf 1.39.0 is fetched by SwiftPM (about 90 s for the first build).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
package="$here/SwiftProtobufTestee"

command -v swift >/dev/null 2>&1 || { echo "build.sh: 'swift' not found; install a Swift 6.2+ toolchain" >&2; exit 1; }

echo "swift-protobuf: $(swift --version 2>&1 | sed -n 1p)" >&2
swift build -c release --package-path "$package" --product SwiftProtobufTestee >&2
binary="$(swift build -c release --package-path "$package" --show-bin-path)/SwiftProtobufTestee"
[[ -x "$binary" ]] || { echo "build.sh: $binary was not built" >&2; exit 1; }

echo "swift-protobuf: built $binary" >&2
printf '%q\n' "$binary"
