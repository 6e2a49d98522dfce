#!/usr/bin/env python3
"""An independent judge of `locwire import` for CSV and GPX files.

It reads each file again with a Python reading of the import rules (written from the rules text, not from
locwire's Swift sources; GPX through gpxpy), runs `locwire import` on the same file, and compares:
the imported points in time order (time_ms, latitude_e7, longitude_e7 and, where present, altitude_cm,
horizontal_accuracy_cm, speed_cm_s, course_cdeg), the number imported and the number skipped; for GPX also the
waypoints and routes that `import --waypoints --routes` writes (names, positions to 1e-7 degree, order).

    scripts/judges/import_judge.py --locwire PATH [--report FILE.md] FILE...
    scripts/judges/import_judge.py --locwire PATH --self-test

One line per file: `ok` or `DIFFERS` with the first differences. Exit status 1 when any file differs
(or the self-test finds the judge blind), 2 on a usage or environment error.

A file locwire refuses (exit 1) agrees with the judge when the judge's reading imports no point from it
either (for instance a .txt file that is not a header CSV): the line then says `ok (both refuse)`.
"""

from __future__ import annotations

import argparse
import calendar
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal
from fractions import Fraction

# ----------------------------------------------------------------------------------------------------------------
# Shared rules: rounding, ranges, ISO 8601 times
# ----------------------------------------------------------------------------------------------------------------

TIME_MIN_MS = 946684800000      # 2000-01-01T00:00:00Z
TIME_MAX_MS = 4102444799999     # 2099-12-31T23:59:59.999Z
LAT_E7_MAX = 900000000
LON_E7_MAX = 1800000000
OPTIONAL_RANGES = {
    "horizontal_accuracy_cm": (1, 4294967295),
    "altitude_cm": (-1000000, 10000000),
    "speed_cm_s": (0, 50000),
    "course_cdeg": (0, 35999),
}
FIELDS = ("time_ms", "latitude_e7", "longitude_e7", "altitude_cm", "horizontal_accuracy_cm", "speed_cm_s",
          "course_cdeg")
JSON_NAMES = {"time_ms": "timeMs", "latitude_e7": "latitudeE7", "longitude_e7": "longitudeE7",
              "altitude_cm": "altitudeCm", "horizontal_accuracy_cm": "horizontalAccuracyCm",
              "speed_cm_s": "speedCmS", "course_cdeg": "courseCdeg"}

KMH = Fraction(1000, 3600)
MPH = Fraction(Decimal("0.44704"))
KNOT = Fraction(Decimal("0.5144444444444444"))   # the constant as the rules give it
FOOT = Fraction(Decimal("0.3048"))

NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
NUMBER_RE = re.compile(NUMBER)


def round_half_away(x: Fraction) -> int:
    """Nearest integer, halves away from zero (exact: x is a Fraction)."""
    x = Fraction(x)
    n = (abs(x) + Fraction(1, 2)).__floor__()
    return n if x >= 0 else -n


def exact(text: str) -> Fraction:
    """The exact value of a decimal number's text."""
    return Fraction(Decimal(text))


ISO_RE = re.compile(
    r"(\d{4})([-/])(\d{2})\2(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
    r"(Z|[+-]\d{2}(?::?\d{2})?)?")


def parse_offset_minutes(text: str) -> int | None:
    m = re.fullmatch(r"([+-])(\d{2})(?::?(\d{2}))?", text)
    if not m:
        return None
    hours, minutes = int(m.group(2)), int(m.group(3) or 0)
    if hours > 23 or minutes > 59:
        return None
    sign = -1 if m.group(1) == "-" else 1
    return sign * (hours * 60 + minutes)


def parse_iso(text: str) -> int | None:
    """ISO 8601 as the rules give it -> UTC ms, or None when the text is not such a time."""
    m = ISO_RE.fullmatch(text)
    if not m:
        return None
    year, month, day = int(m.group(1)), int(m.group(3)), int(m.group(4))
    hour, minute, second = int(m.group(5)), int(m.group(6)), int(m.group(7) or 0)
    try:
        dt.datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None
    seconds = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    ms = seconds * 1000
    if m.group(8):
        ms += round_half_away(Fraction(int(m.group(8)), 10 ** len(m.group(8))) * 1000)
    zone = m.group(9)
    if zone and zone != "Z":
        offset = parse_offset_minutes(zone)
        if offset is None:
            return None
        ms -= offset * 60000
    return ms


