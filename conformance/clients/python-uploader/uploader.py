#!/usr/bin/env python3
"""A small LocationWire upload client, to run against `locwire-server mock-server`.

It "records" N fixes into a local queue (a JSON file), appends each to a client log (JSON lines, the format
`locwire-server mock-server report --client-log` reads), then uploads the queue in batches to POST /v1/batches
with proto3 JSON bodies (proto/HTTP.md), optionally gzip-compressed. Standard library only.

Correct mode follows proto/README.md "Acknowledgements" and proto/HTTP.md: a fix is deleted only by a 200 whose
body is a BatchAck for a batch it sent (matched by batch_id), outcome PROCESSED, with a range that covers the fix
as ACCEPTED, DUPLICATE, or REJECTED with a reason other than 0, 5 and 6. Everything else (any other status, a
reset, a time-out, a body cut short, an ack it cannot trust) keeps the fix, and the client waits: Retry-After,
retry_after_ms, or its own doubling back-off.

Broken mode (--broken) deletes the whole batch on any 2xx without reading the ack: the bug the mock server
exists to catch.

Exit status: 0 when the queue is empty at the end, 3 when the deadline passed first, 2 for bad arguments or
credentials the server refused.
"""

import argparse
import gzip
import http.client
import json
import os
import random
import sys
import time
import urllib.parse

BATCH_MEDIA_TYPE = "application/json; proto=locationwire.v1.LocationBatch"
PROTOCOL_REVISION = 1
# Results and reasons by their proto3 JSON names; numbers are taken too (proto3 JSON parsers accept both).
RESULTS = {"ACK_RESULT_UNSPECIFIED": 0, "ACK_RESULT_ACCEPTED": 1, "ACK_RESULT_DUPLICATE": 2,
           "ACK_RESULT_REJECTED": 3, "ACK_RESULT_RETRY_LATER": 4}
OUTCOMES = {"BATCH_OUTCOME_UNSPECIFIED": 0, "BATCH_OUTCOME_PROCESSED": 1, "BATCH_OUTCOME_HOLD": 2,
            "BATCH_OUTCOME_TOO_LARGE": 3}
REJECT_REASONS = {"REJECT_REASON_UNSPECIFIED": 0, "REJECT_REASON_INVALID": 1,
                  "REJECT_REASON_INVALID_COORDINATES": 2, "REJECT_REASON_TIMESTAMP_OUT_OF_RANGE": 3,
                  "REJECT_REASON_TOO_OLD": 4, "REJECT_REASON_MOCK_LOCATION": 7}
# REJECTED with these reasons keeps the item: 0 is "no reason" (the ack is ignored), 5 and 6 are revision 0's
# passing conditions (proto/README.md, the item results table).
KEEPING_REJECT_REASONS = {0, 5, 6}
MIN_BATCH_FIXES = 1
# How many unanswered batches the client remembers, so that a late ack still applies (UploadQueue's number);
# an ack of a forgotten batch is ignored as ack-unknown-batch, which is safe.
REMEMBERED_BATCHES = 16


def fatal(message):
    print(f"uploader: {message}", file=sys.stderr)
    sys.exit(2)


