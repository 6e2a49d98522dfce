"""LocationWire's semantic validation rules (proto/README.md, "Validation rules"), read from the spec text alone.

validate(message, type_name) takes a decoded python-protobuf message of package locationwire.v1 and its type name
(short, "LocationBatch", or full, "locationwire.v1.LocationBatch") and returns every violation as a list of
(code, path, severity) tuples, in a deterministic order: the message's fields in field-number order, each list
element by element, and each element's own rules before the rules that compare it with its neighbours.

Written from proto/README.md, the comments of proto/locationwire/v1/*.proto, testee.proto and
conformance/README.md; the reference (Swift) validator was not read. Where the text was silent when this was first
written, the choice was marked UNSPECIFIED; proto/README.md ("Paths and edge cases", under the rules table) now
states each of those edges, and the comments marked `Edge:` follow that text.

Only the standard library, the protobuf runtime and the modules it generates from proto/ (pb.py) are used; a message
is only read, never changed.
"""
import math
import re
import struct

from google.protobuf.descriptor import FieldDescriptor

import pb  # the generated *_pb2 modules (build.sh): the LocationFix fields are read from their descriptors

ERROR = "error"
WARNING = "warning"

# Valid times lie in [2000-01-01, 2100-01-01) (proto/README.md, "Conventions"; location_fix.proto time_ms).
TIME_MIN_MS = 946684800000
TIME_END_MS = 4102444800000
# time-after-send: "more than 10 minutes after the batch's sent_at_ms".
TIME_AFTER_SEND_MS = 10 * 60 * 1000
# clock-jump: "differ by more than 1 second".
CLOCK_JUMP_MS = 1000
# §polygon-in-circle / §child-within-parent: great-circle distances on a sphere of this radius, 1 m of slack.
EARTH_RADIUS_M = 6371008.8
SLACK_M = 1.0
# compact-too-many-fixes: the reference's default limit, which this validator adopts.
MAX_COMPACT_FIXES = 1_000_000
# §report-limit.
MAX_VIOLATIONS = 1000

# Enum values this revision knows, as plain numbers (the rules name them as the spec text does).
FENCE_EVENT_KIND_DWELL = 3
LIFECYCLE_RELAUNCHED_BY_SYSTEM = 5
MODE_FULL, MODE_DELTA = 1, 2
REQUEST_REASON_REFINE_ON_ENTRY = 4
OUTCOME_UNSPECIFIED, OUTCOME_PROCESSED, OUTCOME_HOLD, OUTCOME_TOO_LARGE = 0, 1, 2, 3
KNOWN_OUTCOMES = {OUTCOME_UNSPECIFIED, OUTCOME_PROCESSED, OUTCOME_HOLD, OUTCOME_TOO_LARGE}
RESULT_REJECTED = 3
KNOWN_RESULTS = {0, 1, 2, 3, 4}
RETIRED_REJECT_REASONS = {5, 6}
KNOWN_REGION_LEVELS = {1, 2, 3, 4, 5}

# Region.id: "<namespace>:<local id>", namespace 1-32 of [a-z0-9_.-], local id 1-95 of [A-Za-z0-9_.:/-], at most
# 128 bytes in all (which the two lengths already imply).
REGION_ID = re.compile(r"[a-z0-9_.\-]{1,32}:[A-Za-z0-9_.:/\-]{1,95}")


def region_id_ok(region_id):
    return REGION_ID.fullmatch(region_id) is not None and len(region_id.encode("utf-8")) <= 128


def utf8_len(s):
    return len(s.encode("utf-8", "surrogatepass"))


def distance_m(lat1_e7, lon1_e7, lat2_e7, lon2_e7):
    """Great-circle (haversine) distance in metres on the sphere of §polygon-in-circle."""
    p1, p2 = math.radians(lat1_e7 / 1e7), math.radians(lat2_e7 / 1e7)
    dp, dl = p2 - p1, math.radians((lon2_e7 - lon1_e7) / 1e7)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(h)))


def lat_ok(v):
    return -900000000 <= v <= 900000000


def lon_ok(v):
    return -1800000000 <= v <= 1800000000


class ReportFull(Exception):
    """Raised by Report.add for the violation after the 1,000th: the walk stops there (§report-limit)."""


class Report:
    """Collects violations in the order the rules find them."""

    def __init__(self):
        self.items = []

    def add(self, code, path, severity=ERROR):
        if len(self.items) >= MAX_VIOLATIONS:
            raise ReportFull()
        self.items.append((code, path, severity))

    def time(self, value, path, required):
        """A UTC-ms time: 0 is "not set" (required-field-missing when required), else it must lie in range."""
        if value == 0:
            if required:
                self.add("required-field-missing", path)
        elif not TIME_MIN_MS <= value < TIME_END_MS:
            self.add("time-out-of-range", path)

    def range(self, value, lo, hi, path):
        if value is not None and not lo <= value <= hi:
            self.add("value-out-of-range", path)

    def string(self, value, limit, path, required=False):
        if value == "":
            if required:
                self.add("required-field-missing", path)
        elif utf8_len(value) > limit:
            self.add("string-too-long", path)

    def region_id(self, value, path, required=False):
        if value == "":
            if required:
                self.add("required-field-missing", path)
        elif not region_id_ok(value):
            self.add("region-id-malformed", path)