def finish_fix(fix: dict) -> tuple[dict | None, str | None]:
    """Round the exact values, apply the skip rules and the optional ranges: (fix, None) or (None, reason).

    The fix's "_ties" lists the fields whose exact value was a half (x.5), rounded away from zero."""
    ties = []
    for k in FIELDS:
        v = fix.get(k)
        if v is not None:
            v = Fraction(v)
            if v.denominator == 2:
                ties.append(k)
            fix[k] = round_half_away(v)
    if fix.get("time_ms") is None:
        return None, "no time"
    if not TIME_MIN_MS <= fix["time_ms"] <= TIME_MAX_MS:
        return None, "time out of range"
    lat, lon = fix.get("latitude_e7"), fix.get("longitude_e7")
    if lat is None or lon is None:
        return None, "no position"
    if abs(lat) > LAT_E7_MAX or abs(lon) > LON_E7_MAX:
        return None, "position out of range"
    if lat == 0 and lon == 0:
        return None, "position 0,0"
    if fix.get("course_cdeg") == 36000:
        fix["course_cdeg"] = 0
    for name, (low, high) in OPTIONAL_RANGES.items():
        if fix.get(name) is not None and not low <= fix[name] <= high:
            fix[name] = None
    kept = {k: fix.get(k) for k in FIELDS}
    kept["_ties"] = [k for k in ties if kept[k] is not None]
    return kept, None


class Reading:
    """What the judge read from one file."""

    def __init__(self, fmt: str):
        self.format = fmt
        self.fixes: list[tuple[int, dict]] = []   # (file order, fix)
        self.skipped: dict[str, int] = {}
        self.points_read = 0
        self.refused: str | None = None          # why the judge imports nothing from the file
        self.waypoints: list[tuple] = []         # GPX: (name, latitude, longitude) in file order
        self.routes: list[tuple] = []            # GPX: (name, [(latitude, longitude, point name)]) per route

    def skip(self, reason: str):
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def add(self, fix: dict):
        kept, reason = finish_fix(fix)
        if kept is None:
            self.skip(reason)
        else:
            self.fixes.append((len(self.fixes), kept))

    def sorted_fixes(self) -> list[dict]:
        return [f for _, f in sorted(self.fixes, key=lambda p: (p[1]["time_ms"], p[0]))]

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())


# ----------------------------------------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------------------------------------

MEANINGS = {
    "time": "time timestamp datetime utc utctime timeutc gpstime recordedat when isotime timestamputc localtime "
            "unixtime epoch unixtimestamp tst epochtime createdat trackedat lcltime",
    "time_ms": "timestampms timems unixms epochms timemillis millis unixtimems timestampmillis",
    "date": "date utcdate gpsdate lcldate",
    "offset": "utcofst utcoffset timezoneoffset",
    "lat": "latitude lat latitudens latdeg latitudedeg latitudedegrees latitudee7 late7",
    "lon": "longitude lon lng long longitudeew londeg longitudedeg longitudedegrees longitudee7 lone7 lnge7",
    "lat_hemisphere": "ns latref latitudehemisphere nsind",
    "lon_hemisphere": "ew lonref longitudehemisphere ewind",
    "accuracy": "accuracym accuracy acc horizontalaccuracy hacc horizontalaccuracym haccuracy precision",
    "altitude": "altitudem altitude alt elevation ele height elevationm heightm gpsaltitude",
    "speed": "speedms speed vel velocity groundspeed",
    "course": "coursedeg course bearing heading cog direction bearingdeg headingdeg",
    "hdop": "hdop",
}
NAME_TO_MEANING = {name: meaning for meaning, names in MEANINGS.items() for name in names.split()}


def normalize_header(name: str) -> str:
    s = name.lower()
    cut = [i for i in (s.find("("), s.find("[")) if i >= 0]
    if cut:
        s = s[:min(cut)]
    s = "".join(c for c in s if ("a" <= c <= "z") or ("0" <= c <= "9"))
    for suffix in ("kmh", "kph", "mph", "knots", "ft"):
        if s.endswith(suffix) and len(s) > len(suffix):
            s = s[:-len(suffix)]
            break
    return s


def count_outside_quotes(line: str, ch: str) -> int:
    n, quoted = 0, False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif c == ch and not quoted:
            n += 1
    return n


def choose_delimiter(header_line: str) -> str:
    best, best_count = ",", count_outside_quotes(header_line, ",")
    for d in (";", "\t", "|"):
        n = count_outside_quotes(header_line, d)
        if n > best_count:
            best, best_count = d, n
    return best


