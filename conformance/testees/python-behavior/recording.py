"""proto/BEHAVIOR.md, "Recording" (§rec-clock ... §rec-heartbeat) and "Upload scheduling" (§upload-schedule,
§upload-drain, §upload-boot): RecordingRequest in, RecordingResponse out.

Two passes: the recording engine turns the delivered fixes into recorded and dropped ones (each recorded fix with
its boot and its monotonic time); then the upload timer runs over each boot's time line."""
from pb import t, fix as fixpb, opt
import geometry

F = fixpb
REQUESTED = {F.FIX_REASON_REGION_EVENT, F.FIX_REASON_VISIT, F.FIX_REASON_SIGNIFICANT_CHANGE, F.FIX_REASON_MANUAL,
             F.FIX_REASON_SERVER_REQUEST, F.FIX_REASON_PROVIDER_CHANGE, F.FIX_REASON_SYSTEM_RELAUNCH}
BACK_OFF_FIRST_MS, BACK_OFF_MAX_MS = 1000, 300000  # §back-off
TRACE_END = 0.25  # see Recorder.finish


class Policy:
    """The TrackingPolicy in force, with its documented defaults (tracking_policy.proto)."""

    def __init__(self, p):
        self.speed_threshold = opt(p, "speed_threshold_cm_s", 300)
        self.time_interval = opt(p, "time_interval_ms", 10000)
        self.distance_interval = opt(p, "distance_interval_m", 50)
        self.max_accuracy = opt(p, "max_horizontal_accuracy_cm", 200000)
        self.upload_interval = opt(p, "upload_interval_ms", 60000)
        self.max_batch_size = opt(p, "max_batch_size", 500)
        self.max_batch_age = opt(p, "max_batch_age_ms", 3600000)
        self.stationary_radius = opt(p, "stationary_radius_m", 25)
        self.stop_timeout = opt(p, "stop_timeout_ms", 300000)
        self.heartbeat = opt(p, "heartbeat_interval_ms", 0)
        self.tracking_enabled = opt(p, "tracking_enabled", True)
        self.window = opt(p, "fix_window_ms", 0)
        self.duty_on = opt(p, "duty_cycle_on_ms", 0)
        self.duty_off = opt(p, "duty_cycle_off_ms", 0)


def pos(f):
    # UNSPECIFIED: a fix without latitude or longitude. The absent coordinate reads as 0 (proto3 default); with
    # both absent it is (0, 0) and dropped as `null-island`.
    return (f.latitude_e7, f.longitude_e7)


class Boot:
    def __init__(self, boot_id, t0):
        self.boot_id = boot_id
        self.t0 = t0      # §rec-duty: the boot's first fix that passed stage 1
        self.last = t0    # the latest monotonic time of the boot (its last fix that passed stage 1)


