#!/usr/bin/env bash
# Builds the DocC documentation of the LocationWire library product's three modules, LocationWireDevice and
# LocationWireInterchange, with warnings as errors: a broken ``symbol`` link, an unknown <doc:article> or a doc
# comment naming a parameter that does not exist fails the build. LocationWire has the catalog (Sources/LocationWire/LocationWire.docc:
# landing page and the articles), LocationWireValidation a small one, LocationWireDevice its landing page and
# "Embedding the device in an app", LocationWireInterchange its landing page and "Google Takeout location
# history"; LocationWireJSON is documented from its doc comments alone.
#
#   scripts/build-docs.sh [--output DIR] [--hosting-base-path PATH]
#
# Without --output the archives stay in .build/plugins/Swift-DocC/outputs/<Target>.doccarchive. With it, each
# target's archive is written to DIR/<Target>, transformed for static hosting (any web server can serve it;
# open /<Target>/documentation/<target, lower case>/ through one); --hosting-base-path is the path DIR is
# served under, e.g. /docs when DIR is https://example.org/docs/ (default: DIR is the site's root).
#
# Uses swift-docc-plugin (Package.swift) and the docc that ships with the toolchain. The first run builds the
# plugin's own dependency (SymbolKit), about 10 s more.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

targets=(LocationWire LocationWireValidation LocationWireJSON LocationWireDevice LocationWireInterchange)
output=""
base_path=""
while [ $# -gt 0 ]; do
    case $1 in
        --output) output=${2:?--output needs a directory}; shift 2 ;;
        --output=*) output=${1#--output=}; shift ;;
        --hosting-base-path) base_path=${2:?--hosting-base-path needs a path}; shift 2 ;;
        --hosting-base-path=*) base_path=${1#--hosting-base-path=}; shift ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-docs.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

# --disable-sandbox: the plugin runs docc as a subprocess, which the Linux sandbox does not allow to write the
# output anywhere but .build; --allow-writing-to-directory lets it write DIR.
for target in "${targets[@]}"; do
    arguments=(--warnings-as-errors --target "$target")
    permissions=(--disable-sandbox)
    if [ -n "$output" ]; then
        mkdir -p "$output"
        output=$(cd "$output" && pwd)
        permissions+=(--allow-writing-to-directory "$output")
        arguments+=(--output-path "$output/$target" --transform-for-static-hosting)
        # Each archive is served from its own folder of DIR, so its base path ends in the target's name.
        arguments+=(--hosting-base-path "${base_path%/}/$target")
    fi
    echo "build-docs.sh: $target" >&2
    swift package "${permissions[@]}" generate-documentation "${arguments[@]}"
done