def opt(msg, name):
    """The value of a field with explicit presence, or None when absent."""
    return getattr(msg, name) if msg.HasField(name) else None


# ---------------------------------------------------------------------------------------------------------------
# LocationFix. Fixes are validated as dicts (field name -> value, absent optional fields left out) so that rows
# and fixes rebuilt from CompactFixes go through the same rules.

# The LocationFix fields, read from the descriptors of the generated module (that is, from location_fix.proto),
# never copied: column N of CompactFixes is LocationFix field N, so a field added to the .proto is a column here
# at once. The kind says how a compact column value is read (compact_fixes.proto, Reconstruction, 4. Field types).
# Edge: the fields without explicit presence (not written `oneof optional_<name>`; proto/README.md's "Compact
# fixes", Types) include boot_id, a plain fixed64: a bitmap on it is compact-presence-mismatch.
# The canonical form (§compact-canonical) is not judged: no rule of the table names it.
_FD = FieldDescriptor
_COLUMN_KINDS = {
    _FD.TYPE_UINT64: "u64", _FD.TYPE_FIXED64: "u64", _FD.TYPE_INT64: "i64", _FD.TYPE_SINT64: "i64",
    _FD.TYPE_SFIXED64: "i64", _FD.TYPE_INT32: "i32", _FD.TYPE_SINT32: "i32", _FD.TYPE_SFIXED32: "i32",
    _FD.TYPE_UINT32: "u32", _FD.TYPE_FIXED32: "u32", _FD.TYPE_ENUM: "enum", _FD.TYPE_BOOL: "bool",
    _FD.TYPE_FLOAT: "f32",
}
FIX_FIELDS = [  # (number, name, kind, has_presence), in field-number order
    (f.number, f.name, _COLUMN_KINDS[f.type], f.containing_oneof is not None)
    for f in sorted(pb.fix.LocationFix.DESCRIPTOR.fields, key=lambda f: f.number)
]


def fix_dict(msg):
    out = {}
    for _, name, _, presence in FIX_FIELDS:
        if not presence or msg.HasField(name):
            out[name] = getattr(msg, name)
    return out


def check_fix(r, fix, path, require_sequence):
    """Rules of one fix, in field-number order. `fix` is a dict from fix_dict or rebuilt from compact columns."""
    # Edge ("Which fixes"): `sequence` is required of the fixes of a batch (backlog, compact, live) and of a
    # LocationFix on its own, not of a FenceEvent.trigger_fix or a RegionRequest.current_fix.
    if require_sequence and fix.get("sequence", 0) == 0:
        r.add("required-field-missing", path + ".sequence")
    r.time(fix.get("time_ms", 0), path + ".time_ms", required=True)
    lat, lon = fix.get("latitude_e7"), fix.get("longitude_e7")
    if lat is None:
        r.add("required-field-missing", path + ".latitude_e7")
    else:
        r.range(lat, -900000000, 900000000, path + ".latitude_e7")
    if lon is None:
        r.add("required-field-missing", path + ".longitude_e7")
    else:
        r.range(lon, -1800000000, 1800000000, path + ".longitude_e7")
    if lat == 0 and lon == 0:
        # Edge: the path of null-island; the latitude, the first of the two (pinned by
        # semantic.LocationFix.null-island.latitude_e7).
        r.add("null-island", path + ".latitude_e7")
    # Accuracies: "Must be greater than 0" when present. Edge: course_accuracy_cdeg's range is 1 to 18000;
    # a present 0 is accuracy-not-positive only, not also value-out-of-range (pinned by
    # semantic.LocationFix.accuracy-not-positive.course_accuracy_cdeg).
    if fix.get("horizontal_accuracy_cm") == 0:
        r.add("accuracy-not-positive", path + ".horizontal_accuracy_cm")
    r.range(fix.get("altitude_cm"), -1000000, 10000000, path + ".altitude_cm")
    if fix.get("vertical_accuracy_cm") == 0:
        r.add("accuracy-not-positive", path + ".vertical_accuracy_cm")
    r.range(fix.get("speed_cm_s"), 0, 50000, path + ".speed_cm_s")
    if fix.get("speed_accuracy_cm_s") == 0:
        r.add("accuracy-not-positive", path + ".speed_accuracy_cm_s")
    r.range(fix.get("course_cdeg"), 0, 35999, path + ".course_cdeg")
    course_acc = fix.get("course_accuracy_cdeg")
    if course_acc == 0:
        r.add("accuracy-not-positive", path + ".course_accuracy_cdeg")
    else:
        r.range(course_acc, 1, 18000, path + ".course_accuracy_cdeg")
    r.range(fix.get("battery_percent"), 0, 100, path + ".battery_percent")
    r.range(fix.get("motion_confidence_pct"), 0, 100, path + ".motion_confidence_pct")
    r.range(fix.get("floor"), -200, 300, path + ".floor")
    r.range(fix.get("ellipsoidal_height_cm"), -1000000, 10000000, path + ".ellipsoidal_height_cm")
    pressure = fix.get("pressure_hpa")
    if pressure is not None and not (math.isfinite(pressure) and 100 <= pressure <= 1200):
        r.add("value-out-of-range", path + ".pressure_hpa")
    # Enums are open (§open-enums): reason, source, battery_state, motion_activity are never judged.


