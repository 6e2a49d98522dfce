#!/usr/bin/env bash
# The reference device judged by others, without faults: `locwire device run` against `locwire-server serve`
# (SQLite, examples/korita-regions.geojson as its catalogue) on the real track, with the default policy and with
# examples/walker-policy.json. The fixes the server stores (read back over HTTP) must be exactly those
# `locwire simulate record` records, the fence events it stores exactly those `locwire simulate fences` reports for
# the assignment the server answered, and the device's timer must upload as often as the simulation's; and the
# same again with the device stopped and started on its store every 37 fixes. Then the device's region decisions:
# with a hierarchical catalogue (examples/korita-hierarchy.geojson, more regions than 20 iOS slots hold) the planner
# answers refine-on-entry regions, deltas and refresh distances, and the Python reading of the rules
# (conformance/testees/python-behavior) judges from the device's region log what it should have held, armed and
# asked for, and replays the fence events the server must store (`device_runs.py regions`; needs protoc).
#
#   scripts/device-e2e.sh
#
# Prints one JSON line per run. Exit status: 0 both agree, 1 a difference (printed), 2 something could not run.
# LOCWIRE and LOCWIRE_SERVER name built binaries; otherwise the debug builds are made.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python3 "$root/scripts/device_runs.py" compare
python3 "$root/scripts/device_runs.py" compare --policy "$root/examples/walker-policy.json"
# The same, relaunched every 37 fixes (a relaunch is not an event for the rules: the same must be stored).
python3 "$root/scripts/device_runs.py" compare --policy "$root/examples/walker-policy.json" --relaunch-every 37
# The region decisions, judged by the Python reading: held sets (full and delta), arming, fence events, request reasons.
python3 "$root/scripts/device_runs.py" regions
# The same with the assignment expiring before fix 100 and the server down for the next 15: the expired regions are
# disarmed, reporting nothing, while the device's EXPIRED requests go unanswered (§fence-assignment, §arm-off).
python3 "$root/scripts/device_runs.py" regions --outage-at-expiry 100
