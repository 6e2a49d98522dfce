#!/usr/bin/env bash
# The HTML outputs in a real browser (issue 13): renders the real track (conformance/data/korita-zbevnica.gpx, with
# the example regions and the events `simulate fences` finds on it) and the conformance report to HTML, then
# opens each in headless Chromium (scripts/browser-check.py, over the DevTools protocol) and checks that the
# screenshot is not blank, that the track's colour is at the pixels where `render --debug-projection` says the
# fixes are, that the pan/zoom and hover script works, and that there are no console errors or outside requests.
# First it proves the checker can fail: broken variants of the page (a JavaScript error, console.error, a
# resource from the network, the track hidden, recoloured or moved, a blank page) must each fail.
#
#   scripts/browser-check.sh [--no-build] [--keep DIR]
#
# Needs chromium (apt-get install -y chromium), and python3 with Pillow and websocket-client (pip). $LOCWIRE names a
# locwire binary (default: the debug build, built unless --no-build). Exit status 0 when every page passes, 1
# otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

build=1
keep=""
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) build=0; shift ;;
        --keep) keep=$2; shift 2 ;;
        *) echo "usage: $0 [--no-build] [--keep DIR]" >&2; exit 2 ;;
    esac
done

track=conformance/data/korita-zbevnica.gpx
if [ -z "${LOCWIRE:-}" ]; then
    [ "$build" = 1 ] && swift build --product locwire >/dev/null
    LOCWIRE="$(swift build --show-bin-path)/locwire"
fi

work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

echo "rendering the real track $track and the conformance report into $work"
"$LOCWIRE" simulate fences --trace "$track" --regions examples/korita-regions.geojson \
    --policy examples/walker-policy.json --output "$work/events.json" 2>/dev/null
"$LOCWIRE" render "$track" --regions examples/korita-regions.geojson --events "$work/events.json" --html \
    --width 1000 --height 700 --title "korita-zbevnica.gpx" --output "$work/track.html" \
    --debug-projection "$work/track-projection.json" 2>/dev/null
"$LOCWIRE" conformance run --format html --output "$work/report.html" --quiet

python3 scripts/browser-check.py self-check "$work/track.html" "$work/track-projection.json"
python3 scripts/browser-check.py page "$work/track.html" --projection "$work/track-projection.json" \
    --screenshot "$work/track.png" --width 1000 --height 700
# The report's pictures are short vectors (a few dozen fixes each) with their events' markers drawn at the same
# size as on a whole track, so markers cover a larger share of their fixes: up to half may be under one.
python3 scripts/browser-check.py page "$work/report.html" --min-maps 3 --max-covered 0.5 --screenshot "$work/report.png"
echo "browser check passed"
