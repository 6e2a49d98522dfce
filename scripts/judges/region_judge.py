"""The reference device's region decisions judged by the Python reading of the rules, for `device_runs.py regions`.

Independent of the Swift code: the held set follows proto/README.md ("Assignment lifecycle", "Versions and
deltas"), arming is conformance/testees/python-behavior/arming.py (`§arm-order`), the fence replay its fences.py,
and which region requests are due follows "Assignment lifecycle" item 6 and `§plan-refine`. The judge reads only
what the device logged (`locwire device run --region-log`: each request, the server's answer and what the device
armed), the trace it was fed, and the fence events the server stored; from those it rebuilds what the device should
have held, armed, reported and asked for, and names each place where the device did otherwise.

The python-behavior modules import the *_pb2 modules protoc generates from proto/: they must be on sys.path
before this module is imported (device_runs.py generates them; so does conformance/testees/python-behavior/build.sh).
"""
import os
import sys
from collections import Counter

READING = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "conformance", "testees", "python-behavior")
if READING not in sys.path:
    sys.path.insert(0, READING)

from google.protobuf import json_format  # noqa: E402
from pb import t, common, device, fence as fencepb, fix as fixpb, assignment as apb, policy as policypb  # noqa: E402
import arming  # noqa: E402
import fences  # noqa: E402
import geometry  # noqa: E402
from locationwire.v1 import location_batch_pb2, region_request_pb2  # noqa: E402

Q = region_request_pb2
INITIAL = Q.REGION_REQUEST_REASON_INITIAL
MOVED = Q.REGION_REQUEST_REASON_MOVED_BEYOND_RADIUS
EXPIRED = Q.REGION_REQUEST_REASON_EXPIRED
REFINE = Q.REGION_REQUEST_REASON_REFINE_ON_ENTRY
DELTA_REJECTED = Q.REGION_REQUEST_REASON_DELTA_REJECTED
FULL, DELTA = apb.ASSIGNMENT_MODE_FULL_REPLACEMENT, apb.ASSIGNMENT_MODE_DELTA
K = fencepb


def reason_name(reason):
    return Q.RegionRequestReason.Name(reason).replace("REGION_REQUEST_REASON_", "") \
        if reason in Q.RegionRequestReason.values() else str(reason)


def kind_name(kind):
    return K.FenceEventKind.Name(kind).replace("FENCE_EVENT_KIND_", "")


def read_trace(path):
    """The fixes of a LocationBatch in proto3 JSON, in delivery order (backlog rows, then the live fix), each fix
    without a boot id taking the batch's (`§item-boot`), as `locwire device run` reads the same file."""
    with open(path) as f:
        batch = json_format.Parse(f.read(), location_batch_pb2.LocationBatch())
    if batch.HasField("compact_fixes"):
        raise ValueError(f"{path}: compact fixes are not read here; write the trace as rows")
    fixes = list(batch.fixes) + ([batch.live_fix] if batch.HasField("live_fix") else [])
    for f in fixes:
        if f.boot_id == 0:
            f.boot_id = batch.boot_id
    return fixes


def read_policy(path):
    """The device's TrackingPolicy (proto3 JSON); the default policy when there is none."""
    if not path:
        return policypb.TrackingPolicy()
    with open(path) as f:
        return json_format.Parse(f.read(), policypb.TrackingPolicy())


def same_datum(a, b):
    # §datum-default: COORDINATE_DATUM_UNSPECIFIED is read as WGS84.
    def norm(d):
        return common.COORDINATE_DATUM_WGS84 if d == common.COORDINATE_DATUM_UNSPECIFIED else d
    return norm(a) == norm(b)


