#!/usr/bin/env bash
# The slow test suites, which `swift test` leaves out so that it finishes in about a minute: the committed
# conformance vectors are current (a fresh generation gives the same bytes) and cover the spec, and the built-in
# implementation passes every vector (Tests/LocationWireSlowTests/). CI's full tier runs this.
#
#   scripts/slow-tests.sh [SWIFT-TEST-ARGUMENTS...]
#
# The target exists only when LOCWIRE_SLOW_TESTS=1 (Package.swift); switching between this and a plain
# `swift test` costs a relink of the test bundle, nothing more. Exit status: swift test's.
set -euo pipefail
cd "$(dirname "$0")/.."
export LOCWIRE_SLOW_TESTS=1
exec swift test --filter LocationWireSlowTests "$@"
