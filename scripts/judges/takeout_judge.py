#!/usr/bin/env python3
"""An independent reading of Google Takeout location history, for comparison with `locwire import --from takeout`.

Written from the rules in the doc comment of TakeoutFormat (and location_fix.proto's ranges), not from the Swift:

    scripts/judges/takeout_judge.py FILE            the fixes, one JSON object per line, in time order (ties in file order):
                                             time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm
    scripts/judges/takeout_judge.py --summary FILE  also a summary on standard error: read, imported, skipped by reason

Shapes: {"locations": [...]} (Records.json), {"timelineObjects": [...]} (Semantic Location History),
{"semanticSegments": [...], "rawSignals": [...]} (Timeline, Android) and a top-level array (Timeline, iOS).
Standard library only; exact arithmetic (Fraction) for every scaled value, rounded halves away from zero.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timezone
from fractions import Fraction

TIME_RANGE = (946684800000, 4102444799999)
ACCURACY_RANGE = (1, 2**32 - 1)

ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)")
DECIMAL = re.compile(r"[+-]?\d+(?:\.\d+)?")


def iso_ms(text):
    """ISO 8601 with a zone (all Takeout times have one) -> UTC ms; None when it is not such a time."""
    m = ISO.fullmatch(text)
    if not m:
        return None
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    base = datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc)
    ms = int(base.timestamp()) * 1000
    if m.group(7):
        ms += round_half_away(Fraction(int(m.group(7)), 10 ** len(m.group(7))) * 1000)
    zone = m.group(8)
    if zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        ms -= sign * (int(zone[1:3]) * 60 + int(zone[4:6])) * 60000
    return ms


def round_half_away(x):
    x = Fraction(x)
    n = (abs(x) + Fraction(1, 2)).__floor__()
    return n if x >= 0 else -n


def degrees_e7(text):
    """'-27.4127738°' -> Fraction(-274127738); None when it is not a decimal number."""
    text = text.strip()
    if text.endswith("°"):
        text = text[:-1]
    if not DECIMAL.fullmatch(text):
        return None
    return Fraction(text) * 10**7


def position(text):
    """'48.1°, 11.5°' or 'geo:48.1,11.5' -> (lat_e7, lon_e7) as Fractions; None when it is not a position."""
    if not isinstance(text, str):
        return None
    body = text.strip()
    if body.startswith("geo:"):
        body = body[4:]
    parts = body.split(",")
    if len(parts) != 2:
        return None
    lat, lon = degrees_e7(parts[0]), degrees_e7(parts[1])
    return None if lat is None or lon is None else (lat, lon)


def position_text(value):
    """A position written as text, or as {"latLng": text} (Android)."""
    if isinstance(value, dict):
        return value.get("latLng")
    return value


class Judge:
    def __init__(self):
        self.fixes = []
        self.read = 0
        self.skipped = {}

    def skip(self, reason):
        self.read += 1
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def fix(self, time_ms, lat, lon, accuracy_m=None):
        """One point: the converter's rules (time, then position, then (0, 0)); accuracy left out when out of range."""
        if time_ms is None:
            return self.skip("no-time")
        time_ms = round_half_away(time_ms)
        if not TIME_RANGE[0] <= time_ms <= TIME_RANGE[1]:
            return self.skip("time-out-of-range")
        if lat is None or lon is None:
            return self.skip("no-position")
        lat, lon = round_half_away(lat), round_half_away(lon)
        if abs(lat) > 900000000 or abs(lon) > 1800000000:
            return self.skip("position-out-of-range")
        if lat == 0 and lon == 0:
            return self.skip("null-island")
        accuracy = None
        if accuracy_m is not None:
            accuracy = round_half_away(Fraction(str(accuracy_m)) * 100)
            if not ACCURACY_RANGE[0] <= accuracy <= ACCURACY_RANGE[1]:
                accuracy = None
        self.read += 1
        self.fixes.append({"time_ms": time_ms, "latitude_e7": lat, "longitude_e7": lon,
                           "horizontal_accuracy_cm": accuracy})


def e7(value):
    return None if value is None else Fraction(value)


def takeout_time(obj, key):
    """key + "Ms" (Unix ms, text or number) first, else key as ISO 8601."""
    if obj.get(key + "Ms") is not None:
        return Fraction(str(obj[key + "Ms"]))
    if obj.get(key) is not None:
        return iso_ms(obj[key])
    return None


def records(judge, locations):
    for rec in locations:
        judge.fix(takeout_time(rec, "timestamp"), e7(rec.get("latitudeE7")), e7(rec.get("longitudeE7")),
                  rec.get("accuracy"))


