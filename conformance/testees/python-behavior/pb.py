"""The generated *_pb2 modules (build.sh writes them into build/gen), imported once for every engine module."""
import os
import sys

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "gen")
if GEN not in sys.path:
    sys.path.insert(0, GEN)

from locationwire.conformance.v1 import testee_pb2 as t  # noqa: E402,F401
from locationwire.v1 import common_pb2 as common  # noqa: E402,F401
from locationwire.v1 import device_state_pb2 as device  # noqa: E402,F401
from locationwire.v1 import fence_event_pb2 as fence  # noqa: E402,F401
from locationwire.v1 import location_fix_pb2 as fix  # noqa: E402,F401
from locationwire.v1 import region_assignment_pb2 as assignment  # noqa: E402,F401
from locationwire.v1 import region_pb2 as region  # noqa: E402,F401
from locationwire.v1 import tracking_policy_pb2 as policy  # noqa: E402,F401


def opt(msg, name, default):
    """The value of an explicit-presence field (`oneof optional_<name>`), or its documented default when absent."""
    return getattr(msg, name) if msg.HasField(name) else default


def id_key(region_id):
    """Byte order of ids (UTF-8), which the rules use for every tie."""
    return region_id.encode("utf-8")