class Held:
    """The set a device holds, from proto/README.md "Assignment lifecycle" (`§delta-base`) and "Versions and
    deltas" (`§assignment-stale`, `§delta-header`, `§delta-budget`). Applying is all or nothing."""

    def __init__(self):
        self.version = 0
        self.regions = {}            # id -> Region, in the order they came
        self.expires_at_ms = 0
        self.slot_budget = 0
        self.refresh = None
        self.datum = common.COORDINATE_DATUM_UNSPECIFIED
        self.monitoring = True

    def apply(self, a):
        """None when applied; otherwise why not: "stale" (ignored), or a reason that asks for a full assignment
        ("base", "datum", "budget": reason DELTA_REJECTED), or "mode" (a mode this revision does not know)."""
        if a.assignment_version <= self.version:
            return "stale"           # §assignment-stale: whatever its mode
        if a.mode == FULL:
            regions = {}
            # FULL_REPLACEMENT is the whole set; monitoring_enabled absent means on (region_assignment.proto).
            monitoring = a.monitoring_enabled if a.HasField("monitoring_enabled") else True
        elif a.mode == DELTA:
            # §delta-base: a delta applies to base_version only.
            if self.version == 0 or a.base_version != self.version:
                return "base"
            if not same_datum(a.datum, self.datum):
                return "datum"       # §delta-header
            regions = dict(self.regions)
            for rid in a.removed_region_ids:
                regions.pop(rid, None)
            # §delta-header: only monitoring_enabled is inherited when absent.
            monitoring = a.monitoring_enabled if a.HasField("monitoring_enabled") else self.monitoring
        else:
            return "mode"
        for r in a.regions:
            regions[r.id] = r        # upserts by id
        if a.mode == DELTA and len(regions) > a.slot_budget:
            return "budget"          # §delta-budget
        self.version = a.assignment_version
        self.regions = regions
        # §delta-header: a delta's expires_at_ms, slot_budget and refresh replace the base's.
        self.expires_at_ms = a.expires_at_ms
        self.slot_budget = a.slot_budget
        self.refresh = a.refresh if a.HasField("refresh") else None
        self.datum = a.datum
        self.monitoring = monitoring
        return None

    def as_assignment(self):
        """The held set as the full assignment arming reads (ArmingRequest.assignment)."""
        a = apb.RegionAssignment(assignment_version=self.version, mode=FULL, expires_at_ms=self.expires_at_ms,
                                 slot_budget=self.slot_budget, datum=self.datum,
                                 monitoring_enabled=self.monitoring)
        if self.refresh is not None:
            a.refresh.CopyFrom(self.refresh)
        a.regions.extend(self.regions.values())
        return a


def has_position(f):
    """A fix the device can plan and arm around: both coordinates and an accuracy."""
    return f.HasField("latitude_e7") and f.HasField("longitude_e7") and f.HasField("horizontal_accuracy_cm")


def without_boot(event):
    """A fence event without boot ids: a batch leaves out each item's boot id where it equals the batch's
    (`§item-boot`), so the stored event may lack the one the engine wrote."""
    e = K.FenceEvent()
    e.CopyFrom(event)
    e.boot_id = 0
    if e.HasField("trigger_fix"):
        e.trigger_fix.boot_id = 0
    return e


def short(message):
    return json_format.MessageToJson(message, indent=None, sort_keys=True)