def csv_records(text: str, start: int, line_no: int, delimiter: str):
    """RFC 4180 records from text[start:]: yields (first line number, [raw fields])."""
    i, n = start, len(text)
    while i < n:
        fields, field, quoted, record_line = [], [], False, line_no
        while i < n:
            c = text[i]
            if quoted:
                if c == '"':
                    if i + 1 < n and text[i + 1] == '"':
                        field.append('"')
                        i += 1
                    else:
                        quoted = False
                else:
                    if c == "\n" or (c == "\r" and not (i + 1 < n and text[i + 1] == "\n")):
                        line_no += 1
                    field.append(c)
                i += 1
                continue
            if c == '"':
                quoted = True
                i += 1
            elif c == delimiter:
                fields.append("".join(field))
                field = []
                i += 1
            elif c == "\r" or c == "\n":
                if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                    i += 1
                i += 1
                line_no += 1
                break
            else:
                field.append(c)
                i += 1
        fields.append("".join(field))
        yield record_line, fields


def clean(cell: str) -> str:
    return cell.replace("\x00", "").strip(" \t")


def split_number_unit(cell: str, decimal_comma: bool) -> tuple[Fraction, str] | None:
    """A number with an optional unit after it -> (value, unit lower case), or None."""
    if decimal_comma and cell.count(",") == 1 and "." not in cell:
        cell = cell.replace(",", ".")
    m = re.fullmatch(r"(" + NUMBER + r")\s*([A-Za-z/]*)", cell)
    if not m:
        return None
    return exact(m.group(1)), m.group(2).lower()


class CSVColumns:
    def __init__(self, raw_headers: list[str]):
        self.raw = raw_headers
        self.normalized = [normalize_header(h) for h in raw_headers]
        self.index: dict[str, int] = {}
        for i, name in enumerate(self.normalized):
            meaning = NAME_TO_MEANING.get(name)
            if meaning and meaning not in self.index:
                self.index[meaning] = i
        self.speed_unit: Fraction | None = None
        self.altitude_feet = self.accuracy_feet = False
        if "speed" in self.index:
            h = raw_headers[self.index["speed"]].lower().replace(" ", "")
            if "km/h" in h or "kmh" in h or "kph" in h:
                self.speed_unit = KMH
            elif "mph" in h:
                self.speed_unit = MPH
            elif "knot" in h or "(kn)" in h:
                self.speed_unit = KNOT
            elif "m/s" in h:
                self.speed_unit = Fraction(1)
            elif "index" in self.normalized and ("rcr" in self.normalized or "tag" in self.normalized):
                self.speed_unit = KMH
            else:
                self.speed_unit = Fraction(1)
        for meaning, attr in (("altitude", "altitude_feet"), ("accuracy", "accuracy_feet")):
            if meaning in self.index:
                h = raw_headers[self.index[meaning]].lower().replace(" ", "")
                feet = "(ft" in h or "[ft" in h or h.endswith("_ft") or "feet" in h
                setattr(self, attr, feet)


