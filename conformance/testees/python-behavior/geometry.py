"""proto/BEHAVIOR.md, "Geometry": distance (§distance), inside a region (§region-inside, §polygon-inside), the
distance past the boundary (§boundary-distance) and the gap (§region-gap). Positions are (latitude_e7,
longitude_e7) pairs of ints."""
import math

R = 6371008.8  # §distance: the sphere's radius, metres


def rad(e7):
    # §distance: latitude_e7 × 10⁻⁷ × π / 180, in that order.
    return e7 * 1e-7 * math.pi / 180


def distance(a, b):
    """§distance: the haversine great-circle distance in metres between two (lat_e7, lon_e7) positions."""
    p1, l1 = rad(a[0]), rad(a[1])
    p2, l2 = rad(b[0]), rad(b[1])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin((l2 - l1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(min(h, 1.0)))


def centre(region):
    # Circle's centre: both coordinates are required (oneof presence); an absent one reads as 0.
    # UNSPECIFIED: a circle without a centre coordinate. Read as 0 (the proto3 default), never an error.
    return (region.circle.center_latitude_e7, region.circle.center_longitude_e7)


def unit(pos):
    phi, lam = rad(pos[0]), rad(pos[1])
    return (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))


def _dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


class Tangent:
    """§polygon-inside: the gnomonic projection onto the plane tangent at the circle's centre."""

    def __init__(self, c_pos):
        phi, lam = rad(c_pos[0]), rad(c_pos[1])
        self.c = unit(c_pos)
        self.e = (-math.sin(lam), math.cos(lam), 0.0)
        self.n = (-math.sin(phi) * math.cos(lam), -math.sin(phi) * math.sin(lam), math.cos(phi))

    def project(self, pos):
        """(x, y), or None when c·p ≤ 0 (the far hemisphere: outside)."""
        p = unit(pos)
        cp = _dot(self.c, p)
        if cp <= 0:
            return None
        return (_dot(self.e, p) / cp, _dot(self.n, p) / cp)


def polygon_vertices(region):
    poly = region.polygon
    # UNSPECIFIED: latitudes_e7 and longitudes_e7 of different lengths (invalid by validation). The pairs up to the
    # shorter list are the vertices.
    return list(zip(poly.latitudes_e7, poly.longitudes_e7))


def has_polygon(region):
    # §polygon-inside: a polygon with fewer than 3 vertices or lists of different lengths is ignored, the region is
    # its circle (settled in the spec after this reading first took any present polygon, B26).
    if not region.HasField("polygon"):
        return False
    poly = region.polygon
    if len(poly.latitudes_e7) != len(poly.longitudes_e7) or len(poly.latitudes_e7) < 3:
        return False
    # So is a polygon with a vertex on the far hemisphere of the circle's centre (§polygon-unprojectable).
    return _projected_ring(region, Tangent(centre(region))) is not None


def has_circle_centre(region):
    """Whether the region has a circle with both centre coordinates: without one it can be neither armed nor
    planned (spec: "Fences", State, and §plan-candidates)."""
    c = region.circle
    return (region.HasField("circle") and c.HasField("center_latitude_e7")
            and c.HasField("center_longitude_e7"))


def _projected_ring(region, tangent):
    ring = []
    for v in polygon_vertices(region):
        q = tangent.project(v)
        if q is None:
            # A vertex on the far hemisphere of the circle's centre cannot be projected (impossible for a valid
            # region): has_polygon ignores such a polygon (§polygon-unprojectable).
            return None
        ring.append(q)
    return ring


def inside_polygon(region, pos):
    """§polygon-inside: the ray-crossing test in the tangent plane at the circle's centre."""
    tangent = Tangent(centre(region))
    q = tangent.project(pos)
    if q is None:
        return False
    ring = _projected_ring(region, tangent)
    if not ring:
        return False
    x, y = q
    inside = False
    n = len(ring)
    for i in range(n):
        a, b = ring[i], ring[(i + 1) % n]
        if (a[1] > y) != (b[1] > y) and x < a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]):
            inside = not inside
    return inside


def inside(region, pos):
    """§region-inside: within the circle (distance at most radius_m) and, with a polygon, inside it too."""
    if distance(centre(region), pos) > region.circle.radius_m:
        return False
    if has_polygon(region):
        return inside_polygon(region, pos)
    return True


def _segment_distance(q, a, b):
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    qx, qy = q
    ll = dx * dx + dy * dy
    if ll == 0:
        return math.hypot(qx - ax, qy - ay)
    s = ((qx - ax) * dx + (qy - ay) * dy) / ll
    s = max(0.0, min(1.0, s))
    return math.hypot(qx - (ax + s * dx), qy - (ay + s * dy))


def boundary_distance(region, pos):
    """§boundary-distance of a position outside the region: past the circle without a polygon; with one, the larger
    of that and R times the least tangent-plane distance to a projected edge, which is 0 inside the polygon and
    infinity when c·p ≤ 0 (§boundary-outside-circle: a vertex outside the circle makes the circle's term count)."""
    past_circle = distance(centre(region), pos) - region.circle.radius_m
    if not has_polygon(region):
        return past_circle
    tangent = Tangent(centre(region))
    q = tangent.project(pos)
    if q is None:
        return math.inf
    if inside_polygon(region, pos):
        return max(past_circle, 0.0)
    ring = _projected_ring(region, tangent)
    n = len(ring)
    return max(past_circle, R * min(_segment_distance(q, ring[i], ring[(i + 1) % n]) for i in range(n)))


def gap(region, pos):
    """§region-gap: max(0, d(centre, p) − radius_m)."""
    return max(0.0, distance(centre(region), pos) - region.circle.radius_m)
