"""proto/BEHAVIOR.md, "Arming (device)" (§arm-order): ArmingRequest in, ArmingResponse out."""
from pb import t, device, id_key
import geometry


def run(req):
    a = req.assignment
    now = req.now_ms
    resp = t.ArmingResponse(vector_id=req.vector_id)
    armed = resp.armed
    armed.SetInParent()
    armed.assignment_version = a.assignment_version
    monitoring = a.monitoring_enabled if a.HasField("monitoring_enabled") else True
    if not monitoring or (a.expires_at_ms > 0 and a.expires_at_ms <= now):
        # With nothing armed (monitoring off, or the assignment expired) nothing is reported as failed either:
        # both lists are empty, assignment_version as given (§arm-off).
        return resp
    regions = [r for r in a.regions if not (r.expires_at_ms > 0 and r.expires_at_ms <= now)]
    # UNSPECIFIED: "when the position is known" is the presence of ArmingRequest.position; an absent coordinate
    # of a present position reads as 0.
    if req.HasField("position"):
        p = (req.position.latitude_e7, req.position.longitude_e7)
        # A region without a circle centre has no gap: it ranks after the others of its priority (spec, "Arming").
        key = lambda r: (-r.priority,  # noqa: E731
                         geometry.gap(r, p) if geometry.has_circle_centre(r) else float("inf"), id_key(r.id))
    else:
        key = lambda r: (-r.priority, id_key(r.id))  # noqa: E731
    # UNSPECIFIED: an id twice in the assignment (invalid, `duplicate-region-id`) is armed or failed once, by its
    # first occurrence.
    seen, unique = set(), []
    for r in regions:
        if r.id not in seen:
            seen.add(r.id)
            unique.append(r)
    ordered = sorted(unique, key=key)
    s = req.slots
    armed.region_ids.extend(r.id for r in ordered[:s])
    armed.failed_region_ids.extend(r.id for r in ordered[s:])
    armed.failure_reasons.extend(device.ARM_FAILURE_REASON_SLOT_LIMIT for _ in ordered[s:])
    return resp