def read_csv(path: str) -> Reading:
    reading = Reading("csv")
    data = open(path, "rb").read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        reading.refused = f"not UTF-8 ({e.reason} at byte {e.start})"
        return reading
    # The header: the first line that is neither blank nor a # comment.
    pos, line_no = 0, 1
    while pos < len(text):
        end = len(text)
        for term in ("\r\n", "\n", "\r"):
            k = text.find(term, pos)
            if k >= 0 and k < end:
                end = k
        line = text[pos:end]
        if line.strip(" \t") and not line.startswith("#"):
            break
        nxt = end + (2 if text.startswith("\r\n", end) else 1)
        pos, line_no = nxt, line_no + 1
    else:
        reading.refused = "no header line"
        return reading
    delimiter = choose_delimiter(line)
    decimal_comma = delimiter != ","
    records = csv_records(text, pos, line_no, delimiter)
    _, header = next(records)
    cols = CSVColumns([clean(h) for h in header])
    if ("time" not in cols.index and "time_ms" not in cols.index) or "lat" not in cols.index \
            or "lon" not in cols.index:
        reading.refused = ("no time, latitude and longitude columns in the header "
                           f"({', '.join(repr(h) for h in cols.raw[:6])}{', ...' if len(cols.raw) > 6 else ''})")
    rows = []
    for rec_line, fields in records:
        cells = [clean(f) for f in fields]
        if not any(cells):
            continue
        rows.append((rec_line, cells))
    reading.points_read = len(rows) if reading.refused is None else 0
    if reading.refused:
        return reading

    def cell(cells, meaning):
        i = cols.index.get(meaning)
        if i is None or i >= len(cells):
            return ""
        if decimal_comma and cells[i].count(",") == 1 and "." not in cells[i]:
            return cells[i].replace(",", ".")   # a decimal comma (45,81 is 45.81)
        return cells[i]

    # E7 columns: header ending in e7, or the first non-empty value an integer beyond degrees.
    e7 = {}
    for meaning, limit in (("lat", 90), ("lon", 180)):
        i = cols.index[meaning]
        e7[meaning] = cols.normalized[i].endswith("e7")
        if not e7[meaning]:
            first = next((c[i] for _, c in rows if i < len(c) and c[i]), "")
            if re.fullmatch(r"[+-]?\d+", first) and limit < abs(int(first)) <= limit * 10 ** 7:
                e7[meaning] = True

    def read_time(cells) -> int | None:
        if "time" in cols.index:
            t = cell(cells, "time")
            if not t:
                return None
            ms = parse_iso(t)
            if ms is not None:
                return ms
            if "date" in cols.index and re.fullmatch(r"\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?|\d{6}", t):
                d = cell(cells, "date")
                if re.fullmatch(r"\d{6}", d):
                    d = f"20{d[0:2]}-{d[2:4]}-{d[4:6]}"
                if re.fullmatch(r"\d{6}", t):
                    t = f"{t[0:2]}:{t[2:4]}:{t[4:6]}"
                ms = parse_iso(f"{d}T{t}{cell(cells, 'offset')}")
                if ms is not None:
                    return ms
            if NUMBER_RE.fullmatch(t):
                v = exact(t)
                return Fraction(v if abs(v) >= 10 ** 11 else v * 1000)
            raise ValueError("unreadable time")
        t = cell(cells, "time_ms")
        if not t:
            return None
        if NUMBER_RE.fullmatch(t):
            return Fraction(exact(t))
        raise ValueError("unreadable time")

    def read_coordinate(cells, meaning) -> int | None:
        c = cell(cells, meaning)
        if not c:
            return None
        letters = "NS" if meaning == "lat" else "EW"
        m = re.fullmatch(r"([A-Za-z])?\s*(" + NUMBER + r")\s*([A-Za-z])?", c)
        if not m or (m.group(1) and m.group(3)):
            raise ValueError("unreadable position")
        letter = (m.group(1) or m.group(3) or "").upper()
        if letter and letter not in letters:
            raise ValueError("unreadable position")
        v = exact(m.group(2))
        if letter in ("S", "W"):
            v = -v
        hemisphere = cell(cells, meaning + "_hemisphere").upper()
        if hemisphere in ("N", "E"):
            v = abs(v)
        elif hemisphere in ("S", "W"):
            v = -abs(v)
        return Fraction(v if e7[meaning] else v * 10 ** 7)

    def read_optional(cells, meaning) -> int | None:
        c = cell(cells, meaning)
        if not c:
            return None
        parsed = split_number_unit(c, decimal_comma)
        if parsed is None:
            return None
        v, unit = parsed
        if meaning == "altitude":
            factor = FOOT if cols.altitude_feet else 1
            if unit == "m":
                factor = 1
            elif unit == "ft":
                factor = FOOT
            elif unit:
                return None
            return Fraction(v * factor * 100)
        if meaning in ("accuracy", "hdop"):
            factor = FOOT if (meaning == "accuracy" and cols.accuracy_feet) else 1
            if unit == "m" and meaning == "accuracy":
                factor = 1
            elif unit:
                return None
            return Fraction(v * factor * (100 if meaning == "accuracy" else 500))
        if meaning == "speed":
            factor = cols.speed_unit
            units = {"km/h": KMH, "kmh": KMH, "kph": KMH, "mph": MPH, "kn": KNOT, "knots": KNOT, "kt": KNOT}
            if unit:
                if unit not in units:
                    return None
                factor = units[unit]
            return Fraction(v * factor * 100)
        if meaning == "course":
            if unit:
                return None
            return Fraction(v * 100)
        raise AssertionError(meaning)

    for rec_line, cells in rows:
        try:
            time_ms = read_time(cells)
        except ValueError:
            reading.skip("unreadable time")
            continue
        try:
            lat, lon = read_coordinate(cells, "lat"), read_coordinate(cells, "lon")
        except ValueError:
            reading.skip("unreadable position")
            continue
        fix = {"time_ms": time_ms, "latitude_e7": lat, "longitude_e7": lon,
               "altitude_cm": read_optional(cells, "altitude") if "altitude" in cols.index else None,
               "speed_cm_s": read_optional(cells, "speed") if "speed" in cols.index else None,
               "course_cdeg": read_optional(cells, "course") if "course" in cols.index else None}
        if "accuracy" in cols.index:
            fix["horizontal_accuracy_cm"] = read_optional(cells, "accuracy")
        elif "hdop" in cols.index:
            fix["horizontal_accuracy_cm"] = read_optional(cells, "hdop")
        reading.add(fix)
    if not reading.fixes:
        reading.refused = "no point could be imported"
    return reading


# ----------------------------------------------------------------------------------------------------------------
# GPX (through gpxpy)
# ----------------------------------------------------------------------------------------------------------------

