#!/usr/bin/env python3
"""`locwire stats --format json` output counts FIXES fixes, and on a real track (100 fixes or more) the compact
form is smaller than the rows (on a few fixes the columns' overhead can outweigh it).

Usage: .ci/checks/stats_plausible.py STATS.json FIXES
"""
import json
import sys

stats = json.load(open(sys.argv[1]))
fixes = int(sys.argv[2])
if stats["fixes"] != fixes:
    raise SystemExit(f"stats counts {stats['fixes']} fixes, the import {fixes}")
encoding = stats["encoding"]
if fixes >= 100 and encoding["compactBytes"] >= encoding["rowBytes"]:
    raise SystemExit(f"the compact form is not smaller: {encoding}")
print("stats:", fixes, "fixes,", stats["distanceM"], "m,", round(encoding["compactBytes"] / fixes, 2), "bytes/fix compact")
