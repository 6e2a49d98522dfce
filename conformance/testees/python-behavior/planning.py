"""proto/BEHAVIOR.md, "Region planning (server)" (§plan-candidates ... §plan-delta): PlanningRequest in,
PlanningResponse out."""
from pb import t, assignment as apb, common, region as regionpb, id_key
import geometry

DAY_MS = 86400000
A = apb


def live(r, now):
    return not (r.expires_at_ms > 0 and r.expires_at_ms <= now)


def plan(req):
    now = req.now_ms
    p = (req.latitude_e7, req.longitude_e7)
    n = req.slot_budget
    # Live regions, by id.
    # §plan-candidates: each id counts once, as its first region in the catalogue (live or not: settled in the spec
    # after this reading first took the first live one, B22); a region without a circle centre takes no part.
    first = {}
    for r in req.catalogue:
        if geometry.has_circle_centre(r) and r.id not in first:
            first[r.id] = r
    regions = {rid: r for rid, r in first.items() if live(r, now)}
    children = {rid: [] for rid in regions}
    roots = []
    for r in regions.values():
        if r.parent_id and r.parent_id in regions:
            # A region that names itself as parent (invalid, `parent-is-self`) is its own child and no root:
            # never visible. Parent cycles likewise (§plan-parent-cycle).
            children[r.parent_id].append(r)
        else:
            roots.append(r)
    # Open and visible (§plan-candidates). Parent cycles are unreachable from the roots: never visible
    # (§plan-parent-cycle).
    visible, is_open = [], set()
    seen = set()
    queue = list(roots)
    while queue:
        r = queue.pop(0)
        if r.id in seen:
            continue
        seen.add(r.id)
        visible.append(r)
        if geometry.inside(r, p):
            is_open.add(r.id)
            queue.extend(children[r.id])
    gaps = {r.id: geometry.gap(r, p) for r in visible}
    # §plan-rank.
    ranked = sorted(visible, key=lambda r: (r.id not in is_open, -r.priority, gaps[r.id], id_key(r.id)))
    chosen, left = ranked[:n], ranked[n:]
    assigned = []
    for r in chosen:  # §plan-refine
        c = regionpb.Region()
        c.CopyFrom(r)
        c.refine_on_entry = bool(children[r.id]) and r.id not in is_open
        assigned.append(c)
    out = A.RegionAssignment(issued_at_ms=now, slot_budget=n, datum=common.COORDINATE_DATUM_WGS84)
    refresh = out.refresh
    refresh.SetInParent()
    # UNSPECIFIED: `refresh` is always present (on_refine_entry and min_interval_ms are always stated), even when
    # all its fields are defaults; the runner's comparison of an empty RefreshPolicy with an absent one decides.
    refresh.on_refine_entry = any(c.refine_on_entry for c in assigned)
    refresh.min_interval_ms = 0
    if left:  # §plan-refresh
        g = min(gaps[r.id] for r in left)
        refresh.refresh_distance_m = max(100, min(10000000, int(g // 2)))
        refresh.anchor_latitude_e7, refresh.anchor_longitude_e7 = p
    # §plan-expiry.
    expiries = [c.expires_at_ms for c in assigned if c.expires_at_ms > 0]
    out.expires_at_ms = min([now + DAY_MS] + expiries)
    # §plan-delta.
    prev = req.previous if req.HasField("previous") else None
    # UNSPECIFIED: a previous assignment in COORDINATE_DATUM_UNSPECIFIED is read as WGS84 (§datum-default), so it
    # can be the base of a delta.
    if prev is None or prev.mode != A.ASSIGNMENT_MODE_FULL_REPLACEMENT or \
            prev.datum not in (common.COORDINATE_DATUM_WGS84, common.COORDINATE_DATUM_UNSPECIFIED):
        out.assignment_version = prev.assignment_version + 1 if prev is not None else 1
        out.mode = A.ASSIGNMENT_MODE_FULL_REPLACEMENT
        out.regions.extend(assigned)
        return out
    held = {}
    for r in prev.regions:
        held.setdefault(r.id, r)  # UNSPECIFIED: an id twice in the previous assignment: the first counts.
    upserts = [c for c in assigned if c.id not in held or held[c.id] != c]
    ids = {c.id for c in assigned}
    removals = sorted({rid for rid in held if rid not in ids}, key=id_key)
    out.assignment_version = prev.assignment_version + 1
    if len(upserts) + len(removals) < len(assigned):
        out.mode = A.ASSIGNMENT_MODE_DELTA
        out.base_version = prev.assignment_version
        out.regions.extend(upserts)
        out.removed_region_ids.extend(removals)
    else:
        out.mode = A.ASSIGNMENT_MODE_FULL_REPLACEMENT
        out.regions.extend(assigned)
    return out


def run(req):
    resp = t.PlanningResponse(vector_id=req.vector_id)
    resp.assignment.CopyFrom(plan(req))
    return resp
