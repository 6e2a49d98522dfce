#!/usr/bin/env bash
# Regenerates docs/images/korita.png, the README's picture of a real track: conformance/data/korita-zbevnica.gpx
# with the example regions and the fence events `simulate fences`
# finds on it, rendered by `locwire render --html` and photographed by headless Chromium, then reduced to a
# 256-colour PNG with Pillow so it stays small (under 300 KB).
#
#   scripts/render-readme-picture.sh [--no-build]
#
# Needs chromium and python3 with Pillow. $LOCWIRE names a locwire binary (default: the debug build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=1
[ "${1:-}" = "--no-build" ] && build=0

track=conformance/data/korita-zbevnica.gpx
if [ -z "${LOCWIRE:-}" ]; then
    [ "$build" = 1 ] && swift build --product locwire >/dev/null
    LOCWIRE="$(swift build --show-bin-path)/locwire"
fi
chromium=${CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

width=960
height=600
"$LOCWIRE" simulate fences --trace "$track" --regions examples/korita-regions.geojson \
    --policy examples/walker-policy.json --output "$work/events.json" 2>/dev/null
"$LOCWIRE" render "$track" --regions examples/korita-regions.geojson --events "$work/events.json" --html \
    --width "$width" --height "$height" --title "korita-zbevnica.gpx: a hike, five regions, the fence events" \
    --output "$work/korita.html" 2>/dev/null
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --user-data-dir="$work/profile" --window-size="$width,$height" --screenshot="$work/korita.png" \
    "file://$work/korita.html" >/dev/null 2>&1
mkdir -p docs/images
python3 - "$work/korita.png" docs/images/korita.png <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB")
image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(sys.argv[2], optimize=True)
PY
size=$(wc -c < docs/images/korita.png)
echo "docs/images/korita.png: $size bytes"
[ "$size" -lt 300000 ] || { echo "the picture is over 300 KB" >&2; exit 1; }
