#!/usr/bin/env python3
"""Builds the seed corpora of the LocationWire fuzz targets.

    make_corpus.py --out DIR [--repo ROOT] [--locwire PATH | --fixtures DIR] [--seeds N] [--count N] [--zip DIR]

Writes DIR/<Target>/<sha1 of the content> for the 8 targets of FuzzOracle.Target, deduplicated by content.

Sources:
  * the conformance vectors (conformance/vectors/*.json) but the session and ledger families: every binary input (`inputHex`, and the binary
    outputs `canonicalHex`, `compactHex` (a CompactFixes) and `rowsHex` (a LocationBatch)) goes to the target of
    its message type; every JSON text (`inputJSON`, `canonicalJSON`) goes to FuzzJSON. Invalid inputs are
    kept: they are the edges of the format.
  * fixtures: `locwire fixtures generate --scenario S --seed N --count M` for every scenario (LocationBatch
    .binpb and .json), or the files of an existing folder (--fixtures).
  * the regression inputs in FuzzTesting/Regressions/<Target>/ (unless --no-regressions).
FuzzValidation (binary) and FuzzJSON (JSON) take any message type, chosen by the first byte
(MessageRegistry.allTypes[byte % allTypes.count]): their inputs are prefixed with the type's index in that order, which is
checked against `locwire types` when locwire is given.

--zip DIR also writes DIR/<Target>_seed_corpus.zip (flat, as OSS-Fuzz and ClusterFuzzLite expect).
"""

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

PACKAGE = "locationwire.v1."
# MessageRegistry.allTypes order (`locwire types`, checked below); make_dictionaries.py imports it from here.
ALL_TYPES = [
    "LocationBatch", "BatchAck", "RegionAssignment", "RegionRequest", "FenceEvent", "TrackingPolicy",
    "LocationFix", "CompactFixes", "FixColumn", "DeviceStatus", "LifecycleEvent", "ArmedRegions", "AckRange",
    "Region", "Circle", "Polygon", "RefreshPolicy", "DeviceCommand",
]
SINGLE_TARGETS = {
    "LocationBatch": "FuzzLocationBatch",
    "BatchAck": "FuzzBatchAck",
    "RegionAssignment": "FuzzRegionAssignment",
    "RegionRequest": "FuzzRegionRequest",
    "FenceEvent": "FuzzFenceEvent",
    "TrackingPolicy": "FuzzTrackingPolicy",
}
TARGETS = list(SINGLE_TARGETS.values()) + ["FuzzValidation", "FuzzJSON"]
SCENARIOS = ["walk", "run", "bike", "drive", "stationary", "offline-backlog", "urban-canyon", "clock-jump"]
MAX_INPUT = 64 * 1024  # FuzzOracle.maxInputBytes: larger inputs are skipped by the targets


class Corpus:
    def __init__(self):
        self.files = {t: {} for t in TARGETS}  # target -> sha1 -> bytes
        self.sources = {t: {} for t in TARGETS}  # target -> source -> count (new inputs)

    def add(self, target, data, source):
        if len(data) > MAX_INPUT:
            return
        digest = hashlib.sha1(data).hexdigest()
        if digest not in self.files[target]:
            self.files[target][digest] = data
            self.sources[target][source] = self.sources[target].get(source, 0) + 1

    def add_binary(self, type_name, data, source):
        index = ALL_TYPES.index(type_name)
        if type_name in SINGLE_TARGETS:
            self.add(SINGLE_TARGETS[type_name], data, source)
        self.add("FuzzValidation", bytes([index]) + data, source)

    def add_json(self, type_name, text, source):
        data = text.encode("utf-8") if isinstance(text, str) else text
        self.add("FuzzJSON", bytes([ALL_TYPES.index(type_name)]) + data, source)


def short_type(full):
    if not full.startswith(PACKAGE) or full[len(PACKAGE):] not in ALL_TYPES:
        sys.exit(f"make_corpus.py: unknown message type {full}")
    return full[len(PACKAGE):]


def add_vectors(corpus, repo):
    files = sorted(glob.glob(os.path.join(repo, "conformance", "vectors", "*.json")))
    if not files:
        sys.exit(f"make_corpus.py: no conformance vectors in {repo}/conformance/vectors")
    for path in files:
        family = os.path.splitext(os.path.basename(path))[0]
        source = f"vectors/{family}"
        for v in json.load(open(path))["vectors"]:
            if "request" in v:  # session and ledger vectors script an engine; they hold no codec input
                continue
            t = short_type(v["messageType"])
            for key in ("inputHex", "canonicalHex"):
                if key in v:
                    corpus.add_binary(t, bytes.fromhex(v[key]), source)
            if "compactHex" in v:  # the expected CompactFixes of a LocationBatch input
                corpus.add_binary("CompactFixes", bytes.fromhex(v["compactHex"]), source)
            if "rowsHex" in v:  # the expected rows of a CompactFixes input, as a LocationBatch
                corpus.add_binary("LocationBatch", bytes.fromhex(v["rowsHex"]), source)
            for key in ("inputJSON", "canonicalJSON"):
                if key in v:
                    corpus.add_json(t, v[key], source)


