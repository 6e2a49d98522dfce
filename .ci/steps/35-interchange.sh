# tier: full
# lane: root
# what: Import, export, compact, expand and stats as a new user runs them: the real track and the samples to a batch, validated, exported to each format and imported back; the independent Python judge on 32 files other tools wrote
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
# An independent judge: a Python reading of the import rules (GPX through gpxpy) reads each third-party CSV and GPX
# file again and must find the same fixes, imported and skipped counts as import. The list is explicit, so a file
# that stops being read shows up; the .txt files are not header CSVs, which both must refuse.
python3 -c 'import gpxpy' 2>/dev/null ||
  python3 -m pip install --quiet --break-system-packages gpxpy || python3 -m pip install --quiet gpxpy
judged=(conformance/data/interchange/columbus-p1-mark2.csv conformance/data/interchange/columbus-v900-advanced.csv
  conformance/data/interchange/columbus-v900-basic.csv conformance/data/interchange/garmin-g1000-datalog.csv
  conformance/data/interchange/google-maps-trackintel-semicolon.csv
  conformance/data/interchange/gpsbabel-mtk-qstarz-bt-q1000xt.csv
  conformance/data/interchange/gpsbabel-unicsv-garminconnect.csv conformance/data/interchange/gpsbabel-unicsv-nmea.csv
  conformance/data/interchange/iblue747-logger.csv conformance/data/interchange/posmo-segments-semicolon.csv
  conformance/data/interchange/arc-app-empty-trkseg.gpx conformance/data/interchange/expertgps-wpt-rte-trk.gpx
  conformance/data/interchange/garmin-basecamp-bom.gpx conformance/data/interchange/garmin-connect-ns3-extension.gpx
  conformance/data/interchange/garmin-etrex20x-visnjan.gpx conformance/data/interchange/gpsbabel-mtk-gp245-multitrack.gpx
  conformance/data/interchange/gpsbabel-segmented-tracks.gpx conformance/data/interchange/gpsbabel-wahoo-element-bolt.gpx
  conformance/data/interchange/gpslogger-android-tpx-v2.gpx conformance/data/interchange/gpxpy-cerknicko-multitrack.gpx
  conformance/data/interchange/gpxpy-empty-segment.gpx conformance/data/interchange/gpxpy-gpx10-all-fields.gpx
  conformance/data/interchange/gpxpy-route.gpx conformance/data/interchange/mavi-zoneless-subsecond.gpx
  conformance/data/interchange/nikeplus-subsecond-offset.gpx conformance/data/interchange/osmand-multisegment.gpx
  conformance/data/interchange/runkeeper-wpt-trackpointextension.gpx
  conformance/data/interchange/70mai-a810-dashcam.txt conformance/data/interchange/android-gnsslogger-pixel7.txt
  conformance/data/interchange/gpsbabel-garmin-text-tab.txt
  conformance/data/korita-zbevnica.gpx examples/interchange/track.csv)
python3 scripts/judges/import_judge.py --locwire "$locwire" --self-test
python3 scripts/judges/import_judge.py --locwire "$locwire" --report "$work/import-judge.md" "${judged[@]}"
# At scale, briefly: a 20,000-fix walk through every format and back (each import must give every fix back, a gzipped
# GPX the same batch as the plain one), stats, compact and render; the 1,000,000-fix figures are
# scripts/measure/interchange-scale.sh --write's, in docs/INTERCHANGE-SCALE.md.
scripts/measure/interchange-scale.sh --fixes 20000 --locwire "$locwire" >/dev/null