class Recorder:
    def __init__(self, policy):
        self.p = policy
        self.recorded = []   # (index, reason, boot number, elapsed ms), in the order recorded
        self.dropped = []    # (index, code)
        self.boots = []
        self.now = None
        self.reset()

    # -- per-boot state ------------------------------------------------------------------------------------------
    def reset(self):
        """§rec-clock: a new boot clears every stage's state, as if the engine had just started."""
        self.window_k = None      # the open window's number and its best fix so far
        self.window_best = None   # (index, fix)
        self.L = None             # last recorded fix: (fix, t)
        self.A = None             # anchor: (fix, t)
        self.P = None             # previous fix that reached the motion rules: (fix, t)
        self.stationary = False

    def drop(self, i, code):
        self.dropped.append((i, code))

    def record(self, i, f, reason):
        # The time the fix counts as recorded for the upload timer: its own, or the window's close (self.now).
        at = f.elapsed_realtime_ms if self.now is None else self.now
        self.recorded.append((i, reason, len(self.boots) - 1, at, f.elapsed_realtime_ms))
        self.L = (f, f.elapsed_realtime_ms)

    # -- stage 6, the window -------------------------------------------------------------------------------------
    def close_window(self, at):
        """§rec-window: the window's fix goes through stage 7 at its own time; it counts as recorded at `at`, when
        the window closes (the engine "decides when the window closes")."""
        if self.window_best is not None:
            i, f = self.window_best
            self.window_best = self.window_k = None
            self.now = at
            self.motion(i, f)
            self.now = None

    # -- stage 7, the motion rules -------------------------------------------------------------------------------
    def speed(self, f, tf):
        """§rec-speed, in cm/s."""
        if f.HasField("speed_cm_s"):
            return f.speed_cm_s
        if self.P is None:
            return None
        pf, pt = self.P
        return geometry.distance(pos(pf), pos(f)) * 100000 / (tf - pt)

    def by_speed(self, i, f, tf, speed):
        p = self.p
        fast = speed is not None and speed > p.speed_threshold
        lf, lt = self.L
        if fast:
            if max(0, tf - lt) >= p.time_interval:  # a negative difference counts as 0 (§rec-motion)
                self.record(i, f, F.FIX_REASON_PERIODIC)
        elif geometry.distance(pos(lf), pos(f)) >= p.distance_interval:
            self.record(i, f, F.FIX_REASON_DISTANCE)

    def motion(self, i, f):
        p = self.p
        tf = f.elapsed_realtime_ms
        speed = self.speed(f, tf)  # from P, before f becomes P
        if self.A is None:  # §rec-first
            self.record(i, f, F.FIX_REASON_MOTION_START)
            self.A = (f, tf)
            self.stationary = False
        elif not self.stationary:  # §rec-stationary
            af, at = self.A
            if geometry.distance(pos(af), pos(f)) > p.stationary_radius:
                self.A = (f, tf)
                self.by_speed(i, f, tf, speed)
            elif tf - at >= p.stop_timeout:
                self.stationary = True
                self.record(i, f, F.FIX_REASON_MOTION_STOP)
            else:
                self.by_speed(i, f, tf, speed)
        else:  # §rec-heartbeat
            af, at = self.A
            if geometry.distance(pos(af), pos(f)) > p.stationary_radius:
                self.stationary = False
                self.record(i, f, F.FIX_REASON_MOTION_START)
                self.A = (f, tf)
            elif p.heartbeat > 0 and max(0, tf - self.L[1]) >= p.heartbeat:
                # UNSPECIFIED: L may be a requested fix (§rec-requested makes it "the last recorded fix for them"),
                # so a requested fix restarts the heartbeat interval. Read literally.
                self.record(i, f, F.FIX_REASON_HEARTBEAT)
        self.P = (f, tf)

    # -- the stages ----------------------------------------------------------------------------------------------
    def deliver(self, i, f):
        p = self.p
        # Stage 1, §rec-clock.
        if not f.HasField("elapsed_realtime_ms"):
            # UNSPECIFIED: a fix without elapsed_realtime_ms is dropped before the boot check, so it neither starts
            # a boot nor counts as "the previous delivered fix" for the next one.
            self.drop(i, "no-elapsed-time")
            return
        tf = f.elapsed_realtime_ms
        boot = self.boots[-1] if self.boots else None
        if boot is None or f.boot_id != boot.boot_id:
            # A window closes when the boot ends. UNSPECIFIED: its fix counts as recorded after every upload of the
            # old boot (so it is pending at the new boot's start), at no time of the old boot's clock.
            if boot is not None:
                self.close_window(boot.last + 0.5)
            self.reset()
            self.boots.append(Boot(f.boot_id, tf))
            boot = self.boots[-1]
        elif tf <= boot.last:
            # UNSPECIFIED: "not above the previous delivered fix's": compared with the previous fix of the boot that
            # passed stage 1 (the latest time of the boot), not with a fix that was itself dropped here, so that
            # the clock of the fixes that go on never runs backwards.
            self.drop(i, "not-after-previous")
            return
        else:
            boot.last = tf
        # Stage 2, §rec-enabled.
        if not p.tracking_enabled:
            self.drop(i, "tracking-disabled")
            return
        # Stage 3, §rec-duty.
        if p.duty_on > 0 and p.duty_off > 0 and (tf - boot.t0) % (p.duty_on + p.duty_off) >= p.duty_on:
            self.drop(i, "duty-off")
            return
        # Stage 4, §rec-filter.
        if not f.HasField("horizontal_accuracy_cm") or f.horizontal_accuracy_cm == 0 \
                or f.horizontal_accuracy_cm >= p.max_accuracy:
            # A fix both inaccurate and at (0, 0) gets `accuracy` (§rec-filter-order).
            self.drop(i, "accuracy")
            return
        if pos(f) == (0, 0):
            self.drop(i, "null-island")
            return
        # The fix passed stage 4: it closes a window of an earlier number (§rec-window), requested or not.
        k = (tf - boot.t0) // p.window if p.window > 0 else None
        if self.window_k is not None and k > self.window_k:
            self.close_window(tf)
        # Stage 5, §rec-requested.
        if f.reason in REQUESTED:
            # A requested fix inside the open window neither joins nor closes it; the window's fix goes through the
            # motion rules later, against an L that may be this (later) fix (§rec-motion: negative differences
            # count as 0).
            self.record(i, f, f.reason)
            return
        # Stage 6, §rec-window.
        if p.window > 0:
            if self.window_best is None:
                self.window_k, self.window_best = k, (i, f)
            elif f.horizontal_accuracy_cm < self.window_best[1].horizontal_accuracy_cm:
                self.drop(self.window_best[0], "window-not-best")
                self.window_best = (i, f)
            else:
                self.drop(i, "window-not-best")
            return
        # Stage 7.
        self.motion(i, f)

    def finish(self):
        # A window closes when the trace ends. UNSPECIFIED: "when the trace ends" is after the last fix and after the
        # uploads its time made due; its fix counts as recorded at the last fix's time all the same, so an upload
        # that the recording itself makes due (the interval, a full count) happens then and takes it. Modelled as
        # an arrival a quarter millisecond after the last fix, in a schedule that runs half a millisecond longer.
        if self.boots:
            self.close_window(self.boots[-1].last + TRACE_END)


