#!/usr/bin/env python3
"""Writes Tests/LocationWireTests/PeerGoldens.swift: one rich sample of every locationwire.v1 message type, with the
bytes Python's official protobuf (upb) serializes deterministically and the JSON Google's C++ protobuf prints for
those bytes (MessageToJsonString through cpporacle.cc, built here against the system libprotobuf).

    peer_goldens.py [--out FILE] [--descriptors FILE]

The samples are defined below (SAMPLES), by field name, so they survive a schema change that keeps their fields;
a sample naming a field proto/ no longer has fails loudly. scripts/regenerate.sh runs this (and --check compares).
Needs: Python protobuf on upb, g++, pkg-config and libprotobuf-dev (scripts/install-peers.sh).
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile

from google.protobuf import __version__ as PROTOBUF_VERSION
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.internal import api_implementation

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from tools import build_cpp_oracle  # noqa: E402

PACKAGE = "locationwire.v1."

# Each sample: the type's short name and its fields by .proto name. Sub-messages are dicts ({} sets an empty one),
# repeated fields lists, enums a value name or a number (unnamed numbers are kept: proto3 enums are open).
# Explicit-presence fields set to zero are sent. The corners: 64-bit extremes, negative int32 (10-byte varints),
# NaN and -Infinity, characters JSON printers escape (< > & U+2028, controls), non-ASCII and emoji, an unknown
# enum number, an empty sub-message, an empty repeated string, bytes that need base64 padding.
SAMPLES = [
    ("LocationFix", {
        "sequence": 42, "time_ms": 1700000000123, "latitude_e7": -337000000, "longitude_e7": 1512000000,
        "horizontal_accuracy_cm": 470, "altitude_cm": -1234, "vertical_accuracy_cm": 300, "speed_cm_s": 0,
        "speed_accuracy_cm_s": 50, "course_cdeg": 0, "course_accuracy_cdeg": 1500, "elapsed_realtime_ms": 0,
        "reason": "FIX_REASON_MOTION_START", "source": "FIX_SOURCE_GNSS", "battery_percent": 0,
        "battery_state": "BATTERY_STATE_CHARGING", "motion_activity": "MOTION_ACTIVITY_WALKING",
        "motion_confidence_pct": 100, "floor": -2, "age_ms": 1500, "is_mock": True,
        "ellipsoidal_height_cm": 2000000, "pressure_hpa": 1013.25, "boot_id": 2**64 - 1,
    }),
    ("LocationBatch", {
        "device_id": "ios-7F3A<>&\u2028é😀", "batch_id": 2**64 - 1, "boot_id": 1, "sent_at_ms": 1700000060000,
        "sent_elapsed_realtime_ms": 123456, "datum": "COORDINATE_DATUM_WGS84",
        "fixes": [
            {"sequence": 1, "time_ms": 1700000000000, "latitude_e7": 0, "longitude_e7": 1, "reason": 99},
            {"sequence": 2, "time_ms": 1700000001000, "latitude_e7": 900000000, "longitude_e7": -1800000000,
             "pressure_hpa": math.nan, "boot_id": 77},
        ],
        "live_fix": {},
        "compact_fixes": {"sequence": {"deltas": [5, 1], "run_lengths": [1, 2]},
                          "boot_id": {"deltas": [-1], "run_lengths": [3]}, "count": 3},
        "fence_events": [
            {"event_sequence": 7, "region_id": "shop:1234", "kind": "FENCE_EVENT_KIND_DWELL", "dwell_ms": 0,
             "boot_id": 5},
        ],
        "device_status": {
            "observed_at_ms": 1700000059000, "authorization": "LOCATION_AUTHORIZATION_ALWAYS",
            "accuracy": "LOCATION_ACCURACY_APPROXIMATE", "location_services_enabled": True,
            "background_refresh_enabled": False, "low_power_mode": False, "platform": "PLATFORM_IOS",
            "os_version": "17.4.1", "app_version": "2.3",
        },
        "lifecycle_events": [
            {"kind": "LIFECYCLE_EVENT_KIND_RELAUNCHED_BY_SYSTEM", "time_ms": 1700000000000,
             "elapsed_realtime_ms": 5, "relaunch_reason": "RELAUNCH_REASON_REGION_EVENT", "boot_id": 9},
        ],
        "armed_regions": {"assignment_version": 3, "region_ids": ["city:paris", "shop:1"],
                          "failed_region_ids": ["shop:2"], "failure_reasons": ["ARM_FAILURE_REASON_SLOT_LIMIT"]},
        "install_id": 2**64 - 2, "fix_sequence_floor": 41, "event_sequence_floor": 3, "protocol_revision": 1,
    }),
    ("CompactFixes", {
        "sequence": {"deltas": [100, 1], "run_lengths": [1, 4]},
        "time_ms": {"deltas": [1700000000000, 1000], "run_lengths": [1, 4]},
        "latitude_e7": {"deltas": [450000000, 130, -20, -2**63, 2**63 - 1]},
        "horizontal_accuracy_cm": {"deltas": [470], "presence": b"\x01"},
        "is_mock": {},
        "pressure_hpa": {"deltas": [1148013568]},
        "count": 5,
    }),
    ("FixColumn", {"deltas": [-1, 0, 2**63 - 1], "run_lengths": [2**32 - 1, 1, 2], "presence": b"\xff\x01"}),
    ("BatchAck", {
        "batch_id": 12345,
        "fix_results": [
            {"first_sequence": 1, "last_sequence": 10, "result": "ACK_RESULT_ACCEPTED"},
            {"first_sequence": 11, "last_sequence": 11, "result": "ACK_RESULT_REJECTED",
             "reject_reason": "REJECT_REASON_INVALID_COORDINATES", "detail": "lat 95"},
        ],
        "fence_event_results": [{"first_sequence": 3, "last_sequence": 4, "result": "ACK_RESULT_DUPLICATE"}],
        "retry_after_ms": 0, "server_time_ms": 1700000061000, "latest_assignment_version": 9,
        "tracking_policy": {"policy_version": 2, "speed_threshold_cm_s": 0, "max_batch_bytes": 16384,
                            "max_batches_in_flight": 2},
        "outcome": "BATCH_OUTCOME_PROCESSED", "protocol_revision": 1,
        "commands": [{"command_id": 1, "kind": "DEVICE_COMMAND_KIND_RECORD_FIX", "expires_at_ms": 1700000120000},
                     {"command_id": 2, "kind": 9}],
    }),
    ("DeviceCommand", {"command_id": 2**64 - 1, "kind": -1, "expires_at_ms": -1}),
    ("AckRange", {"first_sequence": 2**64 - 1, "last_sequence": 1, "result": 7,
                  "reject_reason": "REJECT_REASON_MOCK_LOCATION", "detail": "x"}),
    ("TrackingPolicy", {
        "policy_version": 4, "speed_threshold_cm_s": 300, "time_interval_ms": 10000, "distance_interval_m": 0,
        "max_horizontal_accuracy_cm": 200000, "upload_interval_ms": 60000, "max_batch_size": 500,
        "max_batch_age_ms": 3600000, "stationary_radius_m": 25, "stop_timeout_ms": 300000,
        "heartbeat_interval_ms": 0, "compact_fixes_accepted": True, "tracking_enabled": False,
    }),
    ("Region", {
        "id": "district:cn-110105", "version": 3,
        "circle": {"center_latitude_e7": 399219000, "center_longitude_e7": 1164436000, "radius_m": 5000},
        "polygon": {"latitudes_e7": [399000000, 399300000, 399200000],
                    "longitudes_e7": [1164000000, 1164400000, 1164800000]},
        "level": "REGION_LEVEL_DISTRICT", "parent_id": "city:beijing", "notify_on_entry": True,
        "notify_on_exit": True, "notify_on_dwell": True, "loitering_delay_ms": 60000, "priority": 10,
        "expires_at_ms": 1800000000000, "refine_on_entry": True, "name": "朝阳区",
    }),
    ("Circle", {"center_latitude_e7": 0, "center_longitude_e7": -1, "radius_m": 2**32 - 1}),
    ("Polygon", {"latitudes_e7": [-2**31, 2**31 - 1, 0], "longitudes_e7": [1]}),
    ("RegionAssignment", {
        "assignment_version": 12, "issued_at_ms": 1700000000000, "expires_at_ms": 1700086400000,
        "mode": "ASSIGNMENT_MODE_DELTA", "base_version": 11,
        "regions": [
            {"id": "shop:1", "version": 1, "circle": {"center_latitude_e7": 1, "center_longitude_e7": 2,
                                                      "radius_m": 150},
             "level": "REGION_LEVEL_SITE", "notify_on_entry": True},
            {"id": "shop:2"},
        ],
        "removed_region_ids": ["shop:0"], "monitoring_enabled": True, "slot_budget": 18,
        "refresh": {"refresh_distance_m": 2000, "anchor_latitude_e7": 10, "anchor_longitude_e7": -10,
                    "on_refine_entry": True, "min_interval_ms": 60000},
        "datum": "COORDINATE_DATUM_GCJ02",
    }),
    ("RefreshPolicy", {"refresh_distance_m": 0, "anchor_latitude_e7": 0, "anchor_longitude_e7": 0}),
    ("RegionRequest", {
        "device_id": "a", "reason": "REGION_REQUEST_REASON_REFINE_ON_ENTRY",
        "current_fix": {"time_ms": 1700000000000, "latitude_e7": 488566000, "longitude_e7": 23522000,
                        "horizontal_accuracy_cm": 1200},
        "platform_slot_limit": 20, "reserved_app_slots": 2,
        "armed": {"assignment_version": 1, "region_ids": ["city:paris"]},
        "refine_region_id": "city:paris", "datum": "COORDINATE_DATUM_BD09", "sent_at_ms": 1700000000500,
        "platform": "PLATFORM_ANDROID",
    }),
    ("FenceEvent", {
        "event_sequence": 1, "region_id": "shop:9", "region_version": 2, "assignment_version": 3,
        "kind": "FENCE_EVENT_KIND_EXIT", "os_event_time_ms": 1700000000000, "detected_at_ms": 1700000120000,
        "trigger_fix": {"time_ms": 1700000000000, "latitude_e7": 1, "longitude_e7": 1,
                        "horizontal_accuracy_cm": 6500, "pressure_hpa": -math.inf},
        "source": "FENCE_EVENT_SOURCE_OS_REGION_MONITOR", "detected_elapsed_realtime_ms": 99, "dwell_ms": 300000,
    }),
    ("DeviceStatus", {"observed_at_ms": -1, "authorization": "LOCATION_AUTHORIZATION_WHEN_IN_USE",
                      "location_services_enabled": False, "platform": "PLATFORM_OTHER", "os_version": "\x00\x1f\x7f"}),
    ("LifecycleEvent", {"kind": "LIFECYCLE_EVENT_KIND_TERMINATED", "time_ms": -2**63, "elapsed_realtime_ms": 2**64 - 1,
                        "relaunch_reason": -1}),
    ("ArmedRegions", {"region_ids": ["", "a:b"]}),
]

HEADER = """\
// swift-format-ignore-file
// (Generated: long hex strings stay on one line each.)

