"""proto/BEHAVIOR.md, "Fences" (§fence-gate ... §fence-event): FenceRequest in, FenceResponse out."""
from pb import t, fence as fencepb, opt, id_key
import geometry

UNKNOWN, INSIDE, OUTSIDE = "unknown", "inside", "outside"
K = fencepb
STATE_KINDS = (K.FENCE_EVENT_KIND_STATE_INSIDE, K.FENCE_EVENT_KIND_STATE_OUTSIDE)
# §fence-order: state reports first, then EXIT, ENTER, DWELL.
# UNSPECIFIED: whether STATE_INSIDE and STATE_OUTSIDE are one kind or two for the ordering. Here they are one group
# ("state reports"), ordered by region id among themselves.
ORDER = {K.FENCE_EVENT_KIND_STATE_INSIDE: 0, K.FENCE_EVENT_KIND_STATE_OUTSIDE: 0,
         K.FENCE_EVENT_KIND_EXIT: 1, K.FENCE_EVENT_KIND_ENTER: 2, K.FENCE_EVENT_KIND_DWELL: 3}


class Armed:
    def __init__(self, region):
        self.region = region
        self.unknown()

    def unknown(self):
        self.state = UNKNOWN
        self.pending = None     # (fix, t) of S, the first counted fix on the other side
        self.stay = None        # t of the stay's start, while inside
        self.dwelled = False


def pos(f):
    # An absent coordinate reads as 0 (§fence-missing-coordinate).
    return (f.latitude_e7, f.longitude_e7)


