#!/usr/bin/env python3
"""Differential fuzzing of the behaviour engines: random but realistic scenarios (traces that walk, drive, stop
and jitter near a few regions; random policies, upload answers, reboots, catalogues) go to this testee's engines
and to another testee (by default the built-in one, `locwire conformance testee`) over the testee protocol, and
every difference is printed with its seed. Usage:
  python3 difffuzz.py [--testee 'CMD'] [--count N] [--seed S] [--family recording|fences|planning|arming]..."""
import argparse
import math
import random
import shlex
import subprocess
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from google.protobuf import json_format  # noqa: E402
from pb import t, policy as pp, fix as fp, region as rp, assignment as ap  # noqa: E402
import arming, fences, planning, recording  # noqa: E401,E402

M_E7 = 1e7 / (6371008.8 * math.pi / 180)
BASES = [(453800000, 141450000), (0, 1799990000), (899990000, 0), (-338000000, 1512000000)]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.base = self.r.choice(BASES)

    def point(self, spread_m):
        lat = self.base[0] + round(self.r.uniform(-spread_m, spread_m) * M_E7)
        lon = self.base[1] + round(self.r.uniform(-spread_m, spread_m) * M_E7 / max(0.05, math.cos(math.radians(lat * 1e-7))))
        lat = max(-900000000, min(900000000, lat))
        if lon > 1800000000:
            lon -= 3600000000
        if lon < -1800000000:
            lon += 3600000000
        return lat, lon

    def policy(self):
        r, p = self.r, pp.TrackingPolicy(policy_version=1)
        pick = [("speed_threshold_cm_s", 0, 3000), ("time_interval_ms", 1000, 120000), ("distance_interval_m", 0, 300),
                ("upload_interval_ms", 1000, 600000), ("max_batch_size", 1, 12), ("max_batch_age_ms", 1000, 900000),
                ("stationary_radius_m", 1, 200), ("stop_timeout_ms", 0, 600000), ("heartbeat_interval_ms", 0, 600000),
                ("fix_window_ms", 0, 90000), ("duty_cycle_on_ms", 0, 60000), ("duty_cycle_off_ms", 0, 120000),
                ("fence_hysteresis_m", 0, 400), ("fence_confirm_ms", 0, 60000), ("fence_max_accuracy_cm", 1, 20000),
                ("max_horizontal_accuracy_cm", 1, 300000)]
        for name, lo, hi in pick:
            if r.random() < 0.35:
                setattr(p, name, r.randint(lo, hi))
        if r.random() < 0.03:
            p.tracking_enabled = False
        return p

    def trace(self, n, spread):
        r = self.r
        lat, lon = self.point(spread / 2)
        t_el, t_wall, boot = r.randint(0, 10**7), 1772352000000 + r.randint(0, 10**9), r.randint(1, 2**40)
        out = []
        heading, speed = r.uniform(0, 2 * math.pi), r.choice([0, 1, 5, 15, 30])
        for _ in range(n):
            dt = r.choice([1000, 5000, 10000, 30000, 60000, r.randint(1, 400000)])
            if r.random() < 0.15:
                speed = r.choice([0, 0.5, 1.5, 5, 15, 30])
                heading = r.uniform(0, 2 * math.pi)
            step = speed * dt / 1000 + r.gauss(0, 8)
            lat += round(step * math.cos(heading) * M_E7)
            lon += round(step * math.sin(heading) * M_E7 / max(0.05, math.cos(math.radians(lat * 1e-7))))
            lat = max(-900000000, min(900000000, lat))
            lon = (lon + 1800000000) % 3600000000 - 1800000000
            t_el += dt
            t_wall += dt if r.random() > 0.03 else r.randint(-10**8, 10**8)
            if r.random() < 0.02:
                boot, t_el = r.randint(1, 2**40), r.randint(0, 100000)
            f = fp.LocationFix(time_ms=t_wall, latitude_e7=lat, longitude_e7=lon, boot_id=boot)
            if r.random() < 0.98:
                f.elapsed_realtime_ms = t_el if r.random() > 0.02 else max(0, t_el - r.randint(0, 50000))
            if r.random() < 0.97:
                f.horizontal_accuracy_cm = r.choice([r.randint(300, 3000), r.randint(1, 30000), 0])
            if r.random() < 0.5:
                f.speed_cm_s = max(0, int(speed * 100 + r.gauss(0, 50)))
            if r.random() < 0.05:
                f.reason = r.randint(0, 13)
            out.append(f)
        return out

    def region(self, rid, spread, parent=""):
        r = self.r
        g = rp.Region(id=rid, version=r.randint(1, 3), level=rp.REGION_LEVEL_SITE, parent_id=parent,
                      notify_on_entry=r.random() < 0.7, notify_on_exit=r.random() < 0.7,
                      priority=r.choice([0, 0, 1, 2]))
        if r.random() < 0.4:
            g.notify_on_dwell, g.loitering_delay_ms = True, r.randint(1000, 300000)
        if r.random() < 0.1:
            g.expires_at_ms = 1772352000000 + r.randint(0, 2 * 10**9)
        lat, lon = self.point(spread)
        g.circle.center_latitude_e7, g.circle.center_longitude_e7 = lat, lon
        g.circle.radius_m = r.randint(50, 2000)
        if r.random() < 0.3:
            k = r.randint(3, 7)
            rad = g.circle.radius_m * 0.9
            for i in range(k):
                a = 2 * math.pi * i / k + r.uniform(-0.3, 0.3)
                d = rad * r.uniform(0.4, 1.0)
                plat = lat + round(d * math.cos(a) * M_E7)
                plon = lon + round(d * math.sin(a) * M_E7 / max(0.05, math.cos(math.radians(plat * 1e-7))))
                g.polygon.latitudes_e7.append(max(-900000000, min(900000000, plat)))
                g.polygon.longitudes_e7.append((plon + 1800000000) % 3600000000 - 1800000000)
        return g

    def catalogue(self, n, spread):
        regs = []
        for i in range(n):
            parent = self.r.choice([""] + [x.id for x in regs]) if regs and self.r.random() < 0.5 else ""
            regs.append(self.region(f"r:{i:02d}", spread, parent))
        return regs