def float_exact(x: float) -> Fraction:
    """The decimal the float was read from (its shortest repr), exactly."""
    return Fraction(Decimal(repr(x)))


def gpx_time_ms(t: dt.datetime) -> int:
    offset = t.utcoffset() or dt.timedelta(0)           # naive (no zone): UTC
    naive = t.replace(tzinfo=None)
    seconds = calendar.timegm(naive.timetuple()[:6] + (0, 0, 0)) - int(offset.total_seconds())
    return seconds * 1000 + round_half_away(Fraction(naive.microsecond, 1000))


def extension_value(point, local_name: str) -> Fraction | None:
    for ext in point.extensions or []:
        for el in ext.iter():
            if el.tag.rsplit("}", 1)[-1] == local_name and el.text and el.text.strip():
                text = el.text.strip()
                if NUMBER_RE.fullmatch(text):
                    return exact(text)
                return None
    return None


def read_gpx(path: str) -> Reading:
    try:
        import gpxpy  # noqa: PLC0415 (only the GPX reading needs it)
    except ImportError:
        sys.exit("import_judge: the GPX reading needs gpxpy (python3 -m pip install gpxpy)")
    reading = Reading("gpx")
    data = open(path, "rb").read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        gpx = gpxpy.parse(data.decode("utf-8"))
    except Exception as e:  # noqa: BLE001
        reading.refused = f"gpxpy cannot read it: {e}"
        return reading
    # Waypoints and routes as gpxpy reads them, for the run that keeps them (--waypoints, --routes).
    reading.waypoints = [(w.name, w.latitude, w.longitude) for w in gpx.waypoints]
    reading.routes = [(r.name, [(p.latitude, p.longitude, p.name) for p in r.points]) for r in gpx.routes]
    not_points = len(gpx.waypoints) + sum(len(r.points) for r in gpx.routes)
    for _ in range(not_points):
        reading.skip("not a point (wpt/rtept)")
    trkpts = [p for t in gpx.tracks for s in t.segments for p in s.points]
    reading.points_read = not_points + len(trkpts)
    for p in trkpts:
        fix = {"time_ms": gpx_time_ms(p.time) if p.time is not None else None,
               "latitude_e7": Fraction(float_exact(p.latitude) * 10 ** 7) if p.latitude is not None else None,
               "longitude_e7": Fraction(float_exact(p.longitude) * 10 ** 7)
               if p.longitude is not None else None,
               "altitude_cm": Fraction(float_exact(p.elevation) * 100) if p.elevation is not None else None,
               "horizontal_accuracy_cm": Fraction(float_exact(p.horizontal_dilution) * 500)
               if p.horizontal_dilution is not None else None}
        speed = float_exact(p.speed) if p.speed is not None else extension_value(p, "speed")
        course = float_exact(p.course) if p.course is not None else extension_value(p, "course")
        fix["speed_cm_s"] = Fraction(speed * 100) if speed is not None else None
        fix["course_cdeg"] = Fraction(course * 100) if course is not None else None
        reading.add(fix)
    if not reading.fixes:
        reading.refused = "no point could be imported"
    return reading


def detect_format(path: str) -> str | None:
    ext = os.path.splitext(path)[1].lower()
    if ext == ".gpx":
        return "gpx"
    if ext in (".csv", ".txt", ".tsv"):
        return "csv"
    head = open(path, "rb").read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<?xml") or head.startswith(b"<gpx"):
        return "gpx"
    return None


# ----------------------------------------------------------------------------------------------------------------
# locwire's result and the comparison
# ----------------------------------------------------------------------------------------------------------------

class LocwireResult:
    def __init__(self, status: int, stderr: str, batch: dict | None, summary: dict | None):
        self.status, self.stderr, self.batch, self.summary = status, stderr, batch, summary

    @property
    def refused_reason(self) -> str:
        lines = self.stderr.strip().splitlines()
        refusals = [l for l in lines if l.startswith("locwire:")]
        return (refusals or lines or [""])[-1].removeprefix("locwire: ")

    def fixes(self) -> list[dict]:
        out = []
        for f in (self.batch or {}).get("fixes", []):
            out.append({k: (int(f[j]) if j in f else None) for k, j in JSON_NAMES.items()})
        return out

    def skipped_total(self) -> int:
        return sum(v["count"] for v in (self.summary or {}).get("skipped", {}).values())

    def skipped_text(self) -> str:
        sk = (self.summary or {}).get("skipped", {})
        return "; ".join(f"{k.split(':')[0]} {v['count']}" for k, v in sk.items()) or "none"

    def stderr_counts(self) -> tuple[int, int, int] | None:
        """(points read, imported, skipped) from the text summary on standard error, when it has one."""
        m = re.search(r"^read (\d+) points?, imported (\d+)", self.stderr, re.M)
        if not m:
            return None
        skipped = sum(int(n) for n in re.findall(r"^skipped (\d+):", self.stderr, re.M))
        return int(m.group(1)), int(m.group(2)), skipped


