#!/usr/bin/env python3
"""LocationWire conformance testee "python-session": an independent implementation of the session rules (a device's
upload queue and a server's ledger), written from the text of proto/README.md, the .proto comments and
conformance/README.md alone, to judge the `session` and `ledger` vector families. It speaks the testee protocol
of proto/locationwire/conformance/v1/testee.proto on stdin and stdout. Run build.sh first.

Every place where the spec text leaves a choice open is marked "UNSPECIFIED:" below; README.md lists them.
"""
import copy, os, struct, sys

from google.protobuf import __version__, descriptor_pb2, message
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.unknown_fields import UnknownFieldSet

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "gen")
sys.path.insert(0, GEN)
from locationwire.conformance.v1 import testee_pb2 as t  # noqa: E402
from locationwire.v1 import batch_ack_pb2 as ackpb  # noqa: E402
from locationwire.v1 import common_pb2 as commonpb  # noqa: E402
from locationwire.v1 import compact_fixes_pb2 as cpb  # noqa: E402
from locationwire.v1 import location_batch_pb2 as batchpb  # noqa: E402
from locationwire.v1 import location_fix_pb2 as fixpb  # noqa: E402
from locationwire.v1 import tracking_policy_pb2 as policypb  # noqa: E402

HELLO = t.HelloResponse(protocol_version=1, implementation="python-session", version=__version__,
                        features=[t.FEATURE_SESSION, t.FEATURE_LEDGER])

REVISION = 1
MIB = 1048576
MIN_LIMIT = 16384  # "Servers MUST NOT set the limit below 16384 bytes" (§batch-size); the floor of §http-shrink
T2000, T2100 = 946684800000, 4102444800000
U64 = (1 << 64) - 1

# ---------------------------------------------------------------------------------------------------------------
# Compact fixes (compact_fixes.proto): canonical encoding and reconstruction.
# ---------------------------------------------------------------------------------------------------------------

# Column N is LocationFix field N (compact_fixes.proto). The fields, their types and presence are read from the
# descriptors of the generated modules (that is, from proto/), never copied, so a new field is a column here at once.
FIX_FIELDS = {f.number: f for f in fixpb.LocationFix.DESCRIPTOR.fields}
COLUMNS = sorted(FIX_FIELDS)
_FD = FieldDescriptor


def _numbers(*types):
    return {n for n, f in FIX_FIELDS.items() if f.type in types}


# Explicit presence is `oneof optional_<name>`; the other fields take no bitmap.
NO_PRESENCE = {n for n, f in FIX_FIELDS.items() if f.containing_oneof is None}
U64_FIELDS = _numbers(_FD.TYPE_UINT64, _FD.TYPE_FIXED64)  # v is the bit pattern
S64_FIELDS = _numbers(_FD.TYPE_INT64, _FD.TYPE_SINT64, _FD.TYPE_SFIXED64)
S32_FIELDS = _numbers(_FD.TYPE_INT32, _FD.TYPE_SINT32, _FD.TYPE_SFIXED32)
U32_FIELDS = _numbers(_FD.TYPE_UINT32, _FD.TYPE_FIXED32)
ENUM_FIELDS = _numbers(_FD.TYPE_ENUM)
BOOL_FIELDS = _numbers(_FD.TYPE_BOOL)
FLOAT_FIELDS = _numbers(_FD.TYPE_FLOAT)


def _future_columns():
    """The CompactFixes numbers reserved right after the last column, for the columns of later fields: a batch
    with one cannot be rebuilt without loss (§no-silent-drop)."""
    compact = descriptor_pb2.DescriptorProto()
    cpb.CompactFixes.DESCRIPTOR.CopyToProto(compact)
    reserved = next(r for r in compact.reserved_range if r.start == COLUMNS[-1] + 1)
    return range(reserved.start, reserved.end)


FUTURE_COLUMNS = _future_columns()


def wrap64(v):
    v &= U64
    return v - (1 << 64) if v >> 63 else v


def _has(fix, num):
    f = FIX_FIELDS[num]
    if num in NO_PRESENCE:
        return True
    return fix.HasField(f.name)


def _value(fix, num):
    v = getattr(fix, FIX_FIELDS[num].name)
    if num in FLOAT_FIELDS:
        return struct.unpack("<I", struct.pack("<f", v))[0]
    return wrap64(int(v))