def make(family, seed):
    g = Gen(seed)
    r = g.r
    if family == "recording":
        req = t.RecordingRequest(policy=g.policy(), fixes=g.trace(r.randint(1, 80), 3000))
        if req.policy.fix_window_ms > 0 and not REQUESTED_IN_WINDOWS:
            for f in req.fixes:  # B6b: a requested fix of a later window, where the two readings differ
                if f.reason in recording.REQUESTED:
                    f.reason = 0
        for _ in range(r.randint(0, 6)):
            req.upload_results.add(**r.choice([{"succeeded": True}, {"transport_failed": True},
                                               {"held_retry_after_ms": r.randint(0, 200000)}]))
        return req
    if family == "fences":
        req = t.FenceRequest(policy=g.policy(), regions=g.catalogue(r.randint(1, 5), 2000),
                             first_event_sequence=r.randint(0, 5), assignment_version=r.randint(0, 9))
        for f in g.trace(r.randint(1, 80), 3000):
            if r.random() < 0.05:
                # Never one id both armed and disarmed in one step: the spec does not say which comes first.
                ids = r.sample(range(7), 2)
                req.steps.add(arm=t.FenceArming(regions=[g.region(f"r:{ids[0]:02d}", 2000)],
                                                disarm_region_ids=[f"r:{ids[1]:02d}"] if r.random() < .5 else []))
            req.steps.add(fix=f)
        return req
    if family == "planning":
        lat, lon = g.point(3000)
        req = t.PlanningRequest(catalogue=g.catalogue(r.randint(0, 15), 5000), latitude_e7=lat, longitude_e7=lon,
                                slot_budget=r.randint(0, 8), now_ms=1772352000000 + r.randint(0, 2 * 10**9))
        if r.random() < 0.5:
            prev = planning.plan(req)
            if r.random() < 0.2:
                prev.datum = r.choice([0, 2]) if ALL_DATUMS else 2  # 0: B21, where the two readings differ
            req.previous.CopyFrom(prev)
            lat, lon = g.point(3000)
            req.latitude_e7, req.longitude_e7 = lat, lon
            req.now_ms += r.randint(0, 10**8)
        return req
    asg = ap.RegionAssignment(assignment_version=r.randint(1, 9), mode=ap.ASSIGNMENT_MODE_FULL_REPLACEMENT,
                              regions=g.catalogue(r.randint(0, 12), 5000), slot_budget=20,
                              expires_at_ms=r.choice([0, 1772352000000 + r.randint(0, 2 * 10**9)]))
    if r.random() < 0.1:
        asg.monitoring_enabled = r.random() < 0.5
    req = t.ArmingRequest(assignment=asg, slots=r.randint(0, 8), now_ms=1772352000000 + r.randint(0, 2 * 10**9))
    if r.random() < 0.7:
        req.position.CopyFrom(g.trace(1, 3000)[0])
    return req