def run_locwire(locwire: str, path: str, workdir: str, force: str | None = None) -> LocwireResult:
    out, summary = os.path.join(workdir, "out.json"), os.path.join(workdir, "summary.json")
    for f in (out, summary):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run([locwire, "import", path, "--device-id", "judge", "--to", "json", "--output", out,
                        "--summary-json", summary] + (["--from", force] if force else []),
                       capture_output=True, text=True)
    batch = json.load(open(out)) if p.returncode == 0 and os.path.exists(out) else None
    summ = json.load(open(summary)) if p.returncode == 0 and os.path.exists(summary) else None
    return LocwireResult(p.returncode, p.stderr, batch, summ)


def compare(reading: Reading, result: LocwireResult, limit: int = 5) -> list[str]:
    """Differences between the judge's reading and locwire's result (empty: they agree)."""
    if result.status not in (0, 1):
        return [f"locwire exit status {result.status}: {result.stderr.strip()[-300:]}"]
    if result.status == 1 or reading.refused:
        if result.status == 1 and reading.refused:
            counts = result.stderr_counts()
            ours = (reading.points_read, len(reading.fixes), reading.skipped_total)
            if counts is not None and counts != ours:
                return [f"both refuse, but (read, imported, skipped): judge {ours}, locwire {counts}"]
            return []
        if result.status == 1:
            return [f"locwire refuses the file ({result.refused_reason}); the judge imports "
                    f"{len(reading.fixes)} of {reading.points_read} points"]
        return [f"judge imports nothing ({reading.refused}); locwire imports "
                f"{result.summary.get('imported') if result.summary else '?'}"]
    diffs = []
    summary = result.summary or {}
    theirs = result.fixes()
    ours = reading.sorted_fixes()
    if summary.get("imported") != len(theirs):
        diffs.append(f"summary says imported {summary.get('imported')} but the batch has {len(theirs)} fixes")
    if len(ours) != len(theirs):
        diffs.append(f"imported: judge {len(ours)}, locwire {len(theirs)}")
    if reading.skipped_total != result.skipped_total():
        diffs.append(f"skipped: judge {reading.skipped_total} ({reading.skipped}), locwire "
                     f"{result.skipped_total()} ({result.skipped_text()})")
    if summary.get("points_read") != reading.points_read:
        diffs.append(f"points read: judge {reading.points_read}, locwire {summary.get('points_read')}")
    if reading.format == "gpx":
        not_points = sum(v["count"] for v in summary.get("skipped", {}).values() if v["code"] == "not-a-point")
        if not_points != reading.skipped.get("not a point (wpt/rtept)", 0):
            diffs.append(f"wpt+rtept counted: judge {reading.skipped.get('not a point (wpt/rtept)', 0)}, "
                         f"locwire {not_points}")
    fix_diffs = 0
    for i, (a, b) in enumerate(zip(ours, theirs)):
        bad = [k for k in FIELDS if a[k] != b[k]]
        if bad:
            fix_diffs += 1
            if fix_diffs <= limit:
                diffs.append(f"fix {i + 1} (time {a['time_ms']}): " + ", ".join(
                    f"{k} judge {a[k]} locwire {b[k]}" + (" (exact value a half, x.5)" if k in a["_ties"] else "")
                    for k in bad))
    if fix_diffs > limit:
        diffs.append(f"... {fix_diffs} fixes differ in all")
    if len(ours) != len(theirs):
        n = min(len(ours), len(theirs))
        extra = ours[n:n + 2] if len(ours) > n else theirs[n:n + 2]
        who = "judge" if len(ours) > n else "locwire"
        diffs.append(f"first fixes only {who} has: {extra}")
    return diffs


def e7(degrees) -> int:
    """Degrees to the nearest 1e-7 degree, halves away from zero, from the exact value."""
    return round_half_away(Fraction(degrees) * 10 ** 7)