def _column(values, count, presence_bits):
    """The canonical FixColumn of `values` (the values of the fixes that have the field)."""
    deltas, prev = [], 0
    for v in values:
        deltas.append(wrap64(v - prev))
        prev = v
    plain = cpb.FixColumn(deltas=deltas)
    runs_d, runs_n = [], []
    for d in deltas:
        if runs_d and runs_d[-1] == d:
            runs_n[-1] += 1
        else:
            runs_d.append(d)
            runs_n.append(1)
    col = plain
    ran = cpb.FixColumn(deltas=runs_d, run_lengths=runs_n)
    if ran.ByteSize() < plain.ByteSize():  # run_lengths only when strictly fewer bytes
        col = ran
    if presence_bits is not None:
        bitmap = bytearray((count + 7) // 8)
        for i, b in enumerate(presence_bits):
            if b:
                bitmap[i // 8] |= 1 << (i % 8)
        col.presence = bytes(bitmap)
    return col


def has_unknown_fields(msg):
    stripped = copy.deepcopy(msg)
    stripped.DiscardUnknownFields()
    return stripped.ByteSize() != msg.ByteSize()


def rows_to_compact(fixes):
    out = cpb.CompactFixes(count=len(fixes))
    for num in COLUMNS:
        name = FIX_FIELDS[num].name
        if num in NO_PRESENCE:
            values = [_value(f, num) for f in fixes]
            if all(v == 0 for v in values):
                continue
            getattr(out, name).CopyFrom(_column(values, len(fixes), None))
        else:
            bits = [_has(f, num) for f in fixes]
            if not any(bits):
                continue
            values = [_value(f, num) for f, b in zip(fixes, bits) if b]
            getattr(out, name).CopyFrom(_column(values, len(fixes), None if all(bits) else bits))
    return out


class Malformed(Exception):
    pass


def compact_to_rows(cf, limit=1000000):
    n = cf.count
    if n > limit:
        raise Malformed("compact-too-many-fixes")
    fixes = [fixpb.LocationFix() for _ in range(n)]
    for num in COLUMNS:
        name = FIX_FIELDS[num].name
        if not cf.HasField(name):
            continue
        col = getattr(cf, name)
        if col.run_lengths:
            if len(col.run_lengths) != len(col.deltas) or any(r < 1 for r in col.run_lengths):
                raise Malformed("compact-run-lengths-mismatch")
            if sum(col.run_lengths) > n:
                raise Malformed("compact-column-too-long")
            steps = [d for d, r in zip(col.deltas, col.run_lengths) for _ in range(r)]
        else:
            steps = list(col.deltas)
        m = len(steps)
        if m > n:
            raise Malformed("compact-column-too-long")
        vals, prev = [], 0
        for s in steps:
            prev = wrap64(prev + s)
            vals.append(prev)
        if col.presence:
            if num in NO_PRESENCE or len(col.presence) != (n + 7) // 8:
                raise Malformed("compact-presence-mismatch")
            bits = [bool(col.presence[i // 8] >> (i % 8) & 1) for i in range(len(col.presence) * 8)]
            if any(bits[n:]) or sum(bits[:n]) != m:
                raise Malformed("compact-presence-mismatch")
            holders = [i for i in range(n) if bits[i]]
        else:
            if m not in (0, n):
                raise Malformed("compact-presence-mismatch")
            holders = list(range(m))
        for i, v in zip(holders, vals):
            if num in U64_FIELDS:
                v &= U64
            elif num in S64_FIELDS:
                pass
            elif num in S32_FIELDS or num in ENUM_FIELDS:
                if not -2**31 <= v < 2**31:
                    raise Malformed("compact-value-out-of-range")
            elif num in U32_FIELDS:
                if not 0 <= v < 2**32:
                    raise Malformed("compact-value-out-of-range")
            elif num in BOOL_FIELDS:
                if v not in (0, 1):
                    raise Malformed("compact-value-out-of-range")
                v = bool(v)
            elif num in FLOAT_FIELDS:
                if not 0 <= v < 2**32:
                    raise Malformed("compact-value-out-of-range")
                v = struct.unpack("<f", struct.pack("<I", v))[0]
            setattr(fixes[i], name, v)
    return fixes


def unknown_numbers(msg):
    return {f.field_number for f in UnknownFieldSet(msg)}


COMPACT_NUMBERS = {f.number for f in cpb.CompactFixes.DESCRIPTOR.fields}
COLUMN_NUMBERS = {f.number for f in cpb.FixColumn.DESCRIPTOR.fields}


def hides_compact_field(cf):
    """True when a field that CompactFixes or one of its columns defines arrived with another wire type, which the
    decoder keeps as an unknown field of that number (§binary-rules): the fixes cannot be rebuilt from what was read.
    §compact-column-wire-type says so of a column ("A known column with another wire type than length-delimited");
    UNSPECIFIED: `count`, and `deltas`, `run_lengths` or `presence` of a column, read as absent, would lose values the
    same way ("reading the batch as if the column were absent would store fixes without that field"), so they are
    held alike."""
    if unknown_numbers(cf) & COMPACT_NUMBERS:
        return True
    return any(unknown_numbers(getattr(cf, FIX_FIELDS[n].name)) & COLUMN_NUMBERS
               for n in COLUMNS if cf.HasField(FIX_FIELDS[n].name))


# ---------------------------------------------------------------------------------------------------------------
# The device: an upload queue (SessionRequest).
# ---------------------------------------------------------------------------------------------------------------

BACKOFF_FIRST_MS = 1000    # §back-off: "1 second after the first failure in a row, doubling ..., at most 5 minutes"
BACKOFF_MAX_MS = 300000
KNOWN_COMMANDS = {ackpb.DEVICE_COMMAND_KIND_RECORD_FIX, ackpb.DEVICE_COMMAND_KIND_REQUEST_REGIONS,
                  ackpb.DEVICE_COMMAND_KIND_UPLOAD_NOW}
KNOWN_OUTCOMES = {ackpb.BATCH_OUTCOME_PROCESSED, ackpb.BATCH_OUTCOME_HOLD, ackpb.BATCH_OUTCOME_TOO_LARGE}
DELETING = {ackpb.ACK_RESULT_ACCEPTED, ackpb.ACK_RESULT_DUPLICATE}
RETIRED_REASONS = {5, 6}


def policy_value(policy, name, default):
    return getattr(policy, name) if policy.HasField(name) else default


class Record:
    """What one batch carried (§ack-scope: the device remembers exactly which items each batch in flight held)."""

    def __init__(self, fixes, events, lifecycle, status_version, armed_version, size):
        self.fixes, self.events, self.lifecycle = set(fixes), set(events), set(lifecycle)
        self.status_version, self.armed_version, self.size = status_version, armed_version, size

    def items(self):
        """The items the batch carried, as (kind, key). §http-shrink-alone: "Items are fixes, fence events and
        lifecycle events; device_status and armed_regions report the device's state"."""
        return [("fix", s) for s in sorted(self.fixes)] + [("event", s) for s in sorted(self.events)] \
            + [("lifecycle", i) for i in sorted(self.lifecycle)]

    def state_reports(self):
        return self.status_version >= 0 or self.armed_version >= 0


class Device:
    def __init__(self, req):
        self.device_id, self.install_id = req.device_id, req.install_id
        self.policy = policypb.TrackingPolicy()
        if req.HasField("policy"):
            self.policy.CopyFrom(req.policy)
        self.next_fix, self.next_event = 1, 1
        self.fixes, self.events = {}, {}      # sequence -> LocationFix / FenceEvent
        self.lifecycle = {}                   # local id -> LifecycleEvent, oldest first
        self.next_lifecycle_id = 1
        self.status, self.status_version, self.status_stored = None, 0, 0
        self.armed, self.armed_version, self.armed_stored = None, 0, 0
        self.in_flight = {}                   # batch_id -> Record
        self.given_up = {}                    # batch_id -> Record: remembered for late acks (§no-ack)
        self.hold_until = 0                   # no send before this time: the wait in force (§back-off, §retry-after)
        self.boot = 0                         # the current boot, as the last send step states it (§wait-clock)
        self.failures = 0                     # failures in a row (§back-off)
        self.server_limit = None              # learnt from TOO_LARGE (§http-shrink), for the installation
        self.server_revision = 0              # BatchAck.protocol_revision of the last trusted ack
        self.rows_only = False                # after HOLD UNKNOWN_COMPACT_COLUMN / BATCH_MALFORMED
        self.highest_command = 0              # §commands: "each only when its id is above the highest it has executed"

    # -- state reporting -----------------------------------------------------------------------------------------
    def floors(self):
        ff = min(self.fixes) if self.fixes else self.next_fix
        ef = min(self.events) if self.events else self.next_event
        return ff, ef

    def fill(self, res):
        res.held_fix_sequences.extend(sorted(self.fixes))
        res.held_event_sequences.extend(sorted(self.events))
        res.held_lifecycle_events = len(self.lifecycle)
        res.fix_sequence_floor, res.event_sequence_floor = self.floors()

    # -- steps ---------------------------------------------------------------------------------------------------
    def step(self, st):
        res = t.SessionStepResult()
        kind = st.WhichOneof("action")
        if kind == "record_fix":
            fix = fixpb.LocationFix()
            fix.CopyFrom(st.record_fix)
            fix.sequence = self.next_fix
            self.fixes[self.next_fix] = fix
            res.sequence = self.next_fix
            self.next_fix += 1
        elif kind == "record_fence_event":
            ev = copy.deepcopy(st.record_fence_event)
            ev.event_sequence = self.next_event
            self.events[self.next_event] = ev
            res.sequence = self.next_event
            self.next_event += 1
        elif kind == "record_lifecycle_event":
            self.lifecycle[self.next_lifecycle_id] = copy.deepcopy(st.record_lifecycle_event)
            self.next_lifecycle_id += 1
        elif kind == "update_device_status":
            self.status = copy.deepcopy(st.update_device_status)
            self.status_version += 1
        elif kind == "update_armed_regions":
            self.armed = copy.deepcopy(st.update_armed_regions)
            self.armed_version += 1
        elif kind == "discard_oldest_fixes":
            busy = self.items_in_flight()[0]
            for seq in [s for s in sorted(self.fixes) if s not in busy][:st.discard_oldest_fixes]:
                del self.fixes[seq]
        elif kind == "send_batch_id":
            batch = self.send(st.send_batch_id, st.now_ms, st.boot_id)
            if batch is not None:
                res.batch.CopyFrom(batch)
        elif kind in ("ack", "ack_bytes"):
            if kind == "ack_bytes":
                ack = ackpb.BatchAck()
                try:
                    ack.ParseFromString(st.ack_bytes)
                except message.DecodeError:
                    ack = None
            else:
                ack = st.ack
            if ack is None:
                res.ack_ignored = "ack-undecodable"
                # §back-off: "an answer that is not an ack the device applies" is a failure.
                self.fail(st.now_ms)
            else:
                self.on_ack(ack, st.now_ms, res)
        elif kind == "give_up_batch_id":
            rec = self.in_flight.pop(st.give_up_batch_id, None)
            if rec is not None:
                self.given_up[st.give_up_batch_id] = rec
            # §back-off: "A failure is a transport failure or time-out".
            self.fail(st.now_ms)
        else:
            raise ValueError(f"unknown step {kind!r}")
        self.fill(res)
        return res

    def fail(self, now, retry_after_ms=None):
        """A failure (§back-off): no send before the answer's retry_after_ms, or else the device's own wait, 1 s after
        the first failure in a row, doubling with each further one, at most 5 minutes. Every failure counts in the
        row, one with retry_after_ms too."""
        self.failures += 1
        own = min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS << min(self.failures - 1, 20))
        self.wait(now, own if retry_after_ms is None else retry_after_ms)

    def wait(self, now, ms):
        # "it MAY wait longer": a wait never shortens one in force. The step's now_ms stands for the monotonic clock
        # (§wait-clock); the testee protocol has no other.
        self.hold_until = max(self.hold_until, now + ms)

    def items_in_flight(self):
        fx, ev, lc, sv, av = set(), set(), set(), set(), set()
        for rec in self.in_flight.values():
            fx |= rec.fixes
            ev |= rec.events
            lc |= rec.lifecycle
            sv.add(rec.status_version)
            av.add(rec.armed_version)
        return fx, ev, lc, sv, av

    def policy_limit(self):
        # §batch-size: "Servers MUST NOT set the limit below 16384 bytes, and a device reads a policy's limit below
        # 16384 as 16384."
        return max(policy_value(self.policy, "max_batch_bytes", MIB), MIN_LIMIT)

    def limit(self):
        """The limit in force. §batch-composition: "A limit learnt from TOO_LARGE holds for the installation, wherever
        it is below the policy's." A learnt limit may be under 16384 (§http-shrink: the device "halves on")."""
        lim = self.policy_limit()
        if self.server_limit is not None:
            lim = min(lim, self.server_limit)
        return lim

    # -- building a batch ----------------------------------------------------------------------------------------
    def send(self, batch_id, now, boot_id):
        # §wait-clock: "a new boot ends every wait" (the failure count carries over, BEHAVIOR.md §upload-boot).
        # UNSPECIFIED: the boot is known only from the send steps; a boot_id of 0 (unknown) is taken as no new boot.
        if boot_id and boot_id != self.boot:
            if self.boot:
                self.hold_until = 0
            self.boot = boot_id
        if now < self.hold_until:
            return None
        if len(self.in_flight) >= max(1, policy_value(self.policy, "max_batches_in_flight", 1)):
            return None
        bfx, bev, blc, bsv, bav = self.items_in_flight()
        fixes = [s for s in sorted(self.fixes) if s not in bfx]
        events = [s for s in sorted(self.events) if s not in bev]
        lifecycle = [i for i in self.lifecycle if i not in blc]
        status = self.status is not None and self.status_stored != self.status_version \
            and self.status_version not in bsv
        armed = self.armed is not None and self.armed_stored != self.armed_version \
            and self.armed_version not in bav
        if not (fixes or events or lifecycle or status or armed):
            return None
        max_size = max(1, policy_value(self.policy, "max_batch_size", 500))
        # §batch-composition: the live fix is the newest fix in no batch in flight; the backlog the oldest others,
        # up to max_batch_size - 1.
        live = fixes[-1] if fixes else None
        backlog = fixes[:min(len(fixes) - 1, max_size - 1)] if fixes else []
        compact = bool(self.policy.compact_fixes_accepted and self.server_revision >= 1 and not self.rows_only)
        limit = self.limit()

        def build(c):
            """The batch of a composition c = (backlog, live, events, lifecycle, status, armed): the backlog fixes,
            the live fix (or None), the fence events and lifecycle events it carries, and whether it carries the
            device status and the armed regions."""
            bl, lv, evs, lcs, with_status, with_armed = c
            # §policy-in-acks: "A device states the policy_version of the policy it holds" (0: the default policy).
            b = batchpb.LocationBatch(device_id=self.device_id, batch_id=batch_id, boot_id=boot_id, sent_at_ms=now,
                                      datum=commonpb.COORDINATE_DATUM_WGS84, install_id=self.install_id,
                                      protocol_revision=REVISION, policy_version=self.policy.policy_version)
            ff, ef = self.floors()
            b.fix_sequence_floor, b.event_sequence_floor = ff, ef
            rows = [self.item(self.fixes[s], boot_id) for s in bl]
            if rows:
                if compact and not any(has_unknown_fields(r) for r in rows):
                    b.compact_fixes.CopyFrom(rows_to_compact(rows))
                else:
                    b.fixes.extend(rows)
            if lv is not None:
                b.live_fix.CopyFrom(self.item(self.fixes[lv], boot_id))
            b.fence_events.extend(self.item(self.events[s], boot_id) for s in evs)
            if with_status:
                b.device_status.CopyFrom(self.status)
            b.lifecycle_events.extend(self.item(self.lifecycle[i], boot_id) for i in lcs)
            if with_armed:
                b.armed_regions.CopyFrom(self.armed)
            return b

        def fits(c):
            return build(c).ByteSize() <= limit

        def longest(n, fit_with):
            """The largest k <= n for which fit_with(k) holds (0 when none does); fit_with grows with k."""
            lo, hi = 0, n
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if fit_with(mid):
                    lo = mid
                else:
                    hi = mid - 1
            return lo

        def with_state(c):
            """§http-shrink-alone: "device_status and armed_regions report the device's state and ride in a batch only
            where it keeps within the limit with them": each is added where the batch, with it, keeps within."""
            if status and fits(c[:4] + (True, False)):
                c = c[:4] + (True, False)
            if armed and fits(c[:5] + (True,)):
                c = c[:5] + (True,)
            return c

        none = ([], None, [], [], False, False)

        def alone(kind, key):
            """The composition of one item alone, with nothing else: a fix goes as the live fix (§batch-composition:
            "a lone fix goes as the live fix")."""
            if kind == "fix":
                return ([], key) + none[2:]
            if kind == "event":
                return ([], None, [key], [], False, False)
            return ([], None, [], [key], False, False)

        def beside(kind, key):
            """Each composition of the item with one other thing the device could send in this batch beside it: another
            fix (the newer of the two as the live fix, when max_batch_size lets a batch carry two), a fence event, a
            lifecycle event, the device status, the armed regions. Sizes grow with what is added, so one other thing
            is enough to know whether anything fits beside it."""
            bl, lv, evs, lcs, _, _ = alone(kind, key)
            if kind == "fix" and max_size >= 2:
                for s in fixes:
                    if s != key:
                        yield ([min(s, key)], max(s, key), [], [], False, False)
            for s in events:
                if not (kind == "event" and s == key):
                    yield (bl, lv, sorted(evs + [s]), lcs, False, False)
            for i in lifecycle:
                if not (kind == "lifecycle" and i == key):
                    yield (bl, lv, evs, [j for j in lifecycle if j == i or j in lcs], False, False)
            if status:
                yield (bl, lv, evs, lcs, True, False)
            if armed:
                yield (bl, lv, evs, lcs, False, True)

        def within_limit():
            """The batch when everything held is over the limit in force (§http-shrink-alone)."""
            # "The device sends one item alone, with nothing else, when the first of these does not fit the limit with
            # anything else beside it: the oldest fix, or with no fix the oldest fence event, or else the oldest
            # lifecycle event." UNSPECIFIED: "oldest" and "with no fix" are read of the items in no batch in flight,
            # the ones this batch may carry (§in-flight); "does not fit the limit with anything else beside it" as: no
            # batch of it and one other thing (an item or a state report) keeps within the limit, whether or not it
            # alone does (not "does not fit even alone", nor with state reports left out of "anything else"). Such a
            # batch may exceed the limit ("Two batches may exceed the limit ...: one item alone"); refused, the item is
            # discarded (on_ack).
            first = ("fix", fixes[0]) if fixes else ("event", events[0]) if events else \
                ("lifecycle", lifecycle[0]) if lifecycle else None
            if first is not None:
                pair = next((c for c in beside(*first) if fits(c)), None)
                if pair is None:
                    return alone(*first)
                # A batch of it and one other thing keeps within the limit, so this device's own choice does too, and
                # carries an item (sizes grow with what is added, so some item fits alone); the pair is the fallback.
                c = compose_within()
                return c if c[1] is not None or c[2] or c[3] else pair
            # State reports alone: "Two batches may exceed the limit ...: ... state reports alone when the device holds
            # no item to send". UNSPECIFIED: which of them go when not both keep within the limit ("ride in a batch only
            # where it keeps within the limit with them"). This device sends those that keep within the limit, and when
            # none does, all of them, alone, over the limit: a refusal drops them (on_ack).
            c = with_state(none)
            return c if c[4] or c[5] else none[:4] + (status, armed)

        def compose_within():
            """"Otherwise its batches keep within the limit, their items being its choice (batch-composition)."
            §batch-composition: "the device leaves items for later batches, which ones being its choice, and the live
            fix stays the newest of what it sends"."""
            # This device's choice: the live fix, the lifecycle events and the state reports stay; the backlog is cut to
            # its longest oldest-first prefix that fits, then the fence events. Each of these is kept only as far as it
            # fits: the lifecycle events as their longest prefix, each state report where the batch keeps within the
            # limit with it. When the live fix does not fit even alone, the newest fix that does goes as the live fix,
            # with the fixes before it as the backlog. When the state reports would leave no item in, they go only where
            # they fit after the items.
            lv, older = None, []
            if live is not None and fits(([], live) + none[2:]):
                lv, older = live, backlog
            else:
                for i in range(min(len(fixes), max_size) - 1, -1, -1):
                    if fits(([], fixes[i]) + none[2:]):
                        lv, older = fixes[i], fixes[:i]
                        break

            def compose(state_first):
                nl = longest(len(lifecycle), lambda k: fits(([], lv, [], lifecycle[:k], False, False)))
                c = ([], lv, [], lifecycle[:nl], False, False)
                if state_first:
                    c = with_state(c)
                ne = longest(len(events), lambda k: fits(([], lv, events[:k]) + c[3:]))
                c = ([], lv, events[:ne]) + c[3:]
                nb = longest(len(older), lambda k: fits((older[:k],) + c[1:]))
                c = (older[:nb],) + c[1:]
                return c if state_first else with_state(c)

            c = compose(True)
            if c[1] is None and not c[2] and not c[3]:
                c = compose(False)
            return c

        choice = (backlog, live, events, lifecycle, status, armed)
        if not fits(choice):
            choice = within_limit()
        batch = build(choice)
        bl, lv, evs, lcs, with_status, with_armed = choice
        self.in_flight[batch_id] = Record(list(bl) + ([lv] if lv is not None else []), evs, lcs,
                                          self.status_version if with_status else -1,
                                          self.armed_version if with_armed else -1, batch.ByteSize())
        self.given_up.pop(batch_id, None)
        return batch

    @staticmethod
    def item(msg, boot_id):
        """A copy of an item as it goes in a batch: its boot_id left out (0) when it is the batch's boot."""
        m = copy.deepcopy(msg)
        if m.boot_id == boot_id:
            m.boot_id = 0
        return m

    # -- acks ----------------------------------------------------------------------------------------------------
    @staticmethod
    def check(ack):
        """The stable code of §ack-ignore for an ack the device cannot trust, or None: "when the ack breaks several
        rows, the first row's that applies", in the order of the table (ack-unknown-batch is checked before)."""
        if ack.outcome == ackpb.BATCH_OUTCOME_UNSPECIFIED:
            return "ack-outcome-missing"
        if ack.outcome not in KNOWN_OUTCOMES:
            return "ack-outcome-unknown"
        lists = (ack.fix_results, ack.fence_event_results)
        for ranges in lists:
            for r in ranges:
                if r.first_sequence == 0 or r.last_sequence < r.first_sequence:
                    return "range-inverted"
        for ranges in lists:
            for a, b in zip(ranges, ranges[1:]):
                if b.first_sequence < a.first_sequence:
                    return "ranges-not-sorted"
            for a, b in zip(ranges, ranges[1:]):
                if b.first_sequence <= a.last_sequence:
                    return "ranges-overlap"
        if ack.outcome != ackpb.BATCH_OUTCOME_PROCESSED and (ack.fix_results or ack.fence_event_results):
            return "ranges-without-processing"
        for ranges in lists:
            for r in ranges:
                if r.result == ackpb.ACK_RESULT_REJECTED and r.reject_reason == 0:
                    return "reject-reason-missing"
        return None

    def on_ack(self, ack, now, res):
        rec = self.in_flight.get(ack.batch_id) or self.given_up.get(ack.batch_id)
        code = "ack-unknown-batch" if rec is None else self.check(ack)
        if code:
            # §ack-ignore: "nothing is deleted, no back-off, policy or command is taken from it, and the batch stays in
            # flight"; §back-off: "an ack it ignores" is a failure all the same, so the device's own wait applies.
            res.ack_ignored = code
            self.fail(now)
            return
        self.in_flight.pop(ack.batch_id, None)
        self.given_up.pop(ack.batch_id, None)
        self.server_revision = ack.protocol_revision
        # §ack-effects: policy, assignment hint, commands and retry_after_ms come from every ack not ignored,
        # whatever its outcome.
        if ack.HasField("tracking_policy") and ack.tracking_policy.policy_version > self.policy.policy_version:
            self.policy = copy.deepcopy(ack.tracking_policy)
        # §commands: "executes the commands of an ack in ascending id order, each only when its id is above the
        # highest it has executed", ignoring expired ones and unknown kinds (which therefore do not raise the mark).
        # §command-kinds: RECORD_FIX would record a fix now, but the testee protocol gives no position to record, so
        # it is reported as executed and records nothing; UPLOAD_NOW changes nothing, as sends are scripted and a
        # wait in force still holds.
        for cmd in sorted(ack.commands, key=lambda c: c.command_id):
            if cmd.command_id <= self.highest_command or cmd.kind not in KNOWN_COMMANDS:
                continue
            if cmd.expires_at_ms and now > cmd.expires_at_ms:
                continue
            self.highest_command = cmd.command_id  # §command-once: the mark is raised before the command runs
            res.executed_command_ids.append(cmd.command_id)
        armed_version = self.armed.assignment_version if self.armed is not None else 0
        res.request_regions = ack.latest_assignment_version > armed_version
        retry_after = ack.retry_after_ms if ack.HasField("retry_after_ms") else None
        if ack.outcome == ackpb.BATCH_OUTCOME_PROCESSED:
            deleted = self.apply_ranges(ack.fix_results, rec.fixes, self.fixes)
            deleted += self.apply_ranges(ack.fence_event_results, rec.events, self.events)
            deleted += len(rec.lifecycle)
            for i in rec.lifecycle:
                self.lifecycle.pop(i, None)
            if rec.status_version >= 0:
                self.status_stored = max(self.status_stored, rec.status_version)
            if rec.armed_version >= 0:
                self.armed_stored = max(self.armed_stored, rec.armed_version)
            # §back-off: "A PROCESSED ack that deletes at least one item resets the count"; one "that deletes none of
            # its batch's items (each RETRY_LATER, of a result the device does not know, or covered by no range)" is a
            # failure. An item counts by its result, even when a late ack of another batch deleted it already.
            # "(one whose batch held no item to delete, a device status alone, neither counts nor resets)".
            if deleted:
                self.failures = 0
            elif rec.fixes or rec.events or rec.lifecycle:
                self.fail(now, retry_after)
        elif ack.outcome == ackpb.BATCH_OUTCOME_HOLD:
            if ack.hold_reason in (ackpb.HOLD_REASON_UNKNOWN_COMPACT_COLUMN, ackpb.HOLD_REASON_BATCH_MALFORMED):
                self.rows_only = True
            self.fail(now, retry_after)  # §back-off: "a HOLD" is a failure, with or without retry_after_ms
        elif ack.outcome == ackpb.BATCH_OUTCOME_TOO_LARGE:
            # §back-off: "TOO_LARGE is no failure: the device sends again at once, smaller."
            self.learn_limit(ack, rec.size)
            # §http-shrink-alone: "A batch of one item and nothing else that is refused as too large cannot become
            # smaller, so the device discards that item rather than send it forever, a loss the next batch's floor
            # shows for a fix or a fence event (sequence-floor; a lifecycle event has no number to report); a batch of
            # state reports alone that is refused drops them, to be sent again when they change. A device discards an
            # item for its size only then." One item with a state report is not "one item and nothing else": it is
            # kept (§batch-outcome: "keep everything, save an item that went alone"). Any batch of one item and
            # nothing else counts, whether it went alone by the first-item rule or was all the device had to send.
            items = rec.items()
            if len(items) == 1 and not rec.state_reports():
                self.discard(*items[0])
            elif not items:
                if rec.status_version >= 0:
                    self.status_stored = max(self.status_stored, rec.status_version)
                if rec.armed_version >= 0:
                    self.armed_stored = max(self.armed_stored, rec.armed_version)
        if retry_after is not None:
            self.wait(now, retry_after)  # §retry-after: "with any outcome, holds back the whole queue"

    def learn_limit(self, ack, sent):
        """The limit a TOO_LARGE ack teaches (§http-shrink), for a batch of `sent` bytes as it travelled.

        "A stated limit (maxBatchBytes, max_batch_bytes) below 16384 bytes counts as 16384; a stated limit so counted
        that is not below the size just sent contradicts the refusal and is read as absent. Without a stated limit,
        the new limit is half the size just sent, never under 16384 bytes, unless the batch refused was within 16384
        bytes already (the refusal is then the batch's own, not the limit's), when it halves on." ("Within" is taken
        as at most 16384 bytes; half of an odd size is rounded down, which admits the same batches.) The 408 of
        §http-shrink has no counterpart in the testee protocol."""
        stated = max(MIN_LIMIT, ack.max_batch_bytes) if ack.HasField("max_batch_bytes") else None
        if stated is not None and stated < sent:
            lim = stated
        elif sent > MIN_LIMIT:
            lim = max(MIN_LIMIT, sent // 2)
        else:
            lim = sent // 2
        # §http-shrink-alone: "A limit learnt replaces the one in force only when it is lower." The one in force is
        # the policy's or the learnt one below it (§batch-composition: "A limit learnt from TOO_LARGE holds for the
        # installation, wherever it is below the policy's"). UNSPECIFIED: compared when the ack is applied, and a
        # limit learnt that is not lower is forgotten, so a policy raised later is not held down by it.
        if lim < self.limit():
            self.server_limit = lim

    def discard(self, kind, key):
        """Discards one item for good: a loss, which for a fix or fence event the floor shows (§sequence-floor)."""
        if kind == "fix":
            self.fixes.pop(key, None)
        elif kind == "event":
            self.events.pop(key, None)
        elif kind == "lifecycle":
            self.lifecycle.pop(key, None)

    @staticmethod
    def apply_ranges(ranges, carried, held):
        """Applies §ack-table to the items the batch carried; returns how many the results delete."""
        deleted = 0
        for seq in carried:
            for r in ranges:
                if r.first_sequence <= seq <= r.last_sequence:
                    # §reject-reason-unknown: REJECTED deletes whatever the reason, except the retired 5 and 6.
                    if r.result in DELETING or (r.result == ackpb.ACK_RESULT_REJECTED
                                                and r.reject_reason not in RETIRED_REASONS):
                        held.pop(seq, None)
                        deleted += 1
                    break
        return deleted


def run_session(req):
    dev = Device(req)
    resp = t.SessionResponse(vector_id=req.vector_id)
    resp.steps.extend(dev.step(st) for st in req.steps)
    return resp


# ---------------------------------------------------------------------------------------------------------------
# The server: a ledger of keys (LedgerRequest).
# ---------------------------------------------------------------------------------------------------------------

KNOWN_DATUMS = {commonpb.COORDINATE_DATUM_UNSPECIFIED, commonpb.COORDINATE_DATUM_WGS84,
                commonpb.COORDINATE_DATUM_GCJ02, commonpb.COORDINATE_DATUM_BD09}


class Installation:
    def __init__(self):
        self.stored_fixes, self.rejected_fixes = set(), set()
        self.stored_events, self.rejected_events = set(), set()
        self.fix_floor = self.event_floor = 0


class Ledger:
    def __init__(self, req):
        self.req = req
        self.limit = req.max_batch_bytes or MIB
        self.installs = {}

    def fix_defect(self, fix):
        """The reason a fix is refused for, or None (§item-defects). §reject-order: "A fix with several defects gets
        the first reason of this order: INVALID_COORDINATES, TIMESTAMP_OUT_OF_RANGE, TOO_OLD, MOCK_LOCATION"."""
        r = self.req
        if not (fix.HasField("latitude_e7") and fix.HasField("longitude_e7")) \
                or not -900000000 <= fix.latitude_e7 <= 900000000 \
                or not -1800000000 <= fix.longitude_e7 <= 1800000000 \
                or (fix.latitude_e7 == 0 and fix.longitude_e7 == 0):
            return ackpb.REJECT_REASON_INVALID_COORDINATES
        if not T2000 <= fix.time_ms < T2100:
            return ackpb.REJECT_REASON_TIMESTAMP_OUT_OF_RANGE
        # TOO_OLD from the fix's own time (§reject-order). This server states no retention_days, so no retention
        # bound applies; LedgerRequest.oldest_accepted_time_ms is the age it chooses, as a time.
        if r.oldest_accepted_time_ms and fix.time_ms < r.oldest_accepted_time_ms:
            return ackpb.REJECT_REASON_TOO_OLD
        if r.rejects_mock_fixes and fix.is_mock:
            return ackpb.REJECT_REASON_MOCK_LOCATION
        # §item-defects: "Any other broken rule of an item or a batch ... is reported by validation and stored all
        # the same: a rule reports, it never destroys data."
        return None

    @staticmethod
    def event_defect(ev):
        # §item-defects: "a fence event without `region_id` or `kind` (`INVALID`)"; nothing else refuses an event
        # ("a fence event without `source` ... is ... stored all the same").
        if not ev.region_id or ev.kind == 0:
            return ackpb.REJECT_REASON_INVALID
        return None

    def answer(self, lb):
        r = self.req
        ack = ackpb.BatchAck(server_time_ms=r.now_ms, protocol_revision=REVISION)

        def hold(reason):
            ack.outcome, ack.hold_reason = ackpb.BATCH_OUTCOME_HOLD, reason
            if r.HasField("retry_after_ms"):
                ack.retry_after_ms = r.retry_after_ms
            return ack

        if lb.WhichOneof("form") == "encoded":
            size = len(lb.encoded)
            batch = batchpb.LocationBatch()
            try:
                batch.ParseFromString(lb.encoded)
            except message.DecodeError:
                return hold(ackpb.HOLD_REASON_BATCH_MALFORMED)  # UNSPECIFIED: the answer to bytes that do not decode
        else:
            batch = lb.batch
            size = batch.ByteSize()
        ack.batch_id = batch.batch_id
        # §item-defects: "A server that finds several reasons to hold or refuse a whole batch gives the first of:
        # TOO_LARGE; its own holds (busy, maintenance); UNSUPPORTED_REVISION; DEVICE_UNKNOWN; UNKNOWN_DATUM;
        # UNKNOWN_COMPACT_COLUMN; BATCH_MALFORMED; QUOTA_EXCEEDED."
        if size > self.limit:
            ack.outcome, ack.max_batch_bytes = ackpb.BATCH_OUTCOME_TOO_LARGE, self.limit
            return ack
        if r.hold_everything:
            return hold(r.hold_everything)
        # §revision-zero: "A batch whose protocol_revision is 0 or that has no install_id is of revision 0" and is
        # held. §revision: "A device of a higher revision than the server's is served at the server's".
        if batch.protocol_revision < REVISION or batch.install_id == 0:
            return hold(ackpb.HOLD_REASON_UNSUPPORTED_REVISION)
        # §item-defects: "An empty device_id is a HOLD with HOLD_REASON_DEVICE_UNKNOWN".
        if not batch.device_id or (r.known_devices and batch.device_id not in r.known_devices):
            return hold(ackpb.HOLD_REASON_DEVICE_UNKNOWN)
        if batch.datum not in KNOWN_DATUMS:
            return hold(ackpb.HOLD_REASON_UNKNOWN_DATUM)  # §no-silent-drop
        fixes = list(batch.fixes)
        if batch.HasField("compact_fixes"):
            compact = batch.compact_fixes
            if any(n in FUTURE_COLUMNS for n in unknown_numbers(compact)):
                return hold(ackpb.HOLD_REASON_UNKNOWN_COMPACT_COLUMN)  # §no-silent-drop
            if hides_compact_field(compact):
                return hold(ackpb.HOLD_REASON_BATCH_MALFORMED)  # §compact-column-wire-type
            if fixes:
                return hold(ackpb.HOLD_REASON_BATCH_MALFORMED)  # rows-and-compact
            try:
                fixes = compact_to_rows(compact)
            except Malformed:
                return hold(ackpb.HOLD_REASON_BATCH_MALFORMED)
        if batch.HasField("live_fix"):
            fixes.append(batch.live_fix)
        # §sequence-zero: "A fix or fence event with sequence number 0 has no key ...: a server MUST NOT store it, and
        # its ack has no range for it". The rest of the batch is read as usual (one bad item never blocks the queue).
        fixes = [f for f in fixes if f.sequence != 0]
        events = [e for e in batch.fence_events if e.event_sequence != 0]
        key = (batch.device_id, batch.install_id)
        inst = self.installs.get(key) or Installation()
        fix_res = self.results(fixes, lambda f: f.sequence, self.fix_defect, inst.stored_fixes, inst.rejected_fixes)
        # §item-defects: "a quota counts the fixes a batch would newly store".
        new_fixes = sum(res == ackpb.ACK_RESULT_ACCEPTED for res, _ in fix_res.values())
        if r.fix_quota_per_installation and len(inst.stored_fixes) + new_fixes > r.fix_quota_per_installation:
            return hold(ackpb.HOLD_REASON_QUOTA_EXCEEDED)
        ev_res = self.results(events, lambda e: e.event_sequence, self.event_defect, inst.stored_events,
                              inst.rejected_events)
        # PROCESSED: store (durably, here: in memory) before answering; refusals are kept as durably (§server-durable).
        self.installs[key] = inst
        for results, stored, rejected in ((fix_res, inst.stored_fixes, inst.rejected_fixes),
                                          (ev_res, inst.stored_events, inst.rejected_events)):
            for s, (res, _) in results.items():
                if res == ackpb.ACK_RESULT_ACCEPTED:
                    stored.add(s)
                elif res == ackpb.ACK_RESULT_REJECTED:
                    rejected.add(s)
        # §gap-report: only processed batches count for the floors ("a held or too-large batch stores nothing, its
        # floor included").
        inst.fix_floor = max(inst.fix_floor, batch.fix_sequence_floor)
        inst.event_floor = max(inst.event_floor, batch.event_sequence_floor)
        ack.outcome = ackpb.BATCH_OUTCOME_PROCESSED
        ack.fix_results.extend(ranges_of(fix_res))
        ack.fence_event_results.extend(ranges_of(ev_res))
        # §policy-in-acks: "a server MUST put its policy in the ack of every batch it processes whose policy_version
        # is below its policy's, and MAY leave it out of the others": here, exactly those. Only the version is
        # judged (LedgerRequest.policy_version), so the policy is the default one with that version.
        if r.policy_version and batch.policy_version < r.policy_version:
            ack.tracking_policy.CopyFrom(policypb.TrackingPolicy(policy_version=r.policy_version))
        return ack

    @staticmethod
    def results(items, seq_of, defect_of, stored, rejected):
        """The result of each key in a batch: sequence -> (AckResult, RejectReason)."""
        out = {}
        for item in items:
            s = seq_of(item)
            if s in out:
                continue  # §item-defects: a key twice in one batch gets one result, "decided by its first occurrence"
            if s in stored:
                out[s] = (ackpb.ACK_RESULT_DUPLICATE, 0)  # §fix-key, §event-key
                continue
            why = defect_of(item)
            if s in rejected:
                # §refused-stays-refused: "a resend ... is answered REJECTED again, never stored, with the reason the
                # fix gives now, or INVALID when it gives none".
                out[s] = (ackpb.ACK_RESULT_REJECTED, why or ackpb.REJECT_REASON_INVALID)
            elif why:
                out[s] = (ackpb.ACK_RESULT_REJECTED, why)
            else:
                out[s] = (ackpb.ACK_RESULT_ACCEPTED, 0)
        return out

    def installations(self):
        out = []
        for (dev, inst_id) in sorted(self.installs):
            inst = self.installs[(dev, inst_id)]
            st = t.InstallationState(device_id=dev, install_id=inst_id)
            lost_f = set(range(1, inst.fix_floor)) - inst.stored_fixes - set(inst.rejected_fixes)
            lost_e = set(range(1, inst.event_floor)) - inst.stored_events - set(inst.rejected_events)
            for field, nums in (("stored_fixes", inst.stored_fixes), ("rejected_fixes", inst.rejected_fixes),
                                ("lost_fixes", lost_f), ("stored_events", inst.stored_events),
                                ("rejected_events", inst.rejected_events), ("lost_events", lost_e)):
                getattr(st, field).extend(t.SequenceRange(first=a, last=b) for a, b in spans(nums))
            if st.ByteSize() > len(t.InstallationState(device_id=dev, install_id=inst_id).SerializeToString()):
                out.append(st)
        return out


def spans(nums):
    out = []
    for n in sorted(nums):
        if out and out[-1][1] + 1 == n:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def ranges_of(results):
    """AckRanges over consecutive numbers with the same result, sorted and non-overlapping."""
    out = []
    for s in sorted(results):
        res, why = results[s]
        if out and out[-1].last_sequence + 1 == s and out[-1].result == res and out[-1].reject_reason == why:
            out[-1].last_sequence = s
        else:
            out.append(ackpb.AckRange(first_sequence=s, last_sequence=s, result=res, reject_reason=why))
    return out


def run_ledger(req):
    led = Ledger(req)
    resp = t.LedgerResponse(vector_id=req.vector_id)
    resp.acks.extend(led.answer(b) for b in req.batches)
    resp.installations.extend(led.installations())
    return resp


# ---------------------------------------------------------------------------------------------------------------
# The testee protocol.
# ---------------------------------------------------------------------------------------------------------------

def answer(req):
    stripped = copy.deepcopy(req)  # fields unknown to this testee's schema mean a newer runner
    stripped.DiscardUnknownFields()
    understood = stripped.ByteSize() == req.ByteSize()
    kind = req.WhichOneof("kind")
    if kind == "hello":
        if not understood:
            sys.exit("testee.py: hello has unknown fields: this testee is older than the runner's protocol")
        return t.TesteeResponse(hello=HELLO)
    if kind == "vector":  # a session engine only: no codec checks
        return t.TesteeResponse(vector=t.VectorResponse(vector_id=req.vector.vector_id,
                                                        skipped="python-session runs sessions and ledgers only"))
    if kind in ("session", "ledger"):
        sub = getattr(req, kind)
        cls = t.SessionResponse if kind == "session" else t.LedgerResponse
        if not understood:
            return t.TesteeResponse(**{kind: cls(vector_id=sub.vector_id, runtime_error="request not understood")})
        try:
            resp = run_session(sub) if kind == "session" else run_ledger(sub)
        except Exception as e:  # a bug here costs one vector, never the session
            import traceback
            traceback.print_exc(file=sys.stderr)
            resp = cls(vector_id=sub.vector_id, runtime_error=f"{type(e).__name__}: {e}")
        return t.TesteeResponse(**{kind: resp})
    return t.TesteeResponse(vector=t.VectorResponse(runtime_error="request not understood"))


def main():
    while header := sys.stdin.buffer.read(4):
        size = int.from_bytes(header, "little")
        if len(header) < 4 or len(body := sys.stdin.buffer.read(size)) < size:
            sys.exit("testee.py: input ends inside a frame")
        try:
            resp = answer(t.TesteeRequest.FromString(body))
        except message.DecodeError as e:
            resp = t.TesteeResponse(vector=t.VectorResponse(runtime_error=f"cannot parse TesteeRequest: {e}"))
        out = resp.SerializeToString()
        sys.stdout.buffer.write(len(out).to_bytes(4, "little") + out)
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