/// Golden vectors made by the peers, not by this codec: for one rich sample of every message type, the bytes
/// are what Python's official protobuf (upb {upb}) serialises deterministically from proto/, and the JSON is
/// what Google's C++ protobuf {cpp} MessageToJsonString prints for those bytes. Generated by
/// Tests/peers/peer_goldens.py (the samples are defined there); run scripts/regenerate.sh after a schema change.
/// The tests require the hand-written codec to reproduce both exactly.
"""


def fill(message, values, where):
    """Sets `values` (field name -> value, as in SAMPLES) on an upb message."""
    fields = message.DESCRIPTOR.fields_by_name
    for name, value in values.items():
        field = fields.get(name)
        if field is None:
            sys.exit(f"peer_goldens.py: {where}: {message.DESCRIPTOR.full_name} has no field {name}")
        here = f"{where}.{name}"
        if field.type == FD.TYPE_MESSAGE:
            if field.is_repeated:
                for index, element in enumerate(value):
                    fill(getattr(message, name).add(), element, f"{here}[{index}]")
            else:
                getattr(message, name).SetInParent()
                fill(getattr(message, name), value, here)
            continue
        convert = (lambda v: enum_number(field, v, here)) if field.type == FD.TYPE_ENUM else (lambda v: v)
        if field.is_repeated:
            getattr(message, name).extend(convert(v) for v in value)
        else:
            setattr(message, name, convert(value))


def enum_number(field, value, where):
    if isinstance(value, int):
        return value
    named = field.enum_type.values_by_name.get(value)
    if named is None:
        sys.exit(f"peer_goldens.py: {where}: {field.enum_type.full_name} has no value {value}")
    return named.number


def swift_raw_string(text):
    """A Swift raw string literal with enough # that nothing in `text` ends it."""
    hashes = "#"
    while '"' + hashes in text:
        hashes += "#"
    return f'{hashes}"{text}"{hashes}'