def compare_marked(locwire: str, path: str, workdir: str, reading: Reading) -> list[str]:
    """GPX: `import --waypoints --routes` against gpxpy's waypoints and routes (names, positions to 1e-7 degree,
    order, the points of each route). Waypoints and route points without a position in range are left out of
    both sides: locwire counts them as unreadable."""
    if not reading.waypoints and not reading.routes:
        return []
    waypoints_file, routes_file = os.path.join(workdir, "waypoints.json"), os.path.join(workdir, "routes.json")
    p = subprocess.run([locwire, "import", path, "--device-id", "judge", "--output", os.devnull,
                        "--waypoints", waypoints_file, "--routes", routes_file], capture_output=True, text=True)
    if p.returncode != 0:
        return [f"import --waypoints --routes exits {p.returncode}: {p.stderr.strip()[-200:]}"]
    in_range = lambda lat, lon: lat is not None and lon is not None and abs(lat) <= 90 and abs(lon) <= 180
    diffs = []
    theirs = [((f["properties"].get("name")), e7(f["geometry"]["coordinates"][1]), e7(f["geometry"]["coordinates"][0]))
              for f in json.load(open(waypoints_file))["features"]]
    ours = [((name.strip() if name else None) or None, e7(float_exact(lat)), e7(float_exact(lon)))
            for name, lat, lon in reading.waypoints if in_range(lat, lon)]
    if ours != theirs:
        first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        diffs.append(f"waypoints: judge {len(ours)}, locwire {len(theirs)}; first difference at {first}: "
                     f"judge {ours[first:first + 1]}, locwire {theirs[first:first + 1]}")
    theirs = [(f["properties"].get("name"), [(e7(c[1]), e7(c[0])) for c in f["geometry"]["coordinates"]],
               f["properties"]["point_names"]) for f in json.load(open(routes_file))["features"]]
    ours = []
    for name, points in reading.routes:
        kept = [(lat, lon, point_name) for lat, lon, point_name in points if in_range(lat, lon)]
        if kept:
            ours.append(((name.strip() if name else None) or None,
                         [(e7(float_exact(lat)), e7(float_exact(lon))) for lat, lon, _ in kept],
                         [(n.strip() if n else None) or None for _, _, n in kept]))
    if ours != theirs:
        diffs.append(f"routes: judge {[(n, len(p)) for n, p, _ in ours]}, locwire {[(n, len(p)) for n, p, _ in theirs]}")
    return diffs


def judge_file(locwire: str, path: str, workdir: str, force: str | None = None):
    fmt = force or detect_format(path)
    if fmt is None:
        return None, None, [f"not a CSV or GPX file; not judged"]
    reading = read_gpx(path) if fmt == "gpx" else read_csv(path)
    result = run_locwire(locwire, path, workdir, force)
    diffs = compare(reading, result)
    if fmt == "gpx" and not (reading.refused or "").startswith("gpxpy cannot"):
        diffs += compare_marked(locwire, path, workdir, reading)
    return reading, result, diffs


def report_row(path: str, reading: Reading | None, result: LocwireResult | None, diffs: list[str]) -> str:
    def esc(s):
        return str(s).replace("|", "\\|").replace("\n", " ")
    if reading is None:
        return f"| `{esc(path)}` | ? | | | | not judged |"
    if result.status == 1:
        verdict = ("both refuse: " + reading.refused) if not diffs else "DIFFERS: " + "; ".join(diffs[:3])
        counts = result.stderr_counts()
        read, imported, skipped = ("locwire refuses", "", "")
        if counts is not None:
            read, imported = f"{counts[0]} (refused)", counts[1]
            skipped = "; ".join(f"{r.split(' [')[0].split(':')[0]} {n}"
                                for n, r in re.findall(r"^skipped (\d+): (.*)$", result.stderr, re.M)) or "none"
        return (f"| `{esc(path)}` | {reading.format} | {read} | {imported} | {esc(skipped)} | {esc(verdict)} "
                f"(locwire: {esc(result.refused_reason)}) |")
    s = result.summary or {}
    verdict = (f"agrees on {len(reading.fixes)} fixes" if not diffs
               else "differs: " + "; ".join(diffs[:3]))
    return (f"| `{esc(path)}` | {reading.format} | {s.get('points_read')} | {s.get('imported')} | "
            f"{esc(result.skipped_text())} | {esc(verdict)} |")


# ----------------------------------------------------------------------------------------------------------------
# Self-test: the judge must be able to fail
# ----------------------------------------------------------------------------------------------------------------

SELF_TEST_CSV = """\
time,latitude,longitude,accuracy_m,altitude_m,speed_m_s,course_deg
2024-05-04T08:10:00Z,45.8130987,15.9772031,12,128,0,
2024-05-04T08:15:02Z,45.8126447,15.9790842,8.2,127.4,1.39,112.5
1714810531.25,45.8121307,15.9813712,4.7,126,10,118.04
2024-05-04T08:30:00Z,,,32,131,0,
"""


