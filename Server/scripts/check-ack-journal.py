#!/usr/bin/env python3
"""Checks a reference server's SQLite database against the ack journal of `locwire-server load --ack-journal`.

Every fix the journal lists as acknowledged (device_id,install_id,sequence,sha256 of its encoding) must be stored
exactly once under its key with the same bytes; and no installation may hold one fix twice under different
sequence numbers (the walk gives each fix its own time_ms, so two rows of an installation with one time_ms and
position are one fix stored twice). Reads the database with Python's sqlite3, not with the server's code, so a
bug in the server's storage cannot hide itself.

Prints the counts (and JSON with --json); exit status 1 when anything is lost, changed or stored twice, or when
the journal is empty (a soak that acknowledged nothing proved nothing), 2 on unreadable input.
"""
import argparse
import hashlib
import json
import sqlite3
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
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

    database = sqlite3.connect(f"file:{args.database}?mode=ro", uri=True)
    stored: dict[tuple[str, int, int], str] = {}
    rows = 0
    for device_id, install_id, sequence, body in database.execute(
        "SELECT device_id, install_id, sequence, CAST(body AS BLOB) FROM fix"
    ):
        rows += 1
        stored[(device_id, install_id, sequence)] = hashlib.sha256(body).hexdigest()
    same_key_twice = rows - len(stored)  # impossible with the primary key, counted all the same
    (stored_twice,) = database.execute(
        """SELECT COALESCE(SUM(n - 1), 0) FROM (
               SELECT COUNT(*) AS n FROM fix
               GROUP BY device_id, install_id, time_ms, latitude_e7, longitude_e7 HAVING n > 1)"""
    ).fetchone()

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
    for name, value in counts.items():
        print(f"{name}: {value}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(counts, file, indent=2, sort_keys=True)
    failed = lost or changed or counts["duplicates"] or conflicts or not journal
    if not journal:
        print("FAIL: the journal acknowledges nothing", file=sys.stderr)
    elif failed:
        print("FAIL: acknowledged fixes lost, changed or stored twice", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
