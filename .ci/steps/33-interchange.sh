# tier: full
# lane: root
# what: Import, export, compact, expand and stats as a new user runs them: the real track and the samples to a batch, validated, exported to each format and imported back
source .ci/lib.sh
locwire=$(locwire_release)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=("gpx conformance/data/korita-zbevnica.gpx" "owntracks examples/interchange/owntracks.json"
  "owntracks examples/interchange/owntracks.rec" "overland examples/interchange/overland.json"
  "csv examples/interchange/track.csv")
for source in "${sources[@]}"; do
  read -r format file <<<"$source"
  name=$(basename "$file")
  "$locwire" import --from "$format" "$file" --device-id ci-phone --output "$work/$name.binpb" \
    --summary-json "$work/$name.summary.json"
  "$locwire" validate --type LocationBatch --from binpb "$work/$name.binpb"
  imported=$(python3 .ci/checks/json_value.py "$work/$name.summary.json" imported)
  for to in geojson gpx owntracks overland; do
    "$locwire" export --to "$to" "$work/$name.binpb" --output "$work/$name.$to"
    "$locwire" import --from "$to" "$work/$name.$to" --device-id ci-phone --to json \
      --output "$work/$name.$to.json" --summary-json "$work/$name.$to.summary.json" 2>/dev/null
    "$locwire" validate --type LocationBatch --from json "$work/$name.$to.json"
    again=$(python3 .ci/checks/json_value.py "$work/$name.$to.summary.json" imported)
    [[ $again == "$imported" ]] || { echo "$name -> $to -> import: $again fixes, not $imported" >&2; exit 1; }
  done
  echo "ok: $name ($format): $imported fixes, exported to each format and imported back"
  # The batch's own tools on the imported track: compact and expand give the same bytes back, stats counts every fix.
  "$locwire" compact "$work/$name.binpb" --output "$work/$name.compact.binpb"
  "$locwire" expand "$work/$name.compact.binpb" --output "$work/$name.expanded.binpb"
  cmp "$work/$name.binpb" "$work/$name.expanded.binpb"
  "$locwire" stats "$work/$name.compact.binpb" --format json --output "$work/$name.stats.json"
  python3 .ci/checks/stats_plausible.py "$work/$name.stats.json" "$imported"
done