# ---------------------------------------------------------------------------------------------------------------
# CompactFixes: structure of every column, then the reconstructed fixes.

MASK64 = (1 << 64) - 1


def wrap64(v):
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def column_value(kind, v):
    """The field value a reconstructed 64-bit two's complement v stands for, or None when it does not fit."""
    if kind == "u64":
        return v & MASK64
    if kind == "i64":
        return v
    if kind in ("i32", "enum"):
        return v if -(1 << 31) <= v < (1 << 31) else None
    if kind == "u32":
        return v if 0 <= v < (1 << 32) else None
    if kind == "bool":
        return bool(v) if v in (0, 1) else None
    if kind == "f32":
        return struct.unpack("<f", struct.pack("<I", v))[0] if 0 <= v < (1 << 32) else None
    raise AssertionError(kind)


def column_steps(col):
    """The number of values a column expands to, or None when its run lengths are broken (another length than
    deltas, or a 0): "compact-run-lengths-mismatch"."""
    deltas, runs = list(col.deltas), list(col.run_lengths)
    if not runs:
        return len(deltas)
    if len(runs) != len(deltas) or 0 in runs:
        return None
    return sum(runs)


def expand_column(deltas, runs):
    values, v = [], 0
    if runs:
        for d, n in zip(deltas, runs):
            for _ in range(n):
                v = wrap64(v + d)
                values.append(v)
    else:
        for d in deltas:
            v = wrap64(v + d)
            values.append(v)
    return values