def _back_off(failures):
    return min(BACK_OFF_FIRST_MS * (1 << min(failures - 1, 20)), BACK_OFF_MAX_MS)


def compose(pending, max_batch_size):
    """§batch-composition: the newest pending fix as the live fix, the oldest others as the backlog,
    max_batch_size fixes in all. Returns the recorded places the batch carries: backlog oldest first, then live."""
    live = pending[-1]
    backlog = pending[:-1][:max_batch_size - 1]
    return backlog + [live]


def schedule(policy, recorded, boots, results):
    """§upload-schedule, §upload-drain, §upload-boot: the upload attempts over each boot's time line."""
    p = policy
    if p.max_batch_size == 0:
        # UNSPECIFIED: max_batch_size 0 (out of its range 1 to 10000) cannot compose a batch: not understood.
        raise ValueError("max_batch_size 0")
    results = list(results)
    attempts = []
    pending = []        # recorded places, recorded and not yet acknowledged, in the order recorded (oldest first)
    pending_time = {}   # recorded place -> the time the age rule counts from
    failures = 0        # failures in a row (carried over boots, §upload-boot)
    for b, boot in enumerate(boots):
        # This boot's recorded fixes, in the order recorded, each arriving at its own time.
        # UNSPECIFIED: a fix recorded out of time order (a window's fix that closes after a requested fix of the
        # same window) arrives with the one recorded before it: arrival times never decrease.
        arrivals, last = [], boot.t0
        for n, (_, _, rb, rt, _) in enumerate(recorded):
            if rb == b:
                last = max(last, rt)
                arrivals.append((n, last))
        # UNSPECIFIED: pending fixes carried over from an earlier boot have times on another clock; the age rule
        # counts them from this boot's first fix, and a back-off in force at the reboot does not delay the upload
        # that is due at once (the failure count carries over).
        for n in pending:
            pending_time[n] = boot.t0
        # §upload-boot: at the first delivered fix of a later boot, an upload is due at once when anything is
        # pending, the fix recorded at that time included (a fix recorded at exactly the due time is taken).
        st = {"U": boot.t0, "boot_due": b > 0, "since": boot.t0 if pending else None,
              "fail_at": None, "count_at": None, "clock": boot.t0}

        def next_due():
            if st["boot_due"] and pending:
                return boot.t0
            if not pending:
                return None
            if st["fail_at"] is not None:
                return st["fail_at"]
            due = [max(st["U"] + p.upload_interval, st["since"]), pending_time[pending[0]] + p.max_batch_age]
            if len(pending) >= p.max_batch_size:
                due.append(st["count_at"] if st["count_at"] is not None else st["clock"])
            return min(due)

        a = 0
        while True:
            due = next_due()
            nxt = arrivals[a][1] if a < len(arrivals) else None
            end = boot.last + (2 * TRACE_END if b == len(boots) - 1 else 0)
            if due is not None and due <= end and (nxt is None or due < nxt):
                # §upload-drain at time `due`.
                st.update(clock=due, U=due, boot_due=False, fail_at=None, count_at=None)
                while pending:
                    carried = compose(pending, p.max_batch_size)
                    r = results.pop(0) if results else t.UploadAttemptResult(succeeded=True)
                    kind = r.WhichOneof("result")
                    if kind == "succeeded" and r.succeeded:
                        attempts.append((boot.boot_id, due, carried, True))
                        gone = set(carried)
                        pending[:] = [n for n in pending if n not in gone]
                        failures = 0
                        continue
                    attempts.append((boot.boot_id, due, carried, False))
                    if kind == "transport_failed" and r.transport_failed:
                        failures += 1
                        st["fail_at"] = due + _back_off(failures)
                    elif kind == "held_retry_after_ms":
                        # UNSPECIFIED: a HOLD with retry_after_ms waits exactly that long and leaves the failure
                        # count as it is (§back-off counts only transport failures, time-outs and HOLDs without
                        # retry_after_ms, none of which the request can express).
                        st["fail_at"] = due + r.held_retry_after_ms
                    else:
                        raise ValueError(f"upload result not understood: {r}")
                    break
                if not pending:
                    st["since"] = None
            elif nxt is not None:
                n, at = arrivals[a]
                a += 1
                if at > boot.t0:
                    st["boot_due"] = False
                st["clock"] = at
                pending.append(n)
                pending_time[n] = at
                if len(pending) == 1:
                    st["since"] = at
                if len(pending) >= p.max_batch_size and st["count_at"] is None:
                    st["count_at"] = at
            else:
                break
    return attempts


def run(req):
    policy = Policy(req.policy)
    rec = Recorder(policy)
    # §rec-relaunch, §upload-relaunch: a kill and relaunch within one boot is not an event for the rules (the
    # engine and the timer continue from what they stored), so at each point of req.relaunch_before this
    # reading simply keeps its objects. A relaunch in a later boot is the boot change the next fix already brings
    # (§relaunch-boot).
    for i, f in enumerate(req.fixes):
        rec.deliver(i, f)
    rec.finish()
    resp = t.RecordingResponse(vector_id=req.vector_id)
    for i, reason, _, _, _ in rec.recorded:
        resp.recorded.add(index=i, reason=reason)
    for i, code in sorted(rec.dropped):  # "in delivery order"
        resp.dropped.add(index=i, code=code)
    for boot_id, ms, carried, ok in schedule(policy, rec.recorded, rec.boots, req.upload_results):
        resp.uploads.add(boot_id=boot_id, elapsed_realtime_ms=int(ms), recorded=carried, succeeded=ok)
    return resp
