# tier: full
# lane: root
# what: The behaviour commands on a real GPX track, as a new user runs them
source .ci/lib.sh
locwire=$(locwire_release)
track=conformance/data/korita-zbevnica.gpx
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$locwire" simulate record --trace "$track" --output "$work/record.json"
"$locwire" simulate record --trace "$track" --format binpb --output "$work/recorded.binpb"
"$locwire" simulate fences --trace "$track" --regions examples/korita-regions.geojson \
  --policy examples/walker-policy.json --output "$work/fences.json"
python3 .ci/checks/behaviour_outputs.py "$work/record.json" "$work/fences.json"
"$locwire" plan --catalogue examples/catalogue.geojson --at 45.3270,14.4415 --budget 6 --format binary |
  "$locwire" validate --type RegionAssignment