class UntrustedAck(Exception):
    """An ack the device ignores as a whole (proto/README.md, "Acks a device ignores"); the code is stable."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def enum_value(value, names):
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return -1  # a value this client does not know


def uint(value, default=0):
    """A proto3 JSON 64-bit unsigned integer: a decimal string, or a number."""
    if value is None:
        return default
    if isinstance(value, int):
        return value
    return int(value)


def checked_ranges(ranges):
    """The ranges of one list as (first, last, result, reason), after the checks of `§ack-ignore`."""
    parsed = []
    for item in ranges or []:
        first, last = uint(item.get("firstSequence")), uint(item.get("lastSequence"))
        result = enum_value(item.get("result", 0), RESULTS)
        reason = enum_value(item.get("rejectReason", 0), REJECT_REASONS)
        if first == 0 or last < first:
            raise UntrustedAck("range-inverted")
        parsed.append((first, last, result, reason))
    for before, after in zip(parsed, parsed[1:]):
        if after[0] < before[0]:
            raise UntrustedAck("ranges-not-sorted")
        if after[0] <= before[1]:
            raise UntrustedAck("ranges-overlap")
    return parsed


def read_ack(body):
    """A BatchAck from proto3 JSON bytes, checked as a device must; raises UntrustedAck."""
    try:
        ack = json.loads(body.decode("utf-8"))
        if not isinstance(ack, dict):
            raise ValueError("not an object")
        batch_id = uint(ack.get("batchId"))
        outcome = enum_value(ack.get("outcome", 0), OUTCOMES)
        fix_ranges = checked_ranges(ack.get("fixResults"))
        event_ranges = checked_ranges(ack.get("fenceEventResults"))
        retry_after_ms = ack.get("retryAfterMs")
        max_batch_bytes = ack.get("maxBatchBytes")
    except UntrustedAck:
        raise
    except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
        raise UntrustedAck("ack-undecodable")
    if outcome == 0:
        raise UntrustedAck("ack-outcome-missing")
    if outcome not in (1, 2, 3):
        raise UntrustedAck("ack-outcome-unknown")
    if outcome != 1 and (fix_ranges or event_ranges):
        raise UntrustedAck("ranges-without-processing")
    if any(result == 3 and reason == 0 for _, _, result, reason in fix_ranges):
        raise UntrustedAck("reject-reason-missing")
    return {"batchId": batch_id, "outcome": outcome, "fixRanges": fix_ranges,
            "retryAfterMs": None if retry_after_ms is None else int(retry_after_ms),
            "maxBatchBytes": None if max_batch_bytes is None else int(max_batch_bytes)}


def deletes(ranges, sequence):
    """Whether the ack's ranges delete this fix: covered as ACCEPTED, DUPLICATE, or REJECTED for good."""
    for first, last, result, reason in ranges:
        if first <= sequence <= last:
            return result in (1, 2) or (result == 3 and reason not in KEEPING_REJECT_REASONS)
    return False  # not covered by any range: keep it, send it again later


class Queue:
    """The device's queue, persisted as one JSON file after every change (write a new file, then rename)."""

    def __init__(self, path):
        self.path = path
        self.state = None

    def load_or_create(self, device_id, rng):
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                self.state = json.load(f)
        else:
            self.state = {"deviceId": device_id, "installId": str(rng.randrange(1, 2**64)), "nextSequence": 1,
                          "fixes": []}
            self.save()

    def save(self):
        temporary = self.path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(self.state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.path)

    @property
    def fixes(self):
        return self.state["fixes"]

    def record(self, fix, client_log):
        """Numbers the fix, persists it with the counter, then logs it: a fix is in the log only once it is
        safely queued, so that the report never expects a fix the client never held."""
        fix["sequence"] = self.state["nextSequence"]
        self.state["nextSequence"] += 1
        self.fixes.append(fix)
        self.save()
        client_log.write(json.dumps({"installId": self.state["installId"], "sequence": fix["sequence"],
                                     "timeMs": fix["timeMs"], "latitudeE7": fix["latitudeE7"],
                                     "longitudeE7": fix["longitudeE7"]}) + "\n")
        client_log.flush()

    def delete(self, sequences):
        if sequences:
            self.state["fixes"] = [fix for fix in self.fixes if fix["sequence"] not in sequences]
            self.save()


