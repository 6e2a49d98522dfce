#!/usr/bin/env python3
"""Runs the behaviour engines straight on conformance/vectors/<family>.json, without the Swift runner, and prints
every vector whose response differs from `expectedResponse` (compared as proto3 JSON, field by field).
Usage: python3 vectorcheck.py [FAMILY ...] [-v] [--id PREFIX]. The runner (`locwire conformance run`) is the judge;
this is for quick iteration."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from google.protobuf import json_format  # noqa: E402
from pb import t  # noqa: E402
import arming, fences, planning, recording  # noqa: E401,E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vectors")
FAMILIES = {"recording": (t.RecordingRequest, t.RecordingResponse, recording.run),
            "fences": (t.FenceRequest, t.FenceResponse, fences.run),
            "planning": (t.PlanningRequest, t.PlanningResponse, planning.run),
            "arming": (t.ArmingRequest, t.ArmingResponse, arming.run)}


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    prefix = args[args.index("--id") + 1] if "--id" in args else ""
    fams = [a for a in args if a in FAMILIES] or list(FAMILIES)
    for fam in fams:
        path = os.path.join(ROOT, fam + ".json")
        if not os.path.exists(path):
            print(f"{fam}: no vectors")
            continue
        req_cls, resp_cls, run = FAMILIES[fam]
        vectors = json.load(open(path))["vectors"]
        ok = 0
        for v in vectors:
            if not v["id"].startswith(prefix):
                continue
            req = json_format.ParseDict(v["request"], req_cls())
            req.vector_id = v["id"]
            exp = json_format.ParseDict(v["expectedResponse"], resp_cls())
            exp.vector_id = v["id"]
            try:
                got = run(req)
            except Exception as e:  # noqa: BLE001
                print(f"ERROR {v['id']}: {type(e).__name__}: {e}")
                continue
            if got == exp:
                ok += 1
                continue
            print(f"FAIL {v['id']}  ({', '.join(v.get('rules', []))})")
            if verbose:
                print("  comment:", v.get("comment", ""))
                g, e = json_format.MessageToDict(got), json_format.MessageToDict(exp)
                for key in sorted(set(g) | set(e)):
                    if g.get(key) != e.get(key):
                        print(f"  {key}:\n    got      {json.dumps(g.get(key))[:1500]}\n    expected {json.dumps(e.get(key))[:1500]}")
        print(f"{fam}: {ok}/{len([v for v in vectors if v['id'].startswith(prefix)])} pass")


if __name__ == "__main__":
    main()