ALL_DATUMS = False
REQUESTED_IN_WINDOWS = False
def acausal(req, theirs):
    """For a recording difference: a description of the first upload of `theirs` that carries a fix recorded (by
    this engine's reading, when its recorded and dropped fixes are the same) after the attempt's time, or ''."""
    mine = recording.run(req)
    if list(mine.recorded) != list(theirs.recorded) or list(mine.dropped) != list(theirs.dropped):
        return ""
    rec = recording.Recorder(recording.Policy(req.policy))
    for i, f in enumerate(req.fixes):
        rec.deliver(i, f)
    rec.finish()
    boots = [b.boot_id for b in rec.boots]
    for u in theirs.uploads:
        for n in u.recorded:
            _, _, rb, at, _ = rec.recorded[n]
            if boots[rb] == u.boot_id and at > u.elapsed_realtime_ms:
                return f"an attempt at {u.elapsed_realtime_ms} ms carries recorded[{n}], recorded at {int(at)} ms"
    return ""


ENGINES = {"recording": recording.run, "fences": fences.run, "planning": planning.run, "arming": arming.run}


class Testee:
    def __init__(self, cmd):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.send(t.TesteeRequest(hello=t.HelloRequest(protocol_version=1, runner="difffuzz")))

    def send(self, req):
        b = req.SerializeToString()
        self.p.stdin.write(len(b).to_bytes(4, "little") + b)
        self.p.stdin.flush()
        n = int.from_bytes(self.p.stdout.read(4), "little")
        return t.TesteeResponse.FromString(self.p.stdout.read(n))


def main():
    ap_ = argparse.ArgumentParser()
    ap_.add_argument("--testee", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                                      ".build", "release", "locwire") + " conformance testee")
    ap_.add_argument("--count", type=int, default=200)
    ap_.add_argument("--seed", type=int, default=1)
    ap_.add_argument("--family", action="append")
    ap_.add_argument("-v", action="store_true")
    a = ap_.parse_args()
    other = Testee(a.testee)
    for fam in a.family or list(ENGINES):
        diffs = 0
        for k in range(a.count):
            seed = a.seed * 1000003 + k
            req = make(fam, seed)
            req.vector_id = f"{fam}.fuzz.{seed}"
            mine = ENGINES[fam](req)
            theirs = getattr(other.send(t.TesteeRequest(**{fam: req})), fam)
            if mine != theirs:
                diffs += 1
                print(f"DIFF {fam} seed {seed}{' (B11c: ' + acausal(req, theirs) + ')' if fam == 'recording' and acausal(req, theirs) else ''}")
                if a.v:
                    g, e = json_format.MessageToDict(mine), json_format.MessageToDict(theirs)
                    for key in sorted(set(g) | set(e)):
                        if g.get(key) != e.get(key):
                            print(f"  {key}:\n    mine   {str(g.get(key))[:1200]}\n    theirs {str(e.get(key))[:1200]}")
        print(f"{fam}: {a.count - diffs}/{a.count} agree")


if __name__ == "__main__":
    main()