class Uploader:
    def __init__(self, args):
        self.args = args
        url = urllib.parse.urlsplit(args.server)
        if url.scheme != "http":
            fatal("only http:// (loopback) servers are supported")
        self.host, self.port = url.hostname, url.port or 80
        self.base_path = url.path.rstrip("/")
        self.rng = random.Random(args.seed)
        self.queue = Queue(args.queue)
        self.batch_fixes = args.batch_size
        # batch_id -> the sequences it carried, for every batch sent and not answered (given up ones included):
        # a late or replayed ack for one of them still applies, to its own items only (`§ack-scope`).
        self.unanswered = {}
        self.failures = 0
        self.stats = {"requests": 0, "deleted": 0}

    def count(self, what):
        self.stats[what] = self.stats.get(what, 0) + 1

    def back_off_seconds(self):
        """1 s after the first failure in a row, doubling, at most --max-back-off (proto/README.md `§back-off`
        says 5 minutes; the demo shortens both with --back-off-ms and --max-back-off)."""
        seconds = self.args.back_off_ms / 1000 * 2 ** min(self.failures - 1, 16)
        return min(seconds, self.args.max_back_off)

    def build_batch(self):
        fixes = sorted(self.queue.fixes, key=lambda fix: fix["sequence"])[: self.batch_fixes]
        batch_id = self.rng.randrange(1, 2**64)
        batch = {
            "deviceId": self.queue.state["deviceId"],
            "batchId": str(batch_id),
            "sentAtMs": str(int(time.time() * 1000)),
            "datum": "COORDINATE_DATUM_WGS84",
            "fixes": [{"sequence": str(fix["sequence"]), "timeMs": str(fix["timeMs"]),
                       "latitudeE7": fix["latitudeE7"], "longitudeE7": fix["longitudeE7"],
                       "horizontalAccuracyCm": fix["horizontalAccuracyCm"], "reason": "FIX_REASON_PERIODIC",
                       "source": "FIX_SOURCE_GNSS"} for fix in fixes],
            "installId": self.queue.state["installId"],
            # The lowest sequence still held: every number below it has left the device (`§sequence-floor`).
            "fixSequenceFloor": str(min(fix["sequence"] for fix in self.queue.fixes)),
            "protocolRevision": PROTOCOL_REVISION,
        }
        return batch_id, batch, {fix["sequence"] for fix in fixes}

    def post(self, batch):
        """Sends one batch; returns (status, headers, connection, response) with the body still unread."""
        body = json.dumps(batch, separators=(",", ":")).encode("utf-8")
        headers = {"Authorization": f"Bearer {self.args.token}", "Content-Type": BATCH_MEDIA_TYPE,
                   "Accept": "application/json", "Connection": "close"}
        if self.args.gzip:
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.args.timeout)
        connection.request("POST", self.base_path + "/v1/batches", body=body, headers=headers)
        response = connection.getresponse()
        return response, connection

    def wait(self, seconds, why):
        self.count(why)
        time.sleep(max(seconds, 0))

    def fail(self, why):
        """No ack (`§no-ack`): keep everything, back off."""
        self.failures += 1
        self.wait(self.back_off_seconds(), why)

    def run(self):
        deadline = time.monotonic() + self.args.deadline
        while self.queue.fixes:
            if time.monotonic() > deadline:
                return False
            batch_id, batch, sequences = self.build_batch()
            self.unanswered[batch_id] = sequences
            while len(self.unanswered) > REMEMBERED_BATCHES:
                del self.unanswered[next(iter(self.unanswered))]
            self.stats["requests"] += 1
            try:
                response, connection = self.post(batch)
            except (OSError, http.client.HTTPException) as error:
                self.fail(f"no-answer:{type(error).__name__}")
                continue
            try:
                if self.args.broken:
                    self.broken_answer(response, batch_id)
                else:
                    self.correct_answer(response, batch_id)
            except (OSError, http.client.HTTPException) as error:
                # A body cut short or a reset while reading it: no ack, keep everything.
                self.fail(f"no-answer:{type(error).__name__}")
            finally:
                connection.close()
        return True

    def broken_answer(self, response, batch_id):
        """The bug: any 2xx deletes the whole batch, the ack unread."""
        if 200 <= response.status < 300:
            sequences = self.unanswered.pop(batch_id)
            self.queue.delete(sequences)
            self.stats["deleted"] += len(sequences)
            self.failures = 0
            self.count("2xx")
            return
        self.retry_after_status(response)

    def retry_after_status(self, response):
        body = response.read()
        status = response.status
        if status in (401, 403):
            fatal(f"the server refused the credentials ({status}): {body[:200]!r}")
        if status == 413:
            self.batch_fixes = max(MIN_BATCH_FIXES, self.batch_fixes // 2)
        retry_after = response.getheader("Retry-After")
        if retry_after is not None and retry_after.strip().isdigit():
            self.failures += 1
            self.wait(min(int(retry_after), self.args.max_back_off), f"status-{status}")
        else:
            self.fail(f"status-{status}")

    def correct_answer(self, response, batch_id):
        if response.status != 200:
            self.retry_after_status(response)
            return
        body = response.read()  # raises IncompleteRead for a body cut short: no ack
        try:
            ack = read_ack(body)
        except UntrustedAck as ignored:
            self.fail(ignored.code)
            return
        acked = ack["batchId"]
        if acked not in self.unanswered:
            self.fail("ack-unknown-batch")
            return
        carried = self.unanswered.pop(acked)
        if acked != batch_id:
            # A late ack of an earlier batch: it applies to that batch's items; this batch got no answer.
            self.count("late-ack")
        if ack["outcome"] == 1:
            deleted = {sequence for sequence in carried if deletes(ack["fixRanges"], sequence)}
            self.queue.delete(deleted)
            self.stats["deleted"] += len(deleted)
            self.failures = 0
            self.count("processed")
        elif ack["outcome"] == 3:
            self.batch_fixes = max(MIN_BATCH_FIXES, self.batch_fixes // 2)
            self.count("too-large")
        else:
            self.count("hold")
            if ack["retryAfterMs"] is None:
                self.fail("hold")
        if ack["retryAfterMs"] is not None:
            self.wait(min(ack["retryAfterMs"] / 1000, self.args.max_back_off), "retry-after-ms")
        if acked != batch_id:
            self.fail("no-answer:stale-ack")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8081", help="base URL of the server")
    parser.add_argument("--token", default="demo-token", help="bearer token")
    parser.add_argument("--device-id", default="python-uploader")
    parser.add_argument("--fixes", type=int, default=200, help="how many fixes to record first")
    parser.add_argument("--batch-size", type=int, default=20, help="fixes per batch")
    parser.add_argument("--queue", default="./uploader-queue.json", help="the queue file (JSON)")
    parser.add_argument("--client-log", default="./client-log.jsonl", help="the client log (JSON lines)")
    parser.add_argument("--gzip", action="store_true", help="gzip the request bodies")
    parser.add_argument("--broken", action="store_true", help="delete on any 2xx without reading the ack")
    parser.add_argument("--seed", type=int, default=None, help="seed for ids and fixes (default: random)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for one answer")
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds before giving up with fixes left")
    parser.add_argument("--back-off-ms", type=float, default=1000.0, help="the first back-off, ms")
    parser.add_argument("--max-back-off", type=float, default=300.0, help="the longest wait, seconds")
    args = parser.parse_args()
    if args.fixes < 0 or args.batch_size < 1:
        parser.error("--fixes must be at least 0 and --batch-size at least 1")

    uploader = Uploader(args)
    uploader.queue.load_or_create(args.device_id, uploader.rng)
    start_ms = int(time.time() * 1000) - args.fixes * 1000
    with open(args.client_log, "a", encoding="utf-8") as client_log:
        for index in range(args.fixes):
            # A walk near Berlin: every fix differs in time and position, so the report can tell them apart.
            fix = {"timeMs": start_ms + index * 1000,
                   "latitudeE7": 525_200_000 + uploader.rng.randrange(-20_000, 20_000) + index * 90,
                   "longitudeE7": 134_050_000 + uploader.rng.randrange(-20_000, 20_000) + index * 60,
                   "horizontalAccuracyCm": 500 + uploader.rng.randrange(0, 1500)}
            uploader.queue.record(fix, client_log)
    finished = uploader.run()
    mode = "broken" if args.broken else "correct"
    left = len(uploader.queue.fixes)
    details = ", ".join(f"{key} {value}" for key, value in sorted(uploader.stats.items()))
    print(f"uploader ({mode}): {left} fixes left in the queue; {details}")
    sys.exit(0 if finished else 3)


if __name__ == "__main__":
    main()