def raw_path(judge, owner):
    for p in (owner.get("simplifiedRawPath") or {}).get("points", []):
        judge.fix(takeout_time(p, "timestamp"), e7(p.get("latE7")), e7(p.get("lngE7")), p.get("accuracyMeters"))


def has_coordinate(place):
    return isinstance(place, dict) and (place.get("latitudeE7") is not None or place.get("longitudeE7") is not None)


def semantic(judge, objects):
    for obj in objects:
        if obj.get("activitySegment") is not None:
            seg = obj["activitySegment"]
            duration = seg.get("duration") or {}
            for key, time_key in (("startLocation", "startTimestamp"), (None, None), ("endLocation", "endTimestamp")):
                if key is None:
                    raw_path(judge, seg)
                elif key in seg:
                    place = seg[key]
                    if not has_coordinate(place):
                        judge.skip("not-a-point")
                    else:
                        judge.fix(takeout_time(duration, time_key), e7(place.get("latitudeE7")),
                                  e7(place.get("longitudeE7")))
            for _ in (seg.get("waypointPath") or {}).get("waypoints", []):
                judge.skip("not-a-point")
            if seg.get("parkingEvent") is not None:
                judge.skip("not-a-point")
        elif obj.get("placeVisit") is not None:
            visit = obj["placeVisit"]
            place = visit.get("location")
            if not has_coordinate(place):
                judge.skip("not-a-point")
            else:
                judge.fix(takeout_time(visit.get("duration") or {}, "startTimestamp"), e7(place.get("latitudeE7")),
                          e7(place.get("longitudeE7")))
            raw_path(judge, visit)
            for _ in visit.get("childVisits") or []:
                judge.skip("not-a-point")
        else:
            judge.skip("not-a-point")


def timeline_point(judge, text, time_ms, accuracy_m=None):
    pos = position(text) if text is not None else (None, None)
    if pos is None:
        return judge.skip("unreadable")
    judge.fix(time_ms, pos[0], pos[1], accuracy_m)


def timeline(judge, segments):
    for seg in segments:
        start = iso_ms(seg["startTime"]) if seg.get("startTime") else None
        end = iso_ms(seg["endTime"]) if seg.get("endTime") else None
        points = False
        for p in seg.get("timelinePath") or []:
            points = True
            if p.get("time") is not None:
                when = iso_ms(p["time"])
            elif p.get("durationMinutesOffsetFromStartTime") is not None and start is not None:
                when = start + Fraction(str(p["durationMinutesOffsetFromStartTime"])) * 60000
            else:
                when = None
            timeline_point(judge, p.get("point"), when)
        visit = seg.get("visit")
        if visit is not None:
            points = True
            if Fraction(str(visit.get("hierarchyLevel") or 0)) > 0:
                judge.skip("not-a-point")
            else:
                text = position_text(((visit.get("topCandidate") or {}).get("placeLocation")))
                if text is None:
                    judge.skip("not-a-point")
                else:
                    timeline_point(judge, text, start)
        activity = seg.get("activity")
        if activity is not None:
            points = True
            for key, when in (("start", start), ("end", end)):
                text = position_text(activity.get(key))
                if text is not None:
                    timeline_point(judge, text, when)
        if not points:
            judge.skip("not-a-point")


def raw_signals(judge, signals):
    for signal in signals:
        pos = signal.get("position")
        if pos is None:
            judge.skip("not-a-point")
            continue
        text = pos.get("LatLng", pos.get("latLng"))
        timeline_point(judge, text, iso_ms(pos["timestamp"]) if pos.get("timestamp") else None,
                       pos.get("accuracyMeters"))


def judge_file(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    judge = Judge()
    if isinstance(document, list):
        timeline(judge, document)
    elif "locations" in document:
        records(judge, document["locations"])
    elif "timelineObjects" in document:
        semantic(judge, document["timelineObjects"])
    elif "semanticSegments" in document or "rawSignals" in document:
        timeline(judge, document.get("semanticSegments") or [])
        raw_signals(judge, document.get("rawSignals") or [])
    else:
        raise SystemExit(f"{path}: not Google Takeout location history")
    return judge


def main(argv):
    summary = "--summary" in argv
    paths = [a for a in argv if a != "--summary"]
    if len(paths) != 1:
        raise SystemExit(__doc__)
    judge = judge_file(paths[0])
    for fix in sorted(judge.fixes, key=lambda f: f["time_ms"]):   # stable: ties stay in file order
        print(json.dumps(fix))
    if summary:
        print(json.dumps({"read": judge.read, "imported": len(judge.fixes), "skipped": judge.skipped},
                         sort_keys=True), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
