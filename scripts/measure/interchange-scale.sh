#!/usr/bin/env bash
# The interchange commands at scale: a synthetic walk of N fixes (default 1,000,000) written as CSV, imported,
# exported to every format, each export imported back (and the GPX one gzipped too), and the batch measured by
# stats, compacted and rendered, each command timed with its peak memory (GNU time's maximum resident set). Every
# import must give back N fixes. Figures go to standard output as a Markdown table; with --write they replace the
# scale section of docs/INTERCHANGE-SCALE.md.
#
#   scripts/measure/interchange-scale.sh [--fixes N] [--write] [--locwire PATH]
#
# The aims (issue 25): each command under 20 s and 500 MB for 1,000,000 fixes; render's page under 5 MB. The
# script reports, it does not judge: timings here swing by 30% with the machine's load (CI runs it with --fixes
# 20000, for the round trips, not the figures).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
fixes=1000000 write=0 locwire=""
while (($#)); do
  case $1 in
    --fixes) fixes=${2:?--fixes needs a number}; shift 2 ;;
    --write) write=1; shift ;;
    --locwire) locwire=${2:?--locwire needs a path}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo pipefail/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "interchange-scale.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ $fixes =~ ^[1-9][0-9]*$ ]] || { echo "interchange-scale.sh: --fixes needs a positive whole number" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "interchange-scale.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
if [[ -z $locwire ]]; then
  # shellcheck source=/dev/null
  source .ci/lib.sh
  locwire=$(locwire_release)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The walk: one fix a second or so, every value the CSV columns carry, deterministic.
python3 - "$fixes" "$work/walk.csv" <<'PY'
import math, random, sys
count, path = int(sys.argv[1]), sys.argv[2]
random.seed(25)
lat, lon, t = 45.8, 15.9, 1714810200
with open(path, "w") as out:
    out.write("time,latitude,longitude,accuracy_m,altitude_m,speed_m_s,course_deg,battery_percent\n")
    for i in range(count):
        lat += random.uniform(-1e-4, 1e-4)
        lon += random.uniform(-1e-4, 1e-4)
        t += random.choice((1, 1, 1, 2, 5))
        out.write(f"{t},{lat:.7f},{lon:.7f},{random.randint(3, 30)},{random.uniform(100, 300):.1f},"
                  f"{random.uniform(0, 3):.2f},{random.uniform(0, 359):.1f},{max(1, 100 - i * 100 // count)}\n")
PY

rows=()
# measure NAME COMMAND...: runs it under GNU time; a row of seconds, peak MB and the output's size when given.
measure() {
  local name=$1 output=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" || {
    echo "interchange-scale.sh: $name failed:" >&2
    cat "$work/err.txt" >&2
    exit 1
  }
  read -r seconds kilobytes <"$work/time.txt"
  local size="-"
  [[ -n $output && -f $output ]] && size=$(awk -v b="$(stat -c %s "$output")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
  rows+=("| $name | $seconds | $((kilobytes / 1024)) | $size |")
  echo "$name: $seconds s, $((kilobytes / 1024)) MB, $size" >&2
}
imported() { python3 .ci/checks/json_value.py "$1" imported; }
expect_all() {
  local got
  got=$(imported "$1")
  [[ $got == "$fixes" ]] || { echo "interchange-scale.sh: $2 imported $got fixes, not $fixes" >&2; exit 1; }
}

measure "import csv (the walk)" "$work/batch.binpb" "$locwire" import "$work/walk.csv" --device-id scale \
  --output "$work/batch.binpb" --summary-json "$work/csv.summary.json"
expect_all "$work/csv.summary.json" "import csv"
for format in geojson gpx owntracks overland csv; do
  measure "export $format" "$work/out.$format" "$locwire" export --to "$format" "$work/batch.binpb" \
    --output "$work/out.$format"
  measure "import $format" "" "$locwire" import "$work/out.$format" --device-id scale \
    --output "$work/back.$format.binpb" --summary-json "$work/$format.summary.json"
  expect_all "$work/$format.summary.json" "import of the $format export"
done
# The formats export does not write (KML, TCX, Google Takeout Records), written from the walk here.
python3 - "$work/walk.csv" "$work" <<'PY'
import csv, datetime, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
iso = lambda t: datetime.datetime.fromtimestamp(int(t), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(f"{sys.argv[2]}/walk.kml", "w") as out:
    out.write('<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" '
              'xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:Track>\n')
    for row in rows:
        out.write(f"<when>{iso(row['time'])}</when><gx:coord>{row['longitude']} {row['latitude']} "
                  f"{row['altitude_m']}</gx:coord>\n")
    out.write("</gx:Track></Placemark></kml>\n")
with open(f"{sys.argv[2]}/walk.tcx", "w") as out:
    out.write('<?xml version="1.0"?>\n<TrainingCenterDatabase><Activities><Activity><Lap><Track>\n')
    for row in rows:
        out.write(f"<Trackpoint><Time>{iso(row['time'])}</Time><Position><LatitudeDegrees>{row['latitude']}"
                  f"</LatitudeDegrees><LongitudeDegrees>{row['longitude']}</LongitudeDegrees></Position>"
                  f"<AltitudeMeters>{row['altitude_m']}</AltitudeMeters></Trackpoint>\n")
    out.write("</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n")
with open(f"{sys.argv[2]}/walk-records.json", "w") as out:
    out.write('{"locations":[\n')
    for index, row in enumerate(rows):
        record = {"latitudeE7": round(float(row["latitude"]) * 1e7), "longitudeE7": round(float(row["longitude"]) * 1e7),
                  "accuracy": int(row["accuracy_m"]), "timestampMs": str(int(row["time"]) * 1000), "source": "GPS"}
        out.write(("," if index else "") + json.dumps(record) + "\n")
    out.write("]}\n")
PY
for file in walk.kml walk.tcx walk-records.json; do
  measure "import ${file#walk?}" "" "$locwire" import "$work/$file" --device-id scale --output "$work/$file.binpb" \
    --summary-json "$work/$file.summary.json"
  expect_all "$work/$file.summary.json" "import of $file"
done
gzip -k "$work/out.gpx"
measure "import gpx.gz" "" "$locwire" import "$work/out.gpx.gz" --device-id scale \
  --output "$work/back.gz.binpb" --summary-json "$work/gz.summary.json"
expect_all "$work/gz.summary.json" "import of the gzipped GPX"
cmp "$work/back.gpx.binpb" "$work/back.gz.binpb"
measure "stats" "" "$locwire" stats "$work/batch.binpb" --format json --output "$work/stats.json"
measure "compact" "$work/compact.binpb" "$locwire" compact "$work/batch.binpb" --output "$work/compact.binpb"
measure "render --html" "$work/page.html" "$locwire" render "$work/batch.binpb" --html --output "$work/page.html"

{
  echo "<!-- interchange-scale: written by scripts/measure/interchange-scale.sh --write; do not edit by hand -->"
  echo "$fixes fixes, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), load average" \
    "$(cut -d' ' -f1 /proc/loadavg), release build. Peak memory is GNU time's maximum resident set."
  echo
  echo "| command | seconds | peak MB | output |"
  echo "|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$work/section.md"
cat "$work/section.md"
if ((write)); then
  python3 - docs/INTERCHANGE-SCALE.md "$work/section.md" <<'PY'
import sys
path, section = sys.argv[1], open(sys.argv[2]).read()
text = open(path).read()
start = text.index("<!-- interchange-scale:")
end = text.index("<!-- end interchange-scale -->")
open(path, "w").write(text[:start] + section + "\n" + text[end:])
PY
fi