class FenceEngine:
    def __init__(self, req):
        p = req.policy
        self.hysteresis = opt(p, "fence_hysteresis_m", 200)
        self.confirm = opt(p, "fence_confirm_ms", 20000)
        self.max_accuracy = opt(p, "fence_max_accuracy_cm", 10000)
        self.assignment_version = req.assignment_version
        self.next_sequence = req.first_event_sequence or 1
        self.armed = {}
        self.prev = None        # (boot_id, elapsed) of the previous counted fix
        self.events = []
        # UNSPECIFIED: an id twice in the initial list: the later definition replaces the earlier (as in an arm
        # step).
        self.arm(req.regions)

    def arm(self, regions):
        for r in regions:
            # "Fences", State: a region without a circle centre cannot be armed (now stated in the spec).
            if not geometry.has_circle_centre(r):
                continue
            old = self.armed.get(r.id)
            # UNSPECIFIED (contradiction): BEHAVIOR.md makes a region unknown when it is armed "or re-armed with
            # another definition", which implies that re-arming the same definition keeps its state;
            # testee.proto's FenceArming says an id already armed "is replaced (and its state becomes unknown)".
            # Here BEHAVIOR.md wins: an identical re-arm keeps the state, a changed one resets it.
            if old is not None and old.region == r:
                continue
            self.armed[r.id] = Armed(r)

    def disarm(self, ids):
        for i in ids:
            self.armed.pop(i, None)

    def counts(self, f):
        """§fence-gate."""
        if not f.HasField("elapsed_realtime_ms"):
            return False
        if self.prev is not None and self.prev[0] == f.boot_id and f.elapsed_realtime_ms <= self.prev[1]:
            return False
        if not f.HasField("horizontal_accuracy_cm") or f.horizontal_accuracy_cm == 0 \
                or f.horizontal_accuracy_cm >= self.max_accuracy:
            return False
        if pos(f) == (0, 0):
            return False
        return True

    def other_side(self, a, p):
        """§fence-hysteresis: whether a counted fix at p is on the other side of armed region a (inside or
        outside)."""
        r = a.region
        if a.state == INSIDE:
            return (not geometry.inside(r, p)) and geometry.boundary_distance(r, p) >= self.hysteresis
        return geometry.inside(r, p)

    def fix(self, f):
        if not self.counts(f):
            return
        if self.prev is not None and self.prev[0] != f.boot_id:
            for a in self.armed.values():  # a new boot: the OS forgot its regions
                a.unknown()
        self.prev = (f.boot_id, f.elapsed_realtime_ms)
        # §fence-expiry: before a counted fix is evaluated (settled in the spec after this reading first ran it for
        # every delivered fix, B16).
        for rid in [rid for rid, a in self.armed.items()
                    if a.region.expires_at_ms > 0 and a.region.expires_at_ms <= f.time_ms]:
            del self.armed[rid]
        tf = f.elapsed_realtime_ms
        p = pos(f)
        out = []  # (kind, region, S time or None, dwell_ms or None)
        for a in self.armed.values():
            r = a.region
            if a.state == UNKNOWN:  # §fence-state-report
                if geometry.inside(r, p):
                    a.state, a.stay, a.dwelled = INSIDE, tf, False
                    out.append((K.FENCE_EVENT_KIND_STATE_INSIDE, r, None, None))
                else:
                    a.state = OUTSIDE
                    out.append((K.FENCE_EVENT_KIND_STATE_OUTSIDE, r, None, None))
            elif self.other_side(a, p):  # §fence-confirm
                if a.pending is None:
                    a.pending = tf
                if tf - a.pending >= self.confirm:
                    s = a.pending
                    a.pending = None
                    if a.state == INSIDE:
                        a.state, a.stay = OUTSIDE, None
                        if r.notify_on_exit:
                            out.append((K.FENCE_EVENT_KIND_EXIT, r, s, None))
                    else:
                        a.state, a.stay, a.dwelled = INSIDE, s, False
                        if r.notify_on_entry:
                            out.append((K.FENCE_EVENT_KIND_ENTER, r, s, None))
            else:
                a.pending = None  # any counted fix not on the other side cancels it
            # §fence-dwell. "While the region stays inside" is the state, but a fix that continues an exit pending
            # since an earlier fix reports no DWELL (§fence-dwell-pending); the fix that starts it, or one within the
            # hysteresis, still does.
            # A loitering_delay_ms of 0 is due at once, on the fix that reports the STATE_INSIDE or the ENTER
            # (§fence-dwell-zero).
            if a.state == INSIDE and a.pending in (None, tf) and r.notify_on_dwell and not a.dwelled \
                    and tf - a.stay >= r.loitering_delay_ms:
                a.dwelled = True
                out.append((K.FENCE_EVENT_KIND_DWELL, r, None, tf - a.stay))
        out.sort(key=lambda e: (ORDER[e[0]], id_key(e[1].id)))
        for kind, r, s, dwell in out:
            ev = K.FenceEvent(event_sequence=self.next_sequence, region_id=r.id, region_version=r.version,
                              assignment_version=self.assignment_version, kind=kind,
                              source=K.FENCE_EVENT_SOURCE_APP_HIT_TEST, detected_at_ms=f.time_ms,
                              detected_elapsed_realtime_ms=tf, boot_id=f.boot_id)
            ev.trigger_fix.CopyFrom(f)
            ev.os_event_time_ms = f.time_ms - (tf - s) if s is not None else f.time_ms
            if dwell is not None:
                ev.dwell_ms = dwell
            self.next_sequence += 1
            self.events.append(ev)


def run(req):
    eng = FenceEngine(req)
    # §fence-relaunch: a kill and relaunch within one boot is not an event for the rules; each armed region's state,
    # pending transition and stay, and the event counter continue, so this reading keeps its engine at each
    # relaunch point (req.relaunch_before is accepted and changes nothing). A later boot is the boot change its
    # next counted fix already brings (§relaunch-boot).
    for step in req.steps:
        kind = step.WhichOneof("step")
        if kind == "fix":
            eng.fix(step.fix)
        elif kind == "arm":
            # "Fences", State: one step disarms first, then arms (settled in the spec after this reading first did
            # the opposite, B15).
            eng.disarm(step.arm.disarm_region_ids)
            eng.arm(step.arm.regions)
        else:
            raise ValueError("fence step not understood")
    resp = t.FenceResponse(vector_id=req.vector_id)
    resp.events.extend(eng.events)
    return resp
