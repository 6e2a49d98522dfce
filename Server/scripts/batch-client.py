#!/usr/bin/env python3
"""A tiny LocationWire-over-HTTP device for scripts: sends LocationBatch messages as proto3 JSON to one or more
`locwire-server serve` processes and checks their acks. Standard library only.

  batch-client.py interleave --token T --device D URL [URL ...]
      Overlapping batches of one installation (batch k holds fixes 25k+1 .. 25k+50), sent concurrently, batch k to
      URL number k mod len(URLs). Exit 1 unless every batch is PROCESSED and every fix is ACCEPTED exactly once
      and DUPLICATE in every other ack that answers it (with --expect duplicate: DUPLICATE in every ack, for a
      resend of batches already stored). Prints the highest sequence sent.
  batch-client.py time --token T --device D [--fixes 500] [--batches 20] URL
      Sends batches of new fixes one after another and prints the ingest time per batch (median, p90, max).
"""
import argparse
import concurrent.futures
import json
import math
import statistics
import sys
import time
import urllib.error
import urllib.request

BATCH_MEDIA = "application/json; proto=locationwire.v1.LocationBatch"
NOW_MS = int(time.time() * 1000)


def batch(device, install_id, batch_id, first, last):
    """A LocationBatch in proto3 JSON (64-bit integers as strings) with fixes first..last."""
    return {
        "deviceId": device,
        "installId": str(install_id),
        "batchId": str(batch_id),
        "protocolRevision": 1,
        "datum": "COORDINATE_DATUM_WGS84",
        "sentAtMs": str(NOW_MS),
        "fixSequenceFloor": str(first),
        "fixes": [
            {
                "sequence": str(n),
                "timeMs": str(NOW_MS - 3_600_000 + n),
                "latitudeE7": 525_200_000 + n % 1000,
                "longitudeE7": 134_050_000,
            }
            for n in range(first, last + 1)
        ],
    }


def post(url, token, body):
    """POSTs one batch; returns the parsed ack, or raises with the server's answer."""
    request = urllib.request.Request(
        url.rstrip("/") + "/v1/batches",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": BATCH_MEDIA, "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{url}: HTTP {error.code}: {error.read()[:300]!r}")


def interleave(args):
    step, width, count = 25, 50, args.batches
    bodies = [batch(args.device, args.install_id, k + 1, k * step + 1, k * step + width) for k in range(count)]
    highest = (count - 1) * step + width
    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        futures = [pool.submit(post, args.urls[k % len(args.urls)], args.token, body) for k, body in enumerate(bodies)]
        acks = [future.result() for future in futures]
    failures = []
    accepted, answered = {}, {}
    for k, ack in enumerate(acks):
        if ack.get("outcome") != "BATCH_OUTCOME_PROCESSED":
            failures.append(f"batch {k + 1}: outcome {ack.get('outcome')}")
        for answer in ack.get("fixResults", []):
            result = answer.get("result")
            for n in range(int(answer.get("firstSequence", 0)), int(answer.get("lastSequence", 0)) + 1):
                answered[n] = answered.get(n, 0) + 1
                if result == "ACK_RESULT_ACCEPTED":
                    accepted[n] = accepted.get(n, 0) + 1
                elif result != "ACK_RESULT_DUPLICATE":
                    failures.append(f"fix {n}: {result}")
    for n in range(1, highest + 1):
        expected = 1 if n <= step or n > highest - step else 2
        if accepted.get(n, 0) != (1 if args.expect == "fresh" else 0):
            failures.append(f"fix {n} accepted {accepted.get(n, 0)} times ({args.expect} batches)")
        if answered.get(n, 0) != expected:
            failures.append(f"fix {n} answered {answered.get(n, 0)} times, not {expected}")
    by_server = [sum(1 for k in range(count) if k % len(args.urls) == i) for i in range(len(args.urls))]
    print(f"{count} overlapping batches, {by_server} per server: fixes 1..{highest}", file=sys.stderr)
    if failures:
        print("acks disagree:\n  " + "\n  ".join(failures[:20]), file=sys.stderr)
        return 1
    if args.expect == "fresh":
        print(f"every fix 1..{highest} acked ACCEPTED once, DUPLICATE elsewhere", file=sys.stderr)
    else:
        print(f"every fix 1..{highest} acked DUPLICATE", file=sys.stderr)
    print(highest)
    return 0


def timing(args):
    seconds = []
    for k in range(args.batches):
        first = k * args.fixes + 1
        body = batch(args.device, args.install_id, k + 1, first, first + args.fixes - 1)
        started = time.perf_counter()
        ack = post(args.urls[0], args.token, body)
        seconds.append(time.perf_counter() - started)
        if ack.get("fixResults") != [
            {"firstSequence": str(first), "lastSequence": str(first + args.fixes - 1), "result": "ACK_RESULT_ACCEPTED"}
        ]:
            print(f"batch {k + 1}: unexpected ack {json.dumps(ack)[:300]}", file=sys.stderr)
            return 1
    ms = sorted(1000 * s for s in seconds)
    print(
        f"{args.batches} batches of {args.fixes} fixes: median {statistics.median(ms):.1f} ms, "
        f"p90 {ms[math.ceil(0.9 * len(ms)) - 1]:.1f} ms, max {ms[-1]:.1f} ms (HTTP round trip, JSON body)"
    )
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["interleave", "time"])
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--install-id", type=int, default=7)
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--fixes", type=int, default=500)
    parser.add_argument("--expect", choices=["fresh", "duplicate"], default="fresh")
    args = parser.parse_args()
    return interleave(args) if args.mode == "interleave" else timing(args)


if __name__ == "__main__":
    sys.exit(main())