class Judge:
    """Walks the trace fix by fix: before fix i, the requests the device logged with beforeDelivery i (each judged,
    its answer applied to the held set, armed, and the arming step given to the fence engine); then fix i through
    the fence engine, whose ENTERs into refine regions owe a request before fix i + 1."""

    def __init__(self, fixes, policy, slots):
        self.fixes = fixes
        self.slots = slots           # platform_slot_limit the device states (20 on iOS)
        self.problems = []
        self.held = Held()
        self.engine = fences.FenceEngine(t.FenceRequest(policy=policy, first_event_sequence=1))
        # The assignment expiry in force for what is armed (§fence-assignment), and the last ArmedRegions reported.
        self.armed_expires_at_ms = 0
        self.report = device.ArmedRegions()
        # Requests owed: INITIAL until the first answer; one REFINE_ON_ENTRY per ENTER into a refine region
        # (region id, fix index); DELTA_REJECTED after a delta the device could not apply. Distance and expiry are
        # not owed: they are recomputed from the held refresh at each point.
        self.initial_owed = True
        self.refine_owed = []
        self.full_owed = False
        self.last_request_ms = None
        self.missed = set()          # reasons already reported as due and not asked, until the next request
        self.requests = Counter()
        self.assignments = Counter()
        self.enter_refines = 0

    def problem(self, text):
        self.problems.append(text)

    def position_before(self, index):
        """The latest fix with a position among the first `index` delivered, or None."""
        for j in range(min(index, len(self.fixes)) - 1, -1, -1):
            if has_position(self.fixes[j]):
                return j
        return None

    def due(self, position, clock_ms):
        """The reasons due now (proto/README.md "Assignment lifecycle" items 1, 2 and 6), the device being at
        `position` (lat_e7, lon_e7) at wall-clock `clock_ms`: {reason: detail}."""
        due = {}
        if self.initial_owed:
            due[INITIAL] = "first start"
        if self.refine_owed:
            due[REFINE] = self.refine_owed
        if self.full_owed:
            due[DELTA_REJECTED] = "a delta not applied"
        refresh = self.held.refresh
        if self.held.version and refresh is not None and refresh.HasField("refresh_distance_m") \
                and refresh.HasField("anchor_latitude_e7") and refresh.HasField("anchor_longitude_e7"):
            d = geometry.distance(position, (refresh.anchor_latitude_e7, refresh.anchor_longitude_e7))
            if d > refresh.refresh_distance_m:
                due[MOVED] = f"{d:.1f} m from the anchor, refresh distance {refresh.refresh_distance_m} m"
        if self.held.version and self.held.expires_at_ms > 0 and clock_ms >= self.held.expires_at_ms:
            due[EXPIRED] = f"expired at {self.held.expires_at_ms}"
        return due

    def interval_allows(self, clock_ms):
        # "never more often than min_interval_ms" (item 6), on the device clock (the request's sent_at_ms).
        refresh = self.held.refresh
        gap = refresh.min_interval_ms if refresh is not None else 0
        return self.last_request_ms is None or gap == 0 or clock_ms - self.last_request_ms >= gap

    def request(self, number, entry, index):
        """One logged request, made before fix `index` is evaluated."""
        where = f"request {number} (before fix {index})"
        try:
            req = json_format.ParseDict(entry["request"], Q.RegionRequest())
        except json_format.ParseError as error:
            self.problem(f"{where}: the logged request does not read: {error}")
            return
        self.requests[reason_name(req.reason)] += 1
        # The position it asks with: the latest fix delivered before, or this fix (a device that owes a request
        # asks with the fix it is about to evaluate).
        candidates = {j for j in (self.position_before(index), self.position_before(index + 1)) if j is not None}
        fix = fixpb.LocationFix()
        fix.CopyFrom(req.current_fix)
        fix.sequence = 0
        if not any(fix == self.fixes[j] for j in candidates):
            self.problem(f"{where}: current_fix {short(req.current_fix)} is not the device's position "
                         f"(fix {sorted(candidates)})")
        if req.platform_slot_limit != self.slots:
            self.problem(f"{where}: platform_slot_limit {req.platform_slot_limit}, expected {self.slots}")
        if req.armed != self.report:
            self.problem(f"{where}: armed {short(req.armed)} is not what the device armed last, "
                         f"{short(self.report)}")
        # The reason must be due (the first request INITIAL; no request without a reason).
        position = (req.current_fix.latitude_e7, req.current_fix.longitude_e7)
        due = self.due(position, req.sent_at_ms)
        if req.reason not in due:
            self.problem(f"{where}: reason {reason_name(req.reason)} is not due (due: "
                         f"{', '.join(reason_name(r) for r in due) or 'nothing'})")
        elif req.reason == REFINE and req.refine_region_id not in {rid for rid, _ in self.refine_owed}:
            self.problem(f"{where}: refine_region_id {req.refine_region_id!r} was not entered "
                         f"(entered: {self.refine_owed})")
        if req.reason != REFINE and req.refine_region_id:
            self.problem(f"{where}: refine_region_id on a {reason_name(req.reason)} request")
        if not self.interval_allows(req.sent_at_ms):
            self.problem(f"{where}: within min_interval_ms of the request before")
        self.last_request_ms = req.sent_at_ms
        self.missed = set()

        logged_armed = entry.get("armed")
        if entry.get("status") != 200 or "assignment" not in entry:
            # No answer, or not a 200: nothing changes and the request is still owed.
            self.assignments["unanswered"] += 1
            if logged_armed is not None:
                self.problem(f"{where}: status {entry.get('status')} yet the device armed {logged_armed}")
            return
        a = json_format.ParseDict(entry["assignment"], apb.RegionAssignment())
        # An answered request serves every trigger owed so far: the answer is planned at the current position.
        self.initial_owed, self.refine_owed, self.full_owed = False, [], False
        refusal = self.held.apply(a)
        if refusal is not None:
            self.assignments[f"refused ({refusal})"] += 1
            self.full_owed = refusal in ("base", "datum", "budget")
            if logged_armed is not None:
                self.problem(f"{where}: version {a.assignment_version} cannot be applied ({refusal}), yet the "
                             f"device armed {logged_armed}")
            return
        self.assignments["delta" if a.mode == DELTA else "full"] += 1
        # §arm-order, with the position and the clock the request was made with.
        arming_request = t.ArmingRequest(assignment=self.held.as_assignment(),
                                         slots=req.platform_slot_limit - req.reserved_app_slots,
                                         now_ms=req.sent_at_ms)
        arming_request.position.CopyFrom(req.current_fix)
        expected = arming.run(arming_request).armed
        if logged_armed is None:
            self.problem(f"{where}: version {a.assignment_version} applies, but the device logged nothing armed")
        else:
            got = json_format.ParseDict(logged_armed, device.ArmedRegions())
            if got != expected:
                self.problem(f"{where}: armed {short(got)}\n  expected {short(expected)}")
        # The arming step for the fence engine (BEHAVIOR.md "Fences", State): disarm what is no longer armed ("the
        # device disarms what is not in it", "Assignment lifecycle" item 2), then arm what is, with the held
        # definitions. An identical re-arm keeps its state; one with another definition (a zone whose
        # refine_on_entry the planner cleared once the device was in it) becomes unknown and reports its state.
        keep = set(expected.region_ids)
        self.engine.disarm([rid for rid in self.engine.armed if rid not in keep])
        self.engine.arm([self.held.regions[rid] for rid in expected.region_ids])
        self.engine.assignment_version = self.held.version
        self.armed_expires_at_ms = self.held.expires_at_ms
        self.report = expected

    def evaluate(self, index):
        f = self.fixes[index]
        # §fence-assignment: an assignment's expires_at_ms expires every region armed from it, as if it were each
        # region's own expiry, before the first counted fix at or after it. Kept apart from the regions'
        # definitions, which it does not change (folding it in would make every new assignment re-arm every region).
        if 0 < self.armed_expires_at_ms <= f.time_ms and self.engine.counts(f):
            self.engine.disarm(list(self.engine.armed))
            # What the device reports armed from then on is what arming gives for the expired assignment: nothing
            # (§arm-off), under its version.
            self.report = arming.run(t.ArmingRequest(assignment=self.held.as_assignment(), slots=self.slots,
                                                     now_ms=f.time_ms)).armed
            self.armed_expires_at_ms = 0
        first = len(self.engine.events)
        self.engine.fix(f)
        for event in self.engine.events[first:]:
            region = self.held.regions.get(event.region_id)
            # "on entering a refine-on-entry region (if on_refine_entry)": an ENTER, not a STATE_INSIDE.
            if event.kind == K.FENCE_EVENT_KIND_ENTER and region is not None and region.refine_on_entry \
                    and self.held.refresh is not None and self.held.refresh.on_refine_entry:
                self.refine_owed.append((event.region_id, index))
                self.enter_refines += 1

    def run(self, log):
        by_index = {}
        for number, entry in enumerate(log):
            by_index.setdefault(int(entry["beforeDelivery"]), []).append((number, entry))
        for index in range(len(self.fixes) + 1):
            asked = by_index.get(index, [])
            for number, entry in asked:
                self.request(number, entry, index)
            # Nothing may still be due, unasked, when the device evaluates fix `index`: it asks with that fix's
            # position, or the latest before it (after the last fix nothing is evaluated, so nothing is owed). One
            # request before a
            # fix is all a device owes: what is due after it (no answer, an answer already expired, a delta it could
            # not apply, a trigger the answer did not clear) is due before the next fix, and judged there.
            latest = self.position_before(index + 1)
            if not asked and latest is not None and index < len(self.fixes):
                f = self.fixes[index]
                position = (self.fixes[latest].latitude_e7, self.fixes[latest].longitude_e7)
                due = self.due(position, f.time_ms)
                missed = {r: d for r, d in due.items() if r not in self.missed}
                if missed and self.interval_allows(f.time_ms):
                    # Said once, at the first fix it was missed at, until the device asks again.
                    self.missed.update(missed)
                    self.problem(f"before fix {index}: due and not asked: "
                                 + "; ".join(f"{reason_name(r)} ({d})" for r, d in missed.items()))
            if index < len(self.fixes):
                self.evaluate(index)
        late = [number for number, entry in enumerate(log) if int(entry["beforeDelivery"]) > len(self.fixes)]
        if late:
            self.problem(f"requests {late} are logged after the end of the trace")