def render(rows, cpp_version):
    out = [HEADER.format(upb=PROTOBUF_VERSION, cpp=cpp_version)]
    out.append("enum PeerGoldens {\n    struct Sample {\n        let typeName: String\n"
               "        let upbBytesHex: String\n        let cppJSON: String\n    }\n\n"
               "    static let samples: [Sample] = [\n")
    for name, data, json in rows:
        out.append(f'        Sample(\n            typeName: "{name}",\n            upbBytesHex: "{data.hex()}",\n'
                   f"            cppJSON: {swift_raw_string(json)}),\n")
    out.append("    ]\n}\n")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests", "LocationWireTests", "PeerGoldens.swift"))
    parser.add_argument("--descriptors",
                        default=os.path.join(ROOT, "Tests", "Goldens", "locationwire.descriptors.binpb"),
                        help="the descriptor set to build the upb messages from (scripts/regenerate.sh's fresh one)")
    args = parser.parse_args()
    if api_implementation.Type() != "upb":
        sys.exit(f"peer_goldens.py: Python protobuf runs on {api_implementation.Type()}, not upb")

    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_pb2.FileDescriptorSet.FromString(open(args.descriptors, "rb").read()).file:
        pool.Add(file)
    proto = os.path.join(ROOT, "proto")
    v1 = os.path.join(proto, "locationwire", "v1")
    files = sorted(os.path.join(v1, name) for name in os.listdir(v1) if name.endswith(".proto"))
    cpp_version = subprocess.run(["pkg-config", "--modversion", "protobuf"], capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        oracle, problem = build_cpp_oracle(tmp, proto, files, os.path.join(HERE, "cpporacle.cc"))
        if oracle is None:
            sys.exit(f"peer_goldens.py: {problem}")
        rows = []
        try:
            for name, values in SAMPLES:
                message = message_factory.GetMessageClass(pool.FindMessageTypeByName(PACKAGE + name))()
                fill(message, values, name)
                data = message.SerializeToString(deterministic=True)
                kind, json = oracle.ask("bin2json", PACKAGE + name, data)
                if kind != "OK":
                    sys.exit(f"peer_goldens.py: C++ protobuf cannot print {name}: {json}")
                rows.append((name, data, json.decode("utf-8")))
        finally:
            oracle.close()
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(render(rows, cpp_version.strip()))
    print(f"peer_goldens.py: {len(rows)} samples (upb {PROTOBUF_VERSION}, C++ {cpp_version.strip()}) "
          f"-> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
