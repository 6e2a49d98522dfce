#!/usr/bin/env python3
"""Checks a reference server's database against the ack journal of `locwire-server load --ack-journal`.

Every fix the journal lists as acknowledged (device_id,install_id,sequence,sha256 of its encoding) must be stored
exactly once under its key with the same bytes; and no installation may hold one fix twice under different
sequence numbers (the walk gives each fix its own time_ms, so two rows of an installation with one time_ms and
position are one fix stored twice). Reads the database with Python's sqlite3 (--database), or PostgreSQL with
psql (--postgres URL, repeated for the shards of a sharded server in the servers' shard order, each owning an
even share of the buckets; or --shard-map FILE, serve's map of URLs and bucket ranges: a fix in two shards is
stored twice, and a row outside its device's shard, `shard_of`, is misplaced), not with the server's code, so a
bug in the server's storage cannot hide itself.

Prints the counts (and JSON with --json); exit status 1 when anything is lost, changed, stored twice or misplaced,
or when the journal is empty (a soak that acknowledged nothing proved nothing), 2 on unreadable input.
"""
import argparse
import collections
import csv
import hashlib
import json
import sqlite3
import subprocess
import sys

# One row per stored fix: device_id, install_id, sequence, SHA-256 of its encoding (hex), time_ms and position.
FIX_COLUMNS = "device_id, install_id, sequence, {digest}, time_ms, latitude_e7, longitude_e7"


def sqlite_fixes(path: str) -> list[tuple]:
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    query = f"SELECT {FIX_COLUMNS.format(digest='CAST(body AS BLOB)')} FROM fix"
    return [(d, i, s, hashlib.sha256(b).hexdigest(), t, la, lo) for d, i, s, b, t, la, lo in database.execute(query)]


def postgres_fixes(url: str) -> list[tuple]:
    columns = FIX_COLUMNS.format(digest="encode(sha256(body), 'hex')")
    query = f"COPY (SELECT {columns} FROM fix) TO STDOUT (FORMAT csv)"
    output = subprocess.run(
        ["psql", url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", query],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [
        (d, int(i), int(s), digest, int(t), int(la) if la else None, int(lo) if lo else None)
        for d, i, s, digest, t, la, lo in csv.reader(output.splitlines())
    ]


def bucket_of(device_id: str) -> int:
    """A device's bucket: the first 4 bytes of SHA-256 of the UTF-8 id, read big-endian."""
    return int.from_bytes(hashlib.sha256(device_id.encode("utf-8")).digest()[:4], "big")


def even_ranges(shard_count: int) -> list[tuple[int, int]]:
    """`serve --postgres-shard` repeated: shard i of N owns [floor(i * 2^32 / N), floor((i + 1) * 2^32 / N))."""
    return [(i * 2**32 // shard_count, (i + 1) * 2**32 // shard_count - 1) for i in range(shard_count)]


def shard_of(device_id: str, ranges: list[tuple[int, int]]) -> int:
    """The shard whose inclusive bucket range holds the device's bucket."""
    bucket = bucket_of(device_id)
    return next(i for i, (first, last) in enumerate(ranges) if first <= bucket <= last)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--database", help="the server's SQLite file")
    where.add_argument("--postgres", action="append", help="a PostgreSQL URL; repeated for each shard")
    where.add_argument("--shard-map", help="serve's --shard-map file: the shards' URLs and bucket ranges")
    parser.add_argument("--journal", required=True)
    parser.add_argument("--json", help="also write the counts as JSON to this file")
    args = parser.parse_args()

    journal: dict[tuple[str, int, int], str] = {}
    conflicts = 0
    lines = 0
    try:
        with open(args.journal, encoding="ascii") as file:
            for number, line in enumerate(file, 1):
                fields = line.rstrip("\n").split(",")
                if len(fields) != 4 or len(fields[3]) != 64:
                    print(f"{args.journal}:{number}: not device,install,sequence,sha256: {line!r}", file=sys.stderr)
                    return 2
                key = (fields[0], int(fields[1]), int(fields[2]))
                lines += 1
                if journal.setdefault(key, fields[3]) != fields[3]:
                    conflicts += 1  # the load tool acknowledged two different fixes under one key
    except OSError as error:
        print(f"cannot read the journal: {error}", file=sys.stderr)
        return 2

    misplaced = 0
    try:
        if args.database:
            fixes = sqlite_fixes(args.database)
        else:
            if args.shard_map:
                with open(args.shard_map, encoding="utf-8") as file:
                    entries = json.load(file)
                urls = [entry["url"] for entry in entries]
                ranges = [(int(entry["firstBucket"], 16), int(entry["lastBucket"], 16)) for entry in entries]
            else:
                urls, ranges = args.postgres, even_ranges(len(args.postgres))
            fixes = []
            for shard, url in enumerate(urls):
                rows = postgres_fixes(url)
                misplaced += sum(1 for fix in rows if shard_of(fix[0], ranges) != shard)
                fixes += rows
    except (OSError, KeyError, ValueError) as error:
        print(f"cannot read the shard map: {error}", file=sys.stderr)
        return 2
    except (sqlite3.Error, subprocess.CalledProcessError) as error:
        print(f"cannot read the stored fixes: {error} {getattr(error, 'stderr', '')}", file=sys.stderr)
        return 2
    stored: dict[tuple[str, int, int], str] = {}
    for device_id, install_id, sequence, digest, *_ in fixes:
        stored[(device_id, install_id, sequence)] = digest
    rows = len(fixes)
    same_key_twice = rows - len(stored)  # impossible with one database's primary key; possible across shards
    # One fix under two sequence numbers: the same installation, time and position twice.
    # Over distinct keys, so that a key stored twice is not counted again here.
    positions = collections.Counter({(d, i, s): (d, i, t, la, lo) for d, i, s, _, t, la, lo in fixes}.values())
    stored_twice = sum(n - 1 for n in positions.values())

    lost = sum(1 for key in journal if key not in stored)
    changed = sum(1 for key, digest in journal.items() if key in stored and stored[key] != digest)
    unacknowledged = sum(1 for key in stored if key not in journal)
    counts = {
        "journal_lines": lines,
        "acknowledged_fixes": len(journal),
        "stored_fixes": rows,
        "lost": lost,
        "changed": changed,
        "duplicates": stored_twice + same_key_twice,
        "journal_conflicts": conflicts,
        "stored_not_acknowledged": unacknowledged,
    }
    if not args.database:
        counts["shards"] = len(urls)
        counts["misplaced"] = misplaced
    for name, value in counts.items():
        print(f"{name}: {value}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(counts, file, indent=2, sort_keys=True)
    failed = lost or changed or counts["duplicates"] or conflicts or misplaced or not journal
    if not journal:
        print("FAIL: the journal acknowledges nothing", file=sys.stderr)
    elif failed:
        print("FAIL: acknowledged fixes lost, changed, stored twice or in the wrong shard", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