def judge(fixes, log, stored_bodies, policy, slots):
    """Judges one run. `log`: the region log's entries; `stored_bodies`: the server's fence event rows (binary
    FenceEvent, in event_sequence order). Returns (figures, problems)."""
    j = Judge(fixes, policy, slots)
    j.run(log)
    expected = [without_boot(e) for e in j.engine.events]
    stored = [without_boot(K.FenceEvent.FromString(body)) for body in stored_bodies]
    index_of = {f.elapsed_realtime_ms: i for i, f in enumerate(fixes)}  # one boot (device_runs.py checks)
    shown = 0
    if len(expected) != len(stored):
        j.problem(f"fence events: {len(stored)} stored, {len(expected)} in the replay")
    for n, (a, b) in enumerate(zip(expected, stored)):
        if a != b and shown < 5:
            at = index_of.get(a.detected_elapsed_realtime_ms, "?")
            j.problem(f"fence event {n} (replay: fix {at}, {kind_name(a.kind)} {a.region_id}):\n"
                      f"  replay {short(a)}\n  stored {short(b)}")
            shown += 1
    for extra in stored[len(expected):][:max(0, 5 - shown)]:
        j.problem(f"stored, not in the replay: {kind_name(extra.kind)} {extra.region_id} (assignment "
                  f"{extra.assignment_version}) at fix {index_of.get(extra.detected_elapsed_realtime_ms, '?')}")
    for missing in expected[len(stored):][:max(0, 5 - shown)]:
        j.problem(f"in the replay, not stored: {kind_name(missing.kind)} {missing.region_id} (assignment "
                  f"{missing.assignment_version}) at fix {index_of.get(missing.detected_elapsed_realtime_ms, '?')}")
    # Not vacuous: the run must have refined, applied a delta, entered and left regions.
    kinds = Counter(kind_name(e.kind) for e in stored)
    for label, count in [("REFINE_ON_ENTRY requests", j.requests["REFINE_ON_ENTRY"]),
                         ("DELTA assignments applied", j.assignments["delta"]),
                         ("ENTER events", kinds["ENTER"]), ("EXIT events", kinds["EXIT"])]:
        if count == 0:
            j.problem(f"vacuous run: no {label}")
    figures = {
        "regionRequests": sum(j.requests.values()), "requestsByReason": dict(sorted(j.requests.items())),
        "assignments": dict(sorted(j.assignments.items())), "entersIntoRefineRegions": j.enter_refines,
        "fenceEventsReplayed": len(expected), "fenceEventsStored": len(stored),
        "eventsByKind": dict(sorted(kinds.items())),
    }
    return figures, j.problems