def check_type_order(locwire):
    out = subprocess.run([locwire, "types"], check=True, capture_output=True, text=True).stdout.split()
    names = [n[len(PACKAGE):] if n.startswith(PACKAGE) else n for n in out]
    if names != ALL_TYPES:
        sys.exit(f"make_corpus.py: `locwire types` order {names} differs from the selector order {ALL_TYPES}")


def generate_fixtures(locwire, directory, seeds, count):
    for scenario in SCENARIOS:
        for seed in range(1, seeds + 1):
            subprocess.run([locwire, "fixtures", "generate", "--scenario", scenario, "--seed", str(seed),
                            "--count", str(count), "--out", directory], check=True, capture_output=True)


def add_fixtures(corpus, directory):
    n = 0
    for path in sorted(glob.glob(os.path.join(directory, "*"))):
        data = open(path, "rb").read()
        if path.endswith(".binpb"):
            corpus.add_binary("LocationBatch", data, "fixtures")
            n += 1
        elif path.endswith(".json"):
            corpus.add_json("LocationBatch", data, "fixtures")
            n += 1
    return n


def add_regressions(corpus, folder):
    for target in TARGETS:
        for path in sorted(glob.glob(os.path.join(folder, target, "*"))):
            name = os.path.basename(path)
            if name.startswith(".") or name.lower().startswith("readme"):
                continue
            corpus.add(target, open(path, "rb").read(), "regressions")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="directory for the <Target>/ corpus folders (replaced)")
    parser.add_argument("--repo", default=os.path.normpath(os.path.join(here, "..", "..")))
    parser.add_argument("--locwire", help="the locwire CLI, to generate fixtures (and check the type order)")
    parser.add_argument("--fixtures", help="a folder of LocationBatch fixtures (*.binpb, *.json) to use instead")
    parser.add_argument("--seeds", type=int, default=3, help="fixture seeds per scenario (default 3)")
    parser.add_argument("--count", type=int, default=5, help="fixture batches per scenario and seed (default 5)")
    parser.add_argument("--no-regressions", action="store_true", help="leave out FuzzTesting/Regressions/")
    parser.add_argument("--zip", help="also write <Target>_seed_corpus.zip files into this directory")
    args = parser.parse_args()

    corpus = Corpus()
    add_vectors(corpus, args.repo)
    if args.fixtures:
        print(f"fixtures: {add_fixtures(corpus, args.fixtures)} files from {args.fixtures}")
    elif args.locwire:
        check_type_order(args.locwire)
        with tempfile.TemporaryDirectory() as tmp:
            generate_fixtures(args.locwire, tmp, args.seeds, args.count)
            print(f"fixtures: {add_fixtures(corpus, tmp)} files from {len(SCENARIOS)} scenarios x {args.seeds} seeds")
    else:
        print("make_corpus.py: no --locwire or --fixtures: the corpora hold no fixtures", file=sys.stderr)
    if not args.no_regressions:
        add_regressions(corpus, os.path.join(args.repo, "FuzzTesting", "Regressions"))

    for target in TARGETS:
        folder = os.path.join(args.out, target)
        os.makedirs(folder, exist_ok=True)
        for old in os.listdir(folder):
            os.remove(os.path.join(folder, old))
        for digest, data in sorted(corpus.files[target].items()):
            with open(os.path.join(folder, digest), "wb") as f:
                f.write(data)
        if args.zip:
            os.makedirs(args.zip, exist_ok=True)
            with zipfile.ZipFile(os.path.join(args.zip, f"{target}_seed_corpus.zip"), "w",
                                 zipfile.ZIP_DEFLATED) as z:
                for digest, data in sorted(corpus.files[target].items()):
                    z.writestr(digest, data)
        sizes = [len(d) for d in corpus.files[target].values()]
        detail = ", ".join(f"{s} {n}" for s, n in sorted(corpus.sources[target].items()))
        print(f"{target}: {len(sizes)} inputs, {sum(sizes)} bytes, largest {max(sizes, default=0)} ({detail})")


if __name__ == "__main__":
    main()