def self_test(locwire: str) -> int:
    failures = []
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "self-test.csv")
        with open(path, "w") as f:
            f.write(SELF_TEST_CSV)
        reading = read_csv(path)
        result = run_locwire(locwire, path, work)
        base = compare(reading, result)
        if base:
            failures.append(f"the unaltered output should agree, but: {base}")
        if len(reading.fixes) != 3 or reading.skipped_total != 1:
            failures.append(f"the judge's own reading is off: {len(reading.fixes)} fixes, "
                            f"{reading.skipped_total} skipped (expected 3 and 1)")

        def altered(change):
            batch = json.loads(json.dumps(result.batch))
            summary = json.loads(json.dumps(result.summary))
            change(batch, summary)
            return LocwireResult(0, "", batch, summary)

        def shift_time(b, s):
            b["fixes"][1]["timeMs"] = str(int(b["fixes"][1]["timeMs"]) + 1000)

        def nudge_latitude(b, s):
            b["fixes"][2]["latitudeE7"] += 1

        def drop_course(b, s):
            b["fixes"][1].pop("courseCdeg", None)

        def add_course(b, s):
            b["fixes"][0]["courseCdeg"] = 1

        def swap_order(b, s):
            b["fixes"][0], b["fixes"][1] = b["fixes"][1], b["fixes"][0]

        def lose_fix(b, s):
            b["fixes"].pop()
            s["imported"] -= 1

        def skip_count(b, s):
            next(iter(s["skipped"].values()))["count"] += 1

        for name, change in (("time shifted by 1 s", shift_time), ("latitude off by 1e-7", nudge_latitude),
                             ("course left out", drop_course), ("course invented", add_course),
                             ("fixes out of time order", swap_order), ("a fix lost", lose_fix),
                             ("skipped count off by one", skip_count)):
            if result.batch is None:
                failures.append("locwire refused the self-test file")
                break
            diffs = compare(reading, altered(change))
            if diffs:
                print(f"self-test: {name}: reported ({diffs[0]})")
            else:
                failures.append(f"{name}: NOT reported")
        refused = compare(reading, LocwireResult(1, "locwire: refused for the test", None, None))
        if refused:
            print(f"self-test: locwire refusing a good file: reported ({refused[0]})")
        else:
            failures.append("locwire refusing a good file: NOT reported")
    # The reading's own rules, on values the files may not hold.
    checks = [
        (round_half_away(Fraction(5, 2)), 3), (round_half_away(Fraction(-5, 2)), -3),
        (parse_iso("2024-05-04T08:15:02Z"), 1714810502000),
        (parse_iso("2024/05/04 10:15:02.0005+02"), 1714810502001),
        (parse_iso("2024-05-04t08:15:02,9994-0130"), 1714810502999 + 90 * 60000),
        (parse_iso("2024-05-04T08:15"), 1714810500000), (parse_iso("2024-02-30T08:15:00Z"), None),
        (normalize_header("Speed (km/h)"), "speed"), (normalize_header("altitude_ft"), "altitude"),
        (normalize_header("LATITUDE N/S"), "latitudens"), (normalize_header("ft"), "ft"),
        (choose_delimiter("a;b,c;d,e"), ","), (choose_delimiter('"a,b,c";d;e'), ";"),
    ]
    for i, (got, want) in enumerate(checks):
        if got != want:
            failures.append(f"rule check {i}: got {got!r}, want {want!r}")
    for f in failures:
        print(f"self-test FAILED: {f}")
    if not failures:
        print("self-test: ok (every planted difference was reported)")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locwire", required=True, help="the locwire binary")
    ap.add_argument("--report", help="also write a Markdown table here")
    ap.add_argument("--self-test", action="store_true", help="check that the judge reports planted differences")
    ap.add_argument("--from", dest="force", choices=("csv", "gpx"),
                    help="read every file as this format (passed to locwire as --from); default: detected")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if not os.access(args.locwire, os.X_OK):
        print(f"import_judge: {args.locwire}: not an executable", file=sys.stderr)
        return 2
    status = 0
    if args.self_test:
        status = self_test(args.locwire)
    elif not args.files:
        ap.error("name files to judge, or --self-test")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for path in args.files:
            reading, result, diffs = judge_file(args.locwire, path, work, args.force)
            rows.append(report_row(path, reading, result, diffs))
            if reading is None:
                print(f"{path}: not judged ({diffs[0]})")
            elif diffs:
                status = 1
                print(f"{path}: DIFFERS")
                for d in diffs:
                    print(f"    {d}")
            elif result.status == 1:
                print(f"{path}: ok (both refuse: judge: {reading.refused}; locwire: {result.refused_reason})")
            else:
                print(f"{path}: ok ({reading.format}: {len(reading.fixes)} fixes agree, "
                      f"{reading.skipped_total} skipped)")
    if args.report:
        with open(args.report, "w") as f:
            f.write("| File | Format | Points read | Imported | Skipped (reasons with counts) | Judge's verdict |\n")
            f.write("|---|---|---|---|---|---|\n")
            f.write("\n".join(rows) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