def check_compact(r, cf, path, row_path):
    """Validates a CompactFixes. Column rules report at `path.<field>`, value rules at `row_path[i].<field>`.
    Returns the reconstructed fixes (dicts) when the message is sound, else None.

    proto/README.md ("A broken CompactFixes"): a broken CompactFixes is reported once, for its first defect in
    this order: count above the limit; the columns in field-number order, each for run lengths, length, then
    presence; the rebuilt values, column by column. Its fixes are then not rebuilt, so none is checked or counted
    by the batch's rules."""
    count = cf.count
    if count > MAX_COMPACT_FIXES:
        r.add("compact-too-many-fixes", path)  # "the fixes are not checked"
        return None
    columns = {}
    for number, name, kind, presence in FIX_FIELDS:
        if not cf.HasField(name):
            continue
        col = getattr(cf, name)
        # Inside a CompactFixes every column rule points at the column ("the other compact rules at the column").
        cpath = path + "." + name
        m = column_steps(col)
        if m is None:
            r.add("compact-run-lengths-mismatch", cpath)
            return None
        if m > count:
            r.add("compact-column-too-long", cpath)
            return None
        bitmap = bytes(col.presence)
        if bitmap:
            ok = presence and len(bitmap) == (count + 7) // 8
            if ok:
                has = [bool(bitmap[i // 8] >> (i % 8) & 1) for i in range(len(bitmap) * 8)]
                ok = not any(has[count:]) and sum(has[:count]) == m
            if not ok:
                r.add("compact-presence-mismatch", cpath)
                return None
            where = [i for i in range(count) if has[i]]
        else:
            # "a partial column without one": a column of 0 values stands for no value at all.
            if m not in (0, count):
                r.add("compact-presence-mismatch", cpath)
                return None
            where = list(range(m))
        columns[name] = (kind, where, col)
    fixes = [dict() for _ in range(count)]
    for number, name, kind, presence in FIX_FIELDS:
        if not presence:
            for f in fixes:
                f[name] = False if kind == "bool" else (0.0 if kind == "f32" else 0)
    for number, name, kind, presence in FIX_FIELDS:
        if name not in columns:
            continue
        kind, where, col = columns[name]
        values = expand_column(list(col.deltas), list(col.run_lengths))
        for i, v in zip(where, values):
            value = column_value(kind, v)
            if value is None:
                # The first value that does not fit, column by column, is the defect reported; the fixes are
                # then not rebuilt.
                r.add("compact-value-out-of-range", f"{row_path}[{i}].{name}")
                return None
            fixes[i][name] = value
    return fixes


def validate_fix_column(r, col, path):
    # proto/README.md ("Messages on their own"): a FixColumn has neither count nor field, so only
    # compact-run-lengths-mismatch applies, at run_lengths for another length than deltas' and at run_lengths[j]
    # for each 0 (both, when both are wrong).
    runs = list(col.run_lengths)
    if not runs:
        return
    if len(runs) != len(col.deltas):
        r.add("compact-run-lengths-mismatch", path + ".run_lengths")
    for j, n in enumerate(runs):
        if n == 0:
            r.add("compact-run-lengths-mismatch", f"{path}.run_lengths[{j}]")


def validate_compact_fixes(r, cf, path):
    # proto/README.md ("Messages on their own"): a CompactFixes is judged as a backlog, its fixes at
    # `CompactFixes[i].<field>`, with sequence-not-increasing, without the batch's rules (send time, clocks,
    # floors, live fix).
    fixes = check_compact(r, cf, path, path)
    if fixes is not None:
        prev = None
        for i, fix in enumerate(fixes):
            check_fix(r, fix, f"{path}[{i}]", require_sequence=True)
            if prev is not None and fix.get("sequence", 0) <= prev:
                r.add("sequence-not-increasing", f"{path}[{i}].sequence")
            prev = fix.get("sequence", 0)


# ---------------------------------------------------------------------------------------------------------------
# LocationBatch and what it carries.

def validate_location_fix(r, msg, path):
    check_fix(r, fix_dict(msg), path, require_sequence=True)


def validate_location_batch(r, b, path):
    r.string(b.device_id, 128, path + ".device_id", required=True)
    if b.batch_id == 0:
        r.add("required-field-missing", path + ".batch_id")
    r.time(b.sent_at_ms, path + ".sent_at_ms", required=True)

    # The chain of fixes the list rules walk: (path, fix dict, backlog list name).
    backlog_rows = [(f"{path}.fixes[{i}]", fix_dict(f)) for i, f in enumerate(b.fixes)]
    compact = None
    if b.HasField("compact_fixes") and len(b.fixes) > 0:
        r.add("rows-and-compact", path + ".compact_fixes")

    def list_rules(items, require_sequence=True):
        """Each backlog fix's own rules, then sequence-not-increasing against the previous one in its list."""
        prev = None
        for fpath, fix in items:
            check_fix(r, fix, fpath, require_sequence)
            if prev is not None and fix.get("sequence", 0) <= prev.get("sequence", 0):
                r.add("sequence-not-increasing", fpath + ".sequence")
            prev = fix

    list_rules(backlog_rows)
    live = (path + ".live_fix", fix_dict(b.live_fix)) if b.HasField("live_fix") else None
    if b.HasField("compact_fixes"):
        fixes = check_compact(r, b.compact_fixes, path + ".compact_fixes", path + ".compact_fixes")
        if fixes is not None:
            compact = [(f"{path}.compact_fixes[{i}]", f) for i, f in enumerate(fixes)]
            # Edge: with both forms (rows-and-compact), each backlog list is ordered on its own: the compact
            # fixes do not continue the rows' sequence (pinned by semantic.LocationBatch.rows-and-compact.compact_fixes,
            # whose compact fix has sequence 0 after rows 1 and 2 and expects no sequence-not-increasing).
            list_rules(compact)
    backlog = backlog_rows + (compact or [])
    if live is not None:
        lpath, lfix = live
        check_fix(r, lfix, lpath, require_sequence=True)
        seq = lfix.get("sequence", 0)
        if any(seq <= f.get("sequence", 0) for _, f in backlog):
            r.add("live-fix-not-latest", lpath + ".sequence")

    # time-after-send and clock-jump, over backlog rows, compact fixes, then the live fix.
    chain = backlog + ([live] if live is not None else [])
    # Edge: without sent_at_ms (0, required-field-missing) time-after-send is not judged (pinned by
    # semantic.LocationBatch.required-field-missing.sent_at_ms, whose fixes would all be "after" time 0).
    if b.sent_at_ms != 0:
        for fpath, fix in chain:
            if fix.get("time_ms", 0) > b.sent_at_ms + TIME_AFTER_SEND_MS:
                r.add("time-after-send", fpath + ".time_ms")
    # Edge ("Which fixes"): each fix is compared with the one right before it in that chain, when both have the
    # same boot (own boot_id, else the batch's, not 0), elapsed_realtime_ms and time_ms; a fix is never compared
    # across a fix of another boot or without those fields.
    for (_, a), (bpath, c) in zip(chain, chain[1:]):
        boot_a = a.get("boot_id", 0) or b.boot_id
        boot_c = c.get("boot_id", 0) or b.boot_id
        if boot_a == 0 or boot_a != boot_c:
            continue
        if "elapsed_realtime_ms" not in a or "elapsed_realtime_ms" not in c:
            continue
        if a.get("time_ms", 0) == 0 or c.get("time_ms", 0) == 0:
            continue
        dt = c["time_ms"] - a["time_ms"]
        de = c["elapsed_realtime_ms"] - a["elapsed_realtime_ms"]
        if abs(dt - de) > CLOCK_JUMP_MS:
            r.add("clock-jump", bpath + ".time_ms", WARNING)

    prev = None
    for i, e in enumerate(b.fence_events):
        epath = f"{path}.fence_events[{i}]"
        validate_fence_event(r, e, epath)
        if prev is not None and e.event_sequence <= prev:
            r.add("event-sequence-not-increasing", epath + ".event_sequence")
        prev = e.event_sequence
    if b.HasField("device_status"):
        validate_device_status(r, b.device_status, path + ".device_status")
    prev = None
    for i, e in enumerate(b.lifecycle_events):
        epath = f"{path}.lifecycle_events[{i}]"
        validate_lifecycle_event(r, e, epath)
        # Edge: "oldest first" allows equal times; an event without a time (0, already
        # required-field-missing) is not compared.
        if e.time_ms != 0:
            if prev is not None and e.time_ms < prev:
                r.add("lifecycle-events-not-ordered", epath + ".time_ms")
            prev = e.time_ms
    if b.HasField("armed_regions"):
        validate_armed_regions(r, b.armed_regions, path + ".armed_regions")
    # proto/README.md ("What a 0 counts as"): a validator judges every message by this revision, so install_id is
    # required whatever protocol_revision says.
    if b.install_id == 0:
        r.add("required-field-missing", path + ".install_id")
    # Edge: a fix or event without a sequence (0, already required-field-missing) does not count for the
    # floors (pinned by semantic.LocationBatch.required-field-missing.fixes-1-sequence, floor 1 and a fix 0).
    if b.fix_sequence_floor != 0:
        seqs = [f.get("sequence", 0) for _, f in chain]
        if any(0 < s < b.fix_sequence_floor for s in seqs):
            r.add("sequence-floor-above-batch", path + ".fix_sequence_floor")
    if b.event_sequence_floor != 0:
        if any(0 < e.event_sequence < b.event_sequence_floor for e in b.fence_events):
            r.add("sequence-floor-above-batch", path + ".event_sequence_floor")


def validate_fence_event(r, e, path):
    if e.event_sequence == 0:
        r.add("required-field-missing", path + ".event_sequence")
    # Edge: region_id is "as Region.id", so its form is judged too (region-id-malformed).
    r.region_id(e.region_id, path + ".region_id", required=True)
    if e.kind == 0:
        r.add("required-field-missing", path + ".kind")
    r.time(e.os_event_time_ms, path + ".os_event_time_ms", required=False)
    r.time(e.detected_at_ms, path + ".detected_at_ms", required=True)
    if e.os_event_time_ms != 0 and e.detected_at_ms != 0 and e.detected_at_ms < e.os_event_time_ms:
        r.add("detected-before-event", path + ".detected_at_ms")
    if e.HasField("trigger_fix"):
        check_fix(r, fix_dict(e.trigger_fix), path + ".trigger_fix", require_sequence=False)
    if e.source == 0:
        r.add("required-field-missing", path + ".source")
    # Edge: dwell_ms on any kind other than DWELL (UNSPECIFIED and kinds of later revisions included) is
    # dwell-without-dwell-kind.
    if e.kind == FENCE_EVENT_KIND_DWELL:
        if not e.HasField("dwell_ms"):
            r.add("dwell-ms-missing", path + ".dwell_ms")
    elif e.HasField("dwell_ms"):
        r.add("dwell-without-dwell-kind", path + ".dwell_ms")


def validate_device_status(r, s, path):
    r.time(s.observed_at_ms, path + ".observed_at_ms", required=True)
    r.string(s.os_version, 64, path + ".os_version")
    r.string(s.app_version, 64, path + ".app_version")


def validate_lifecycle_event(r, e, path):
    if e.kind == 0:
        r.add("required-field-missing", path + ".kind")
    r.time(e.time_ms, path + ".time_ms", required=True)
    if e.relaunch_reason != 0 and e.kind != LIFECYCLE_RELAUNCHED_BY_SYSTEM:
        r.add("relaunch-reason-without-relaunch", path + ".relaunch_reason")


def validate_armed_regions(r, a, path):
    # The length rule first, then the ids, as semantic.LocationBatch.region-armed-and-failed.* lists them (the
    # runner compares reports without regard to order, so this is only for a reader comparing by eye).
    # Edge: an empty id in either list is required-field-missing; the form of every id is judged.
    if len(a.failure_reasons) != 0 and len(a.failure_reasons) != len(a.failed_region_ids):
        r.add("failure-reasons-length-mismatch", path + ".failure_reasons")
    seen = set()
    for i, rid in enumerate(a.region_ids):
        ipath = f"{path}.region_ids[{i}]"
        r.region_id(rid, ipath, required=True)
        if rid in seen:
            r.add("duplicate-region-id", ipath)
        seen.add(rid)
    armed, seen = seen, set()
    for i, rid in enumerate(a.failed_region_ids):
        ipath = f"{path}.failed_region_ids[{i}]"
        r.region_id(rid, ipath, required=True)
        if rid in seen:
            r.add("duplicate-region-id", ipath)
        seen.add(rid)
        if rid in armed:
            r.add("region-armed-and-failed", ipath)


# ---------------------------------------------------------------------------------------------------------------
# Regions.

def circle_set(c):
    """A circle whose centre and radius are set, so distances can be judged. proto/README.md ("The rest"):
    distances are judged whenever the centres and radii are set, even out of range."""
    return c.HasField("center_latitude_e7") and c.HasField("center_longitude_e7") and c.radius_m != 0


def validate_circle(r, c, path):
    for name, ok in (("center_latitude_e7", lat_ok), ("center_longitude_e7", lon_ok)):
        if not c.HasField(name):
            r.add("required-field-missing", f"{path}.{name}")
        elif not ok(getattr(c, name)):
            r.add("value-out-of-range", f"{path}.{name}")
    # Edge: the radius (range 1 to 1000000) has no "Required" in its comment; 0 is read as absent and is
    # required-field-missing (pinned by semantic.Region.required-field-missing.circle-radius_m).
    if c.radius_m == 0:
        r.add("required-field-missing", path + ".radius_m")
    else:
        r.range(c.radius_m, 1, 1000000, path + ".radius_m")


def validate_polygon(r, p, path):
    lats, lons = list(p.latitudes_e7), list(p.longitudes_e7)
    for i, v in enumerate(lats):
        if not lat_ok(v):
            r.add("value-out-of-range", f"{path}.latitudes_e7[{i}]")
    for i, v in enumerate(lons):
        if not lon_ok(v):
            r.add("value-out-of-range", f"{path}.longitudes_e7[{i}]")
    # Edge: with lists of different lengths the vertex count is that of latitudes_e7, and the mismatch is
    # reported at longitudes_e7 (pinned by semantic.Region.polygon-length-mismatch.polygon-longitudes_e7: 3
    # latitudes, 2 longitudes, no polygon-too-few-vertices).
    if len(lats) != len(lons):
        r.add("polygon-length-mismatch", path + ".longitudes_e7")
    if len(lats) < 3:
        r.add("polygon-too-few-vertices", path + ".latitudes_e7")
    elif len(lats) > 1000:
        r.add("polygon-too-many-vertices", path + ".latitudes_e7")


def validate_region(r, g, path):
    r.region_id(g.id, path + ".id", required=True)
    if g.version == 0:
        r.add("required-field-missing", path + ".version")
    if not g.HasField("circle"):
        r.add("required-field-missing", path + ".circle")
    else:
        validate_circle(r, g.circle, path + ".circle")
    if g.HasField("polygon"):
        validate_polygon(r, g.polygon, path + ".polygon")
        # A vertex is judged against a circle whose centre and radius are set, even out of range (as the vertex
        # itself); vertices pair by index up to the shorter list.
        if g.HasField("circle") and circle_set(g.circle):
            c = g.circle
            for i, (lat, lon) in enumerate(zip(g.polygon.latitudes_e7, g.polygon.longitudes_e7)):
                d = distance_m(c.center_latitude_e7, c.center_longitude_e7, lat, lon)
                if d > c.radius_m + SLACK_M:
                    r.add("polygon-outside-circle", f"{path}.polygon.latitudes_e7[{i}]")
    if g.level == 0:
        r.add("required-field-missing", path + ".level")
    if g.parent_id != "":
        r.region_id(g.parent_id, path + ".parent_id")
        if g.parent_id == g.id:
            r.add("parent-is-self", path + ".parent_id")
    if not (g.notify_on_entry or g.notify_on_exit or g.notify_on_dwell):
        # Edge: the path of no-transition is the first flag (pinned by
        # semantic.Region.no-transition.notify_on_entry).
        r.add("no-transition", path + ".notify_on_entry")
    if g.notify_on_dwell:
        if g.loitering_delay_ms == 0:
            r.add("required-field-missing", path + ".loitering_delay_ms")
        else:
            r.range(g.loitering_delay_ms, 1000, 86400000, path + ".loitering_delay_ms")
    elif g.loitering_delay_ms != 0:
        # Edge: a delay without dwell is only loitering-delay-without-dwell, whatever its value.
        r.add("loitering-delay-without-dwell", path + ".loitering_delay_ms")
    r.time(g.expires_at_ms, path + ".expires_at_ms", required=False)
    r.string(g.name, 128, path + ".name")


def validate_refresh_policy(r, p, path):
    if p.HasField("refresh_distance_m"):
        r.range(p.refresh_distance_m, 1, 10000000, path + ".refresh_distance_m")
        # proto/README.md ("Paths"): refresh-anchor-missing once, at anchor_latitude_e7 when that is absent, else
        # at anchor_longitude_e7.
        if not p.HasField("anchor_latitude_e7"):
            r.add("refresh-anchor-missing", path + ".anchor_latitude_e7")
        elif not p.HasField("anchor_longitude_e7"):
            r.add("refresh-anchor-missing", path + ".anchor_longitude_e7")
    if p.HasField("anchor_latitude_e7") and not lat_ok(p.anchor_latitude_e7):
        r.add("value-out-of-range", path + ".anchor_latitude_e7")
    if p.HasField("anchor_longitude_e7") and not lon_ok(p.anchor_longitude_e7):
        r.add("value-out-of-range", path + ".anchor_longitude_e7")


def validate_region_assignment(r, a, path):
    if a.assignment_version == 0:
        r.add("required-field-missing", path + ".assignment_version")
    r.time(a.issued_at_ms, path + ".issued_at_ms", required=True)
    r.time(a.expires_at_ms, path + ".expires_at_ms", required=False)
    # Edge: expires-before-issued needs both times set.
    if a.expires_at_ms != 0 and a.issued_at_ms != 0 and a.expires_at_ms <= a.issued_at_ms:
        r.add("expires-before-issued", path + ".expires_at_ms")
    if a.mode == 0:
        r.add("required-field-missing", path + ".mode")
    if a.mode == MODE_FULL and a.base_version != 0:
        r.add("base-version-in-full", path + ".base_version")
    if a.mode == MODE_DELTA:
        # Edge: a DELTA's base_version is required (region_assignment.proto, "What a 0 counts as"); without an
        # assignment_version there is no base-version-not-older.
        if a.base_version == 0:
            r.add("required-field-missing", path + ".base_version")
        elif a.assignment_version != 0 and a.base_version >= a.assignment_version:
            r.add("base-version-not-older", path + ".base_version")
    # proto/README.md ("Missing numbers ..."): ids are compared as written, so two empty ids are duplicates; a
    # region without parent_id has no parent, and a parent is the last region of the assignment with that id.
    last = {}  # id -> index of its last occurrence in regions
    for i, g in enumerate(a.regions):
        rpath = f"{path}.regions[{i}]"
        validate_region(r, g, rpath)
        if g.id in last:
            r.add("duplicate-region-id", rpath + ".id")
        last[g.id] = i
    # §parent-coarser and §child-within-parent, for parents in the same assignment.
    for i, g in enumerate(a.regions):
        if g.parent_id == "" or g.parent_id == g.id or g.parent_id not in last:
            continue
        parent = a.regions[last[g.parent_id]]
        rpath = f"{path}.regions[{i}]"
        # parent-level-not-coarser needs both levels set and known to this revision.
        if g.level in KNOWN_REGION_LEVELS and parent.level in KNOWN_REGION_LEVELS and parent.level >= g.level:
            r.add("parent-level-not-coarser", rpath + ".parent_id")
        if g.HasField("circle") and parent.HasField("circle") and circle_set(g.circle) and circle_set(parent.circle):
            c, pc = g.circle, parent.circle
            d = distance_m(pc.center_latitude_e7, pc.center_longitude_e7, c.center_latitude_e7, c.center_longitude_e7)
            if d + c.radius_m > pc.radius_m + SLACK_M:
                r.add("child-outside-parent", rpath + ".circle")
    upserted = set(last)
    seen = set()
    for i, rid in enumerate(a.removed_region_ids):
        ipath = f"{path}.removed_region_ids[{i}]"
        r.region_id(rid, ipath, required=True)
        if rid in seen:
            r.add("duplicate-region-id", ipath)
        seen.add(rid)
        if a.mode == MODE_DELTA and rid in upserted:
            r.add("region-removed-and-upserted", ipath)
    if a.mode == MODE_FULL and len(a.removed_region_ids) > 0:
        r.add("removals-in-full", path + ".removed_region_ids")
    if a.slot_budget == 0:
        r.add("required-field-missing", path + ".slot_budget")
    elif a.mode in (MODE_FULL, MODE_DELTA) and len(a.regions) > a.slot_budget:
        # Edge: with no budget (0, required-field-missing) the count is not judged (pinned by
        # semantic.RegionAssignment.required-field-missing.slot_budget, 2 regions).
        r.add("region-count-exceeds-budget", path + ".regions")
    if a.HasField("refresh"):
        validate_refresh_policy(r, a.refresh, path + ".refresh")


def validate_region_request(r, q, path):
    r.string(q.device_id, 128, path + ".device_id", required=True)
    if q.reason == 0:
        r.add("required-field-missing", path + ".reason")
    if q.HasField("current_fix"):
        check_fix(r, fix_dict(q.current_fix), path + ".current_fix", require_sequence=False)
    if q.platform_slot_limit == 0:
        r.add("required-field-missing", path + ".platform_slot_limit")
    elif q.reserved_app_slots >= q.platform_slot_limit:
        # Edge: without a slot limit (0, required-field-missing) the reserved slots are not judged.
        r.add("reserved-slots-exceed-limit", path + ".reserved_app_slots")
    if q.HasField("armed"):
        validate_armed_regions(r, q.armed, path + ".armed")
    if q.reason == REQUEST_REASON_REFINE_ON_ENTRY:
        r.region_id(q.refine_region_id, path + ".refine_region_id", required=True)
    elif q.refine_region_id != "":
        # proto/README.md ("The rest"): the id form of refine_region_id is judged only with REFINE_ON_ENTRY;
        # otherwise it is only refine-region-without-refine-reason.
        r.add("refine-region-without-refine-reason", path + ".refine_region_id")
    r.time(q.sent_at_ms, path + ".sent_at_ms", required=True)


# ---------------------------------------------------------------------------------------------------------------
# Server to device.

POLICY_RANGES = [
    ("speed_threshold_cm_s", 0, 50000), ("time_interval_ms", 1000, 86400000), ("distance_interval_m", 0, 100000),
    ("max_horizontal_accuracy_cm", 1, 10000000), ("upload_interval_ms", 1000, 86400000),
    ("max_batch_size", 1, 10000), ("max_batch_age_ms", 1000, 604800000), ("stationary_radius_m", 1, 1000),
    ("stop_timeout_ms", 0, 3600000), ("heartbeat_interval_ms", 0, 86400000),
    ("max_batch_bytes", 16384, 67108864), ("max_batches_in_flight", 1, 16),
    ("fix_window_ms", 0, 3600000), ("duty_cycle_on_ms", 0, 3600000), ("duty_cycle_off_ms", 0, 86400000),
    ("fence_hysteresis_m", 0, 10000), ("fence_confirm_ms", 0, 600000), ("fence_max_accuracy_cm", 1, 10000000),
    ("retention_days", 1, 36500),
]


def validate_tracking_policy(r, p, path):
    for name, lo, hi in POLICY_RANGES:
        r.range(opt(p, name), lo, hi, f"{path}.{name}")


def validate_ack_range(r, a, path):
    # Edge: a first_sequence of 0 is required-field-missing, not range-inverted (the ack-ignore table now says a
    # validator reports it so, while a device ignoring the ack logs range-inverted).
    if a.first_sequence == 0:
        r.add("required-field-missing", path + ".first_sequence")
    if a.last_sequence < a.first_sequence:
        r.add("range-inverted", path + ".last_sequence")
    if a.result == 0:
        r.add("required-field-missing", path + ".result")
    if a.result == RESULT_REJECTED:
        if a.reject_reason == 0:
            r.add("reject-reason-missing", path + ".reject_reason")
        elif a.reject_reason in RETIRED_REJECT_REASONS:
            r.add("reject-reason-retired", path + ".reject_reason")
    elif a.result in KNOWN_RESULTS and a.reject_reason != 0:
        # Edge: "another known result" includes UNSPECIFIED (0), a value this revision defines.
        r.add("reject-reason-without-rejection", path + ".reject_reason")
    r.string(a.detail, 256, path + ".detail")


def check_range_list(r, ranges, path):
    prev = None
    for i, a in enumerate(ranges):
        rpath = f"{path}[{i}]"
        validate_ack_range(r, a, rpath)
        # Edge: each range is compared with the one before it only (not with the highest last so far):
        # first_sequence below the previous first is ranges-not-sorted; otherwise at or below the previous last,
        # ranges-overlap. Both at first_sequence (the path is pinned by semantic.BatchAck.ranges-overlap.* and
        # ranges-not-sorted.*; the comparison with the predecessor alone by none).
        if prev is not None:
            if a.first_sequence < prev.first_sequence:
                r.add("ranges-not-sorted", rpath + ".first_sequence")
            elif a.first_sequence <= prev.last_sequence:
                r.add("ranges-overlap", rpath + ".first_sequence")
        prev = a


def validate_device_command(r, c, path):
    if c.command_id == 0:
        r.add("required-field-missing", path + ".command_id")
    if c.kind == 0:
        r.add("required-field-missing", path + ".kind")
    r.time(c.expires_at_ms, path + ".expires_at_ms", required=False)


def validate_batch_ack(r, k, path):
    if k.batch_id == 0:
        r.add("required-field-missing", path + ".batch_id")
    check_range_list(r, k.fix_results, path + ".fix_results")
    check_range_list(r, k.fence_event_results, path + ".fence_event_results")
    # Edge: server_time_ms is a time and, when set, is held to the time range.
    r.time(k.server_time_ms, path + ".server_time_ms", required=False)
    if k.HasField("tracking_policy"):
        validate_tracking_policy(r, k.tracking_policy, path + ".tracking_policy")
    if k.outcome == OUTCOME_UNSPECIFIED:
        r.add("required-field-missing", path + ".outcome")
    if k.outcome in (OUTCOME_UNSPECIFIED, OUTCOME_HOLD, OUTCOME_TOO_LARGE):
        if len(k.fix_results) > 0:
            r.add("ranges-without-processing", path + ".fix_results")
        if len(k.fence_event_results) > 0:
            r.add("ranges-without-processing", path + ".fence_event_results")
    if k.outcome == OUTCOME_HOLD:
        if k.hold_reason == 0:
            r.add("hold-reason-missing", path + ".hold_reason")
    elif k.outcome in KNOWN_OUTCOMES and k.hold_reason != 0:
        # Edge: "another known outcome" includes UNSPECIFIED (0), a value this revision defines.
        r.add("hold-reason-without-hold", path + ".hold_reason")
    # Edge: max_batch_bytes is held to its range whatever the outcome; its presence with an outcome other
    # than TOO_LARGE is not a rule of the table.
    r.range(opt(k, "max_batch_bytes"), 16384, 67108864, path + ".max_batch_bytes")
    seen = set()
    for i, c in enumerate(k.commands):
        cpath = f"{path}.commands[{i}]"
        validate_device_command(r, c, cpath)
        # Edge: commands without an id (0, required-field-missing) are not duplicates of each other.
        if c.command_id != 0:
            if c.command_id in seen:
                r.add("duplicate-command-id", cpath + ".command_id")
            seen.add(c.command_id)


# ---------------------------------------------------------------------------------------------------------------

VALIDATORS = {
    "LocationFix": validate_location_fix,
    "LocationBatch": validate_location_batch,
    "CompactFixes": validate_compact_fixes,
    "FixColumn": validate_fix_column,
    "FenceEvent": validate_fence_event,
    "DeviceStatus": validate_device_status,
    "LifecycleEvent": validate_lifecycle_event,
    "ArmedRegions": validate_armed_regions,
    "Region": validate_region,
    "Circle": validate_circle,
    "Polygon": validate_polygon,
    "RegionAssignment": validate_region_assignment,
    "RefreshPolicy": validate_refresh_policy,
    "RegionRequest": validate_region_request,
    "TrackingPolicy": validate_tracking_policy,
    "BatchAck": validate_batch_ack,
    "AckRange": validate_ack_range,
    "DeviceCommand": validate_device_command,
}


def validate(message, type_name):
    """Every violation of `message` (a locationwire.v1 message named `type_name`) as (code, path, severity).
    The path root is the message's short name. Raises KeyError for a type without rules."""
    short = type_name.rsplit(".", 1)[-1]
    r = Report()
    try:
        VALIDATORS[short](r, message, short)
    except ReportFull:
        # §report-limit: at most 1,000 violations, then one entry saying that there are more; the walk stops at
        # the first violation past the limit. Which 1,000 are described is the validator's choice (§report-limit's
        # paragraph and "The rest"); here it follows this module's walking order.
        return r.items + [("violations-omitted", short, ERROR)]
    return r.items
