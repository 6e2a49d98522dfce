#!/usr/bin/env python3
"""Hand-written scenarios, one or more per rule of proto/BEHAVIOR.md (named by tag), for the python-behavior
engines. Plain asserts: `python3 selftest.py` (after build.sh) prints one line per scenario and exits 0."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pb import t, fix as fixpb, fence as fencepb, region as regionpb, assignment as apb, policy as policypb  # noqa
from pb import device, common  # noqa: E402
import arming  # noqa: E402
import fences  # noqa: E402
import geometry  # noqa: E402
import planning  # noqa: E402
import recording  # noqa: E402

F, K, A = fixpb, fencepb, apb
LAT0, LON0 = 520000000, 130000000
E7_PER_M = 1e7 / (geometry.R * math.pi / 180)  # 1e-7 degrees of latitude per metre
T0 = 1767225600000
SCENARIOS = []


def scenario(tag):
    def wrap(fn):
        SCENARIOS.append((tag, fn))
        return fn
    return wrap


def north(m, lat=LAT0):
    return lat + round(m * E7_PER_M)


def fix(m_north=0.0, t=0, acc=500, boot=7, speed=None, reason=0, time_ms=None, lon=LON0, elapsed=True):
    f = F.LocationFix(latitude_e7=north(m_north), longitude_e7=lon, horizontal_accuracy_cm=acc, boot_id=boot,
                      reason=reason, time_ms=time_ms if time_ms is not None else T0 + t)
    if elapsed:
        f.elapsed_realtime_ms = t
    if speed is not None:
        f.speed_cm_s = speed
    return f


def rec(fixes, results=(), **policy):
    req = t.RecordingRequest(vector_id="x", policy=policypb.TrackingPolicy(**policy), fixes=fixes,
                             upload_results=list(results))
    r = recording.run(req)
    return ([(x.index, F.FixReason.Name(x.reason)[11:]) for x in r.recorded], [(x.index, x.code) for x in r.dropped],
            [(x.elapsed_realtime_ms, list(x.recorded), x.succeeded) for x in r.uploads])


def region(rid, m_north=0.0, radius=100, poly=None, **kw):
    r = regionpb.Region(id=rid, version=1, level=regionpb.REGION_LEVEL_SITE, **kw)
    r.circle.center_latitude_e7 = north(m_north)
    r.circle.center_longitude_e7 = LON0
    r.circle.radius_m = radius
    if poly is not None:
        r.polygon.latitudes_e7.extend(p[0] for p in poly)
        r.polygon.longitudes_e7.extend(p[1] for p in poly)
    return r


# ---------------------------------------------------------------------------------------------------------- geometry
@scenario("§distance")
def _():
    d = geometry.distance((0, 0), (0, 10000000))
    assert abs(d - 6371008.8 * math.pi / 180) < 1e-6, d
    assert geometry.distance((LAT0, LON0), (LAT0, LON0)) == 0
    assert abs(geometry.distance((900000000, 0), (-900000000, 0)) - math.pi * 6371008.8) < 1e-6


@scenario("§polygon-inside antimeridian")
def _():
    r = regionpb.Region(id="a:b", version=1)
    r.circle.center_latitude_e7, r.circle.center_longitude_e7, r.circle.radius_m = 0, 1800000000, 2000
    lat, lonw, lone = 100000, 1799900000, -1799900000  # ±0.01° around the antimeridian
    r.polygon.latitudes_e7.extend([-lat, -lat, lat, lat])
    r.polygon.longitudes_e7.extend([lonw, lone, lone, lonw])
    assert geometry.inside(r, (0, 1800000000))
    assert geometry.inside(r, (0, -1799950000))
    assert geometry.inside(r, (50000, 1799950000))
    assert not geometry.inside(r, (0, 1799850000)), "inside the circle but west of the polygon"
    assert not geometry.inside(r, (0, -1799850000)), "inside the circle but east of the polygon"
    # §boundary-distance: 0.005° of longitude past the west edge at the equator, about 556 m.
    d = geometry.boundary_distance(r, (0, 1799850000))
    assert abs(d - 556) < 2, d


@scenario("§polygon-inside pole")
def _():
    r = regionpb.Region(id="a:pole", version=1)
    r.circle.center_latitude_e7, r.circle.center_longitude_e7, r.circle.radius_m = 900000000, 0, 3000
    r.polygon.latitudes_e7.extend([899900000] * 4)
    r.polygon.longitudes_e7.extend([0, 900000000, 1800000000, -900000000])
    assert geometry.inside(r, (899990000, 1230000000))
    assert geometry.inside(r, (899950000, 450000000))
    assert not geometry.inside(r, (899850000, 450000000))


@scenario("§region-inside §boundary-distance §region-gap circle")
def _():
    r = region("a:c", radius=100)
    assert geometry.inside(r, (north(99), LON0)) and not geometry.inside(r, (north(101), LON0))
    assert abs(geometry.boundary_distance(r, (north(300), LON0)) - 200) < 0.05
    assert geometry.gap(r, (north(50), LON0)) == 0
    assert abs(geometry.gap(r, (north(350), LON0)) - 250) < 0.05


# --------------------------------------------------------------------------------------------------------- recording
@scenario("§rec-first §rec-stationary §rec-speed slow: DISTANCE, then MOTION_STOP")
def _():
    fixes = [fix(0, 0, speed=0), fix(10, 5000, speed=0), fix(60, 10000, speed=0), fix(70, 15000, speed=0),
             fix(75, 400000, speed=0)]
    recd, dropped, _ = rec(fixes)
    # 10 m: within 50 m of L and 25 m of A, no record. 60 m: a new anchor (60 > 25 from A), 60 m from L ≥ 50:
    # DISTANCE. 70 m: 10 from A, 10 from L: nothing. 75 m at 400 s: 395 s after A ≥ 300 s: MOTION_STOP.
    assert recd == [(0, "MOTION_START"), (2, "DISTANCE"), (4, "MOTION_STOP")], recd
    assert dropped == []


@scenario("§rec-speed fast: PERIODIC by time, speed from the previous fix when absent")
def _():
    # 100 m every 5 s is 2000 cm/s > 300: fast, so a fix is recorded when 10 s passed since L.
    fixes = [fix(100 * k, 5000 * k) for k in range(6)]
    recd, _, _ = rec(fixes)
    assert recd == [(0, "MOTION_START"), (2, "PERIODIC"), (4, "PERIODIC")], recd
    # speed_cm_s present wins: 0 means slow, so DISTANCE (100 m ≥ 50) every fix.
    fixes = [fix(100 * k, 5000 * k, speed=0) for k in range(3)]
    assert rec(fixes)[0] == [(0, "MOTION_START"), (1, "DISTANCE"), (2, "DISTANCE")]


@scenario("§rec-heartbeat: drift within the radius never wakes, heartbeats while stationary, leaving restarts")
def _():
    fixes = [fix(0, 0), fix(5, 1000), fix(-20, 60000), fix(20, 120000), fix(-15, 200000), fix(10, 300000),
             fix(40, 360000)]
    recd, _, _ = rec(fixes, stop_timeout_ms=1000, heartbeat_interval_ms=100000)
    # 1 s: stop timeout reached within 25 m: MOTION_STOP. Drift of ±20 m: nothing, until 100 s after L: HEARTBEAT
    # at 120 s (119 s after L) — no, L is at 1 s: 120 s - 1 s ≥ 100 s: HEARTBEAT; 200 s: 80 s after: nothing;
    # 300 s: HEARTBEAT; 40 m from A (0 m): MOTION_START.
    assert recd == [(0, "MOTION_START"), (1, "MOTION_STOP"), (3, "HEARTBEAT"), (5, "HEARTBEAT"),
                    (6, "MOTION_START")], recd


@scenario("§rec-clock: no elapsed time, not after previous, a new boot starts over")
def _():
    fixes = [fix(0, 1000), fix(100, 2000, elapsed=False), fix(100, 1000), fix(100, 500), fix(100, 400, boot=8),
             fix(200, 300, boot=8)]
    recd, dropped, _ = rec(fixes)
    assert dropped == [(1, "no-elapsed-time"), (2, "not-after-previous"), (3, "not-after-previous"),
                       (5, "not-after-previous")], dropped
    assert recd == [(0, "MOTION_START"), (4, "MOTION_START")], recd


@scenario("§rec-enabled §rec-filter: tracking off, accuracy, null island; the first stage's code")
def _():
    assert rec([fix(0, 0), fix(0, 1)], tracking_enabled=False)[1] == [(0, "tracking-disabled"),
                                                                      (1, "tracking-disabled")]
    ni = fix(0, 3)
    ni.latitude_e7 = ni.longitude_e7 = 0
    noacc = fix(0, 4)
    noacc.ClearField("horizontal_accuracy_cm")
    fixes = [fix(0, 0, acc=0), fix(0, 1, acc=1000), fix(0, 2, acc=999), ni, noacc]
    recd, dropped, _ = rec(fixes, max_horizontal_accuracy_cm=1000)
    assert dropped == [(0, "accuracy"), (1, "accuracy"), (3, "null-island"), (4, "accuracy")], dropped
    assert recd == [(2, "MOTION_START")]


@scenario("§rec-duty: off phases dropped, counted from the boot's first fix")
def _():
    fixes = [fix(100 * k, 1000 + 1000 * k, speed=0) for k in range(6)]  # t - t0 = 0..5 s
    recd, dropped, _ = rec(fixes, duty_cycle_on_ms=2000, duty_cycle_off_ms=1000)
    assert dropped == [(2, "duty-off"), (5, "duty-off")], dropped
    assert [i for i, _ in recd] == [0, 1, 3, 4]


@scenario("§rec-requested: recorded at once with its reason, skipping the window and the motion rules")
def _():
    fixes = [fix(0, 0), fix(1, 1000, reason=F.FIX_REASON_MANUAL), fix(2, 2000, reason=F.FIX_REASON_PERIODIC)]
    recd, _, _ = rec(fixes)
    # PERIODIC on a delivered fix is ignored: 2 m from L: nothing.
    assert recd == [(0, "MOTION_START"), (1, "MANUAL")], recd


@scenario("§rec-window: the most accurate fix of each window, earliest among equals, at the window's close")
def _():
    fixes = [fix(0, 0, acc=900), fix(100, 2000, acc=500), fix(200, 4000, acc=500), fix(300, 10500, acc=800),
             fix(400, 12000, acc=300), fix(500, 30000, acc=100)]
    recd, dropped, _ = rec(fixes, fix_window_ms=10000, distance_interval_m=10, speed_threshold_cm_s=50000)
    assert dropped == [(0, "window-not-best"), (2, "window-not-best"), (3, "window-not-best")], dropped
    assert recd == [(1, "MOTION_START"), (4, "DISTANCE"), (5, "DISTANCE")], recd


@scenario("§upload-schedule: interval, count, age; §upload-drain batches of max_batch_size")
def _():
    fixes = [fix(100 * k, 20000 * k, speed=0) for k in range(8)]  # every fix recorded, 0 .. 140 s
    _, _, ups = rec(fixes)
    # U = 0; due at 60 s (fixes 0..3, the one at 60 s included); then 120 s (fixes 4..6); fix at 140 s waits.
    assert ups == [(60000, [0, 1, 2, 3], True), (120000, [4, 5, 6], True)], ups
    _, _, ups = rec(fixes, max_batch_size=3)
    assert ups == [(40000, [0, 1, 2], True), (100000, [3, 4, 5], True)], ups
    _, _, ups = rec(fixes, max_batch_age_ms=30000, upload_interval_ms=100000)
    # Oldest at 0: due at 30 s (fixes 0, 1); oldest then the fix at 40 s: due at 70 s (2, 3); 80 s + 30 = 110 s.
    assert ups == [(30000, [0, 1], True), (70000, [2, 3], True), (110000, [4, 5], True)], ups


@scenario("§upload-schedule back-off after failures, HOLD retry_after, drain stops at a failure")
def _():
    fixes = [fix(100 * k, 20000 * k, speed=0) for k in range(8)]
    fail = t.UploadAttemptResult(transport_failed=True)
    hold = t.UploadAttemptResult(held_retry_after_ms=5000)
    _, _, ups = rec(fixes, [fail, fail, hold], max_batch_size=2)
    # Count 2 reached at 20 s: fail; retry 1 s later: fail; 2 s later (23 s): HOLD 5 s; at 28 s: succeeds, drains.
    assert ups[:5] == [(20000, [0, 1], False), (21000, [0, 1], False), (23000, [0, 1], False),
                       (28000, [0, 1], True), (60000, [2, 3], True)], ups
    assert rec(fixes, [fail], max_batch_size=2)[2][:3] == [(20000, [0, 1], False), (21000, [0, 1], True),
                                                           (60000, [2, 3], True)]


@scenario("§upload-drain §batch-composition: the newest pending fix is the live fix, the oldest others the backlog")
def _():
    fixes = [fix(100 * k, 20000 * k, speed=0) for k in range(8)]
    hold = t.UploadAttemptResult(held_retry_after_ms=50000)
    _, _, ups = rec(fixes, [hold], max_batch_size=2)
    # Count 2 at 20 s: held 50 s. At 70 s four are pending (0 .. 60 s): [0, live 3], then [1, live 2].
    assert ups[:3] == [(20000, [0, 1], False), (70000, [0, 3], True), (70000, [1, 2], True)], ups


@scenario("§upload-boot: pending fixes survive a reboot and go at once; the timer restarts")
def _():
    fail = t.UploadAttemptResult(transport_failed=True)
    fixes = [fix(0, 0), fix(100, 60000, speed=0), fix(0, 500, boot=9), fix(100, 70000, boot=9, speed=0)]
    _, _, ups = rec(fixes, [fail])
    # Boot 7: fixes 0 and 1 recorded; due at 60 s: fails; the retry at 61 s is after the boot's last fix.
    # Boot 9 at 500 ms: fix 2 recorded (MOTION_START) at once, the upload due at once takes all three.
    assert ups == [(60000, [0, 1], False), (500, [0, 1, 2], True), (70000, [3], True)], ups


@scenario("§rec-window: a requested fix of a later window closes the open window first (it passes stage 4)")
def _():
    fixes = [fix(0, 0), fix(10, 40000, reason=F.FIX_REASON_MANUAL), fix(20, 45000)]
    recd, dropped, _ = rec(fixes, fix_window_ms=30000)
    assert recd == [(0, "MOTION_START"), (1, "MANUAL")], recd


@scenario("§upload-schedule §upload-boot: an upload never carries a fix recorded after its time")
def _():
    fixes = [fix(0, 1000, speed=0), fix(100, 61000, speed=0), fix(200, 500, boot=8, acc=0),
             fix(300, 30000, boot=8, speed=0), fix(400, 40000, boot=8, speed=0)]
    recd, _, ups = rec(fixes)
    assert [i for i, _ in recd] == [0, 1, 3, 4]
    # Boot 8 starts with nothing pending (its first fix is dropped): no upload at once; the interval from 0.5 s
    # falls after the trace's end.
    assert ups == [(61000, [0, 1], True)], ups


# ------------------------------------------------------------------------------------------------------------ fences
def fence_run(regions, steps, **policy):
    req = t.FenceRequest(vector_id="f", policy=policypb.TrackingPolicy(**policy), regions=regions,
                         assignment_version=4)
    for s in steps:
        if isinstance(s, F.LocationFix):
            req.steps.add(fix=s)
        else:
            req.steps.add(arm=s)
    return fences.run(req).events


def kinds(events):
    return [(e.region_id, K.FenceEventKind.Name(e.kind)[17:]) for e in events]


ENTRY = dict(notify_on_entry=True, notify_on_exit=True)


@scenario("§fence-state-report §fence-confirm: jitter across the boundary reports nothing")
def _():
    r = region("site:a", radius=500, **ENTRY)
    steps = [fix(0, 0)] + [fix(490 if k % 2 else 760, 10000 * k) for k in range(1, 10)]
    ev = fence_run([r], steps)
    assert kinds(ev) == [("site:a", "STATE_INSIDE")], kinds(ev)
    assert ev[0].event_sequence == 1 and ev[0].source == K.FENCE_EVENT_SOURCE_APP_HIT_TEST


@scenario("§fence-hysteresis §fence-confirm §fence-event: EXIT after confirmation, ENTER back, os_event_time")
def _():
    r = region("site:a", radius=500, **ENTRY)
    steps = [fix(0, 0), fix(650, 10000), fix(750, 20000), fix(760, 35000), fix(800, 41000), fix(100, 50000),
             fix(100, 70000)]
    ev = fence_run([r], steps)
    # 650 m: 150 past, within the 200 m hysteresis: neither side. 750: S at 20 s; 760 at 35 s: 15 s; 41 s: 21 s
    # ≥ 20 s: EXIT with os_event_time 20 s earlier. 100 m at 50 s: S; 70 s: ENTER.
    assert kinds(ev) == [("site:a", "STATE_INSIDE"), ("site:a", "EXIT"), ("site:a", "ENTER")], kinds(ev)
    e = ev[1]
    assert e.detected_at_ms == T0 + 41000 and e.os_event_time_ms == T0 + 20000, e
    assert e.detected_elapsed_realtime_ms == 41000 and e.trigger_fix.elapsed_realtime_ms == 41000
    assert e.assignment_version == 4 and e.region_version == 1 and e.boot_id == 7
    assert not e.HasField("dwell_ms")
    assert [x.event_sequence for x in ev] == [1, 2, 3]


@scenario("§fence-gate: an accuracy spike neither confirms nor breaks a transition")
def _():
    r = region("site:a", radius=500, **ENTRY)
    steps = [fix(0, 0), fix(800, 10000), fix(0, 20000, acc=10000), fix(800, 30000)]
    assert kinds(fence_run([r], steps)) == [("site:a", "STATE_INSIDE"), ("site:a", "EXIT")]
    steps = [fix(0, 0), fix(800, 10000), fix(800, 20000, acc=20000), fix(800, 29000)]
    assert kinds(fence_run([r], steps)) == [("site:a", "STATE_INSIDE")]


@scenario("§fence-dwell: once per stay, from the entry's S")
def _():
    r = region("site:a", radius=500, notify_on_dwell=True, loitering_delay_ms=60000)
    steps = [fix(900, 0), fix(0, 10000), fix(0, 30000), fix(0, 69000), fix(0, 71000), fix(0, 200000)]
    ev = fence_run([r], steps)
    assert kinds(ev) == [("site:a", "STATE_OUTSIDE"), ("site:a", "DWELL")], kinds(ev)
    assert ev[1].dwell_ms == 61000 and ev[1].detected_elapsed_realtime_ms == 71000
    assert ev[1].os_event_time_ms == ev[1].detected_at_ms


@scenario("§fence-state reboot: a new boot makes every region unknown: state reported again")
def _():
    r = region("site:a", radius=500, **ENTRY)
    steps = [fix(0, 0), fix(0, 50000), fix(0, 100, boot=8), fix(0, 50, boot=8), fix(0, 200, boot=8)]
    assert kinds(fence_run([r], steps)) == [("site:a", "STATE_INSIDE"), ("site:a", "STATE_INSIDE")]


@scenario("§fence-expiry: an expired region is disarmed and reports nothing, not even an exit")
def _():
    r = region("site:a", radius=500, expires_at_ms=T0 + 30000, **ENTRY)
    steps = [fix(0, 0), fix(900, 10000), fix(900, 40000)]
    assert kinds(fence_run([r], steps, fence_confirm_ms=0)) == [("site:a", "STATE_INSIDE"), ("site:a", "EXIT")]
    steps = [fix(0, 0), fix(900, 30000)]
    assert kinds(fence_run([r], steps, fence_confirm_ms=0)) == [("site:a", "STATE_INSIDE")]


@scenario("§fence-order: leaving a region and entering the adjacent one: EXIT first; arming makes unknown")
def _():
    a = region("site:b", 0, radius=500, **ENTRY)
    b = region("site:a", 1000, radius=500, **ENTRY)
    steps = [fix(0, 0), fix(1000, 10000)]
    ev = fence_run([a, b], steps, fence_confirm_ms=0, fence_hysteresis_m=0)
    assert kinds(ev) == [("site:a", "STATE_OUTSIDE"), ("site:b", "STATE_INSIDE"), ("site:b", "EXIT"),
                         ("site:a", "ENTER")], kinds(ev)
    c = region("site:c", 0, radius=300, **ENTRY)
    ev = fence_run([a], [fix(0, 0), t.FenceArming(regions=[c], disarm_region_ids=["site:b"]), fix(0, 1000)])
    assert kinds(ev) == [("site:b", "STATE_INSIDE"), ("site:c", "STATE_INSIDE")], kinds(ev)


@scenario("§rec-clock: a wall-clock jump changes nothing")
def _():
    fixes = [fix(100 * k, 5000 * k, speed=0) for k in range(5)]
    jumped = [fix(100 * k, 5000 * k, speed=0, time_ms=T0 - 86400000 * (k % 2)) for k in range(5)]
    assert rec(fixes) == rec(jumped)


@scenario("§fence-hysteresis with a polygon: distance past the polygon's edge, not the circle")
def _():
    # A square of ±300 m inside a 1000 m circle; the exit needs 200 m past the square's edge.
    d = round(300 * E7_PER_M)
    lon_d = round(300 * E7_PER_M / math.cos(math.radians(52)))
    poly = [(LAT0 - d, LON0 - lon_d), (LAT0 - d, LON0 + lon_d), (LAT0 + d, LON0 + lon_d), (LAT0 + d, LON0 - lon_d)]
    r = region("site:p", radius=1000, poly=poly, **ENTRY)
    steps = [fix(0, 0), fix(450, 10000), fix(450, 40000), fix(520, 50000), fix(520, 80000)]
    ev = fence_run([r], steps)
    # 450 m north: 150 m past the edge (inside the circle): neither side. 520 m: 220 m past: S at 50 s, EXIT at 80 s.
    assert kinds(ev) == [("site:p", "STATE_INSIDE"), ("site:p", "EXIT")], kinds(ev)
    assert ev[1].os_event_time_ms == T0 + 50000


# ---------------------------------------------------------------------------------------------------------- planning
def plan(catalogue, n, m_north=0, previous=None, now=T0):
    req = t.PlanningRequest(vector_id="p", catalogue=catalogue, latitude_e7=north(m_north), longitude_e7=LON0,
                            slot_budget=n, now_ms=now)
    if previous is not None:
        req.previous.CopyFrom(previous)
    return planning.run(req).assignment


@scenario("§plan-candidates §plan-rank §plan-refine §plan-refresh §plan-expiry")
def _():
    city = region("city:x", 0, radius=5000, notify_on_exit=True)
    d1 = region("district:in", 0, radius=1000, parent_id="city:x", notify_on_entry=True)
    d2 = region("district:far", 3000, radius=1000, parent_id="city:x", notify_on_entry=True, priority=1)
    site = region("site:s", 3000, radius=100, parent_id="district:far", notify_on_entry=True)
    other = region("city:y", 20000, radius=5000, notify_on_entry=True, expires_at_ms=T0 + 3600000)
    gone = region("city:z", 0, radius=5000, notify_on_entry=True, expires_at_ms=T0)
    a = plan([city, d1, d2, site, other, gone], 3)
    # Open: city:x, district:in. Visible: + district:far (child of open city), city:y (root). site:s is not
    # visible (district:far is not open). Rank: open (city:x, district:in by gap 0 then id), then district:far
    # (priority 1), then city:y.
    assert [r.id for r in a.regions] == ["city:x", "district:in", "district:far"], a
    assert a.mode == A.ASSIGNMENT_MODE_FULL_REPLACEMENT and a.assignment_version == 1
    assert [r.refine_on_entry for r in a.regions] == [False, False, True]
    assert a.refresh.on_refine_entry
    # Left out: city:y, gap 20000 - 5000 = 15000: refresh distance 7500.
    assert abs(a.refresh.refresh_distance_m - 7500) <= 1 and a.refresh.anchor_latitude_e7 == north(0)
    assert a.expires_at_ms == T0 + 86400000 and a.issued_at_ms == T0 and a.slot_budget == 3
    a4 = plan([city, d1, d2, site, other, gone], 4)
    assert not a4.refresh.HasField("refresh_distance_m") and a4.expires_at_ms == T0 + 3600000


@scenario("§plan-delta: a delta when it is shorter, removals in byte order")
def _():
    rs = [region(f"site:{c}", 100 * k, radius=500, notify_on_entry=True) for k, c in enumerate("abcde")]
    full = plan(rs, 5)
    assert full.mode == A.ASSIGNMENT_MODE_FULL_REPLACEMENT
    rs2 = rs[:4] + [region("site:f", 100, radius=500, notify_on_entry=True)]
    d = plan(rs2, 5, previous=full)
    assert d.mode == A.ASSIGNMENT_MODE_DELTA and d.base_version == 1 and d.assignment_version == 2
    assert [r.id for r in d.regions] == ["site:f"] and list(d.removed_region_ids) == ["site:e"]
    same = plan(rs, 5, previous=full)
    assert same.mode == A.ASSIGNMENT_MODE_DELTA and not same.regions and not same.removed_region_ids
    full.datum = common.COORDINATE_DATUM_GCJ02
    assert plan(rs2, 5, previous=full).mode == A.ASSIGNMENT_MODE_FULL_REPLACEMENT


# ------------------------------------------------------------------------------------------------------------ arming
@scenario("§arm-order: priority, then gap, then id; the rest fail SLOT_LIMIT; expired skipped")
def _():
    rs = [region("site:c", 0, priority=1), region("site:b", 5000), region("site:a", 9000),
          region("site:x", 0, expires_at_ms=T0)]
    asg = A.RegionAssignment(assignment_version=9, mode=A.ASSIGNMENT_MODE_FULL_REPLACEMENT, regions=rs)
    req = t.ArmingRequest(vector_id="a", assignment=asg, slots=2, now_ms=T0, position=fix(9000))
    out = arming.run(req).armed
    assert list(out.region_ids) == ["site:c", "site:a"] and list(out.failed_region_ids) == ["site:b"]
    assert list(out.failure_reasons) == [device.ARM_FAILURE_REASON_SLOT_LIMIT] and out.assignment_version == 9
    req.ClearField("position")
    assert list(arming.run(req).armed.region_ids) == ["site:c", "site:a"]
    asg.monitoring_enabled = False
    assert not arming.run(t.ArmingRequest(assignment=asg, slots=2, now_ms=T0)).armed.region_ids


def main():
    failed = 0
    for tag, fn in SCENARIOS:
        try:
            fn()
            print(f"ok   {tag}")
        except AssertionError as e:
            failed += 1
            print(f"FAIL {tag}: {e}")
    print(f"{len(SCENARIOS) - failed}/{len(SCENARIOS)} scenarios pass")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
