#!/usr/bin/env python3
"""A small LocationWire upload client, to run against `locwire-server mock-server`.

It records N fixes into a local queue (a JSON file), appends each to a client log (JSON lines, the format
`locwire-server mock-server report --client-log` reads), then uploads the queue in batches to POST /v1/batches
as proto3 JSON (proto/HTTP.md), optionally gzip-compressed. Standard library only; written from the text of
proto/README.md and proto/HTTP.md alone, as an independent reading of them.

The correct client follows every device rule of those pages that an upload touches: the answer table
(`§http-device-answers`), acks (`§ack-table`, `§ack-ignore`, `§http-late-ack`), waits (`§back-off`,
`§http-retry-after`, `§wait-clock`), sizes (`§batch-size`, `§http-shrink`), credentials, content coding,
policy, commands and region hints. `--mutant NAME` breaks exactly one of those choices (`--list-mutants`), so
that a judge can show that the mock server, or a vector file (`--run-vectors`), catches each deviation.

Exit status: 0 when the queue is empty at the end, 3 when the deadline passed first, 2 for bad arguments or
credentials the server refused. With --run-vectors: 0 when no vector failed, 1 otherwise.

`uploader.py interleave URL...` is a scripted check for servers that share a database, not a device: overlapping
batches of one installation sent at once to several servers, each fix acked ACCEPTED exactly once
(Server/scripts/postgres-two-servers.sh; `uploader.py interleave --help`).
"""

import argparse
import base64
import calendar
import concurrent.futures
import dataclasses
import datetime
import decimal
import gzip
import hashlib
import http.client
import json
import os
import random
import re
import sys
import time
import urllib.parse
import zlib
from typing import List, Optional, Tuple

BATCH_MEDIA_TYPE = "application/json; proto=locationwire.v1.LocationBatch"
REGION_MEDIA_TYPE = "application/json; proto=locationwire.v1.RegionRequest"
PROTOCOL_REVISION = 1
DEFAULT_MAX_BATCH_BYTES = 1048576  # `§batch-size`
MIN_MAX_BATCH_BYTES = 16384  # `§http-shrink`: never build for less
MAX_MAX_BATCH_BYTES = 67108864  # the field's stated range
DEFAULT_MAX_BATCH_SIZE = 500  # TrackingPolicy.max_batch_size
FIRST_BACK_OFF_S = 1.0  # `§back-off`: 1 s after the first failure in a row, doubling ...
LONGEST_BACK_OFF_S = 300.0  # ... at most 5 minutes
LONGEST_STATED_WAIT_S = 86400.0  # `§http-retry-after`: a device MAY cap a wait at a day
PLATFORM_SLOT_LIMIT = 20
# How many given-up batches the client remembers, so that a late ack of one still applies to its own items
# (`§no-ack`, `§http-late-ack`); an ack of a forgotten batch is ignored as ack-unknown-batch, which is safe.
REMEMBERED_BATCHES = 16
HTTP_ANSWER_REQUEST = "locationwire.conformance.v1.HttpAnswerRequest"

MUTANTS = {
    "delete-on-2xx": "deletes the whole batch on any 2xx without reading the ack (§http-only-200-deletes)",
    "no-back-off": "sends again at once after every failure (§back-off)",
    "nothing-deleted-no-wait": "a PROCESSED ack that deletes nothing resets the failure count (§back-off)",
    "retry-after-seconds-only": "takes an HTTP-date Retry-After as absent (§http-retry-after)",
    "retry-after-401": "after 401/403 backs off and sends again with the same token (§http-credentials)",
    "ignore-413-limit": "after a 413 keeps its current size limit (§http-size)",
    "same-size-after-408": "after a 408 keeps its size (§http-shrink)",
    "resend-single-item": "keeps sending a single fix answered too large (§http-shrink-alone)",
    "keep-coding-after-415": "keeps gzip after a 415 (§http-content-coding)",
    "resend-same-bytes-after-400": "resends the identical body after a 400 (§http-device-answers)",
    "apply-cut-body": "applies a 200 whose body was cut short when its bytes parse (§http-whole-body)",
    "apply-other-ack": "applies a 200's ack to the batch just sent when it names another batch (§http-late-ack)",
    "commands-twice": "executes every command of every ack, with no mark (§commands)",
    "no-policy-version": "never states policyVersion in its batches (§policy-in-acks)",
    "number-from-zero": "numbers fixes from 0 (§sequence-zero)",
    "keep-unknown-reject": "keeps fixes REJECTED with a reason it does not know (§reject-reason-unknown)",
    "ask-regions-on-hint": "asks for regions on every hint, even after a 404 (§http-regions-absent)",
}

# Enum values by their proto3 JSON names. A name the client does not know is kept as the name itself and read as
# an unknown value (enums are open, `§open-enums`): an unknown result keeps the item, an unknown reject reason
# deletes it (`§reject-reason-unknown`), an unknown outcome makes the ack ignored, an unknown command is skipped.
ACCEPTED, DUPLICATE, REJECTED = 1, 2, 3
PROCESSED, HOLD, TOO_LARGE = 1, 2, 3
RECORD_FIX, REQUEST_REGIONS, UPLOAD_NOW = 1, 2, 3
RESULTS = {"ACK_RESULT_UNSPECIFIED": 0, "ACK_RESULT_ACCEPTED": 1, "ACK_RESULT_DUPLICATE": 2,
           "ACK_RESULT_REJECTED": 3, "ACK_RESULT_RETRY_LATER": 4}
OUTCOMES = {"BATCH_OUTCOME_UNSPECIFIED": 0, "BATCH_OUTCOME_PROCESSED": 1, "BATCH_OUTCOME_HOLD": 2,
            "BATCH_OUTCOME_TOO_LARGE": 3}
# 5 and 6 are reserved; their revision-0 names still map to them, so that such a rejection keeps its items.
REJECT_REASONS = {"REJECT_REASON_UNSPECIFIED": 0, "REJECT_REASON_INVALID": 1,
                  "REJECT_REASON_INVALID_COORDINATES": 2, "REJECT_REASON_TIMESTAMP_OUT_OF_RANGE": 3,
                  "REJECT_REASON_TOO_OLD": 4, "REJECT_REASON_DEVICE_UNKNOWN": 5,
                  "REJECT_REASON_QUOTA_EXCEEDED": 6, "REJECT_REASON_MOCK_LOCATION": 7}
KNOWN_REJECT_REASONS = {1, 2, 3, 4, 7}
KEEPING_REJECT_REASONS = {0, 5, 6}  # 0 never gets here (reject-reason-missing); 5 and 6 are revision 0's passing ones
HOLD_REASONS = {"HOLD_REASON_UNSPECIFIED": 0, "HOLD_REASON_SERVER_BUSY": 1, "HOLD_REASON_DEVICE_UNKNOWN": 2,
                "HOLD_REASON_QUOTA_EXCEEDED": 3, "HOLD_REASON_UNKNOWN_COMPACT_COLUMN": 4,
                "HOLD_REASON_UNKNOWN_DATUM": 5, "HOLD_REASON_UNSUPPORTED_REVISION": 6,
                "HOLD_REASON_BATCH_MALFORMED": 7}
COMMAND_KINDS = {"DEVICE_COMMAND_KIND_UNSPECIFIED": 0, "DEVICE_COMMAND_KIND_RECORD_FIX": 1,
                 "DEVICE_COMMAND_KIND_REQUEST_REGIONS": 2, "DEVICE_COMMAND_KIND_UPLOAD_NOW": 3}


def fatal(message):
    print(f"uploader: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------------------------------------------
# Reading a BatchAck from proto3 JSON (proto/README.md "JSON"), strictly: a body that is not a valid encoding is
# ack-undecodable, and a member the message does not have is refused (`§json-unknown-members`).

class Undecodable(Exception):
    pass


class JsonObject(list):
    """A JSON object as its members in text order, so that a member given twice is seen, not silently merged."""


U32, U64, I64, BOOL, STRING = (0, 2**32 - 1), (0, 2**64 - 1), (-2**63, 2**63 - 1), "bool", "string"
I32 = (-2**31, 2**31 - 1)
JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def enum(names):
    return ("enum", names)


def repeated(kind):
    return ("repeated", kind)


def message(fields):
    """A message's fields by .proto name; a reader takes the JSON (lowerCamelCase) name or the .proto name."""
    by_name = {}
    for proto_name, kind in fields.items():
        head, *rest = proto_name.split("_")
        json_name = head + "".join(part[:1].upper() + part[1:] for part in rest)
        by_name[proto_name] = by_name[json_name] = (json_name, kind)
    return ("message", by_name)


ACK_RANGE = message({"first_sequence": U64, "last_sequence": U64, "result": enum(RESULTS),
                     "reject_reason": enum(REJECT_REASONS), "detail": STRING})
DEVICE_COMMAND = message({"command_id": U64, "kind": enum(COMMAND_KINDS), "expires_at_ms": I64})
TRACKING_POLICY = message(dict(
    {name: U32 for name in ("speed_threshold_cm_s", "time_interval_ms", "distance_interval_m",
                            "max_horizontal_accuracy_cm", "upload_interval_ms", "max_batch_size",
                            "max_batch_age_ms", "stationary_radius_m", "stop_timeout_ms", "heartbeat_interval_ms",
                            "max_batch_bytes", "max_batches_in_flight", "fix_window_ms", "duty_cycle_on_ms",
                            "duty_cycle_off_ms", "fence_hysteresis_m", "fence_confirm_ms", "fence_max_accuracy_cm",
                            "retention_days")},
    policy_version=U64, compact_fixes_accepted=BOOL, tracking_enabled=BOOL))
BATCH_ACK = message({"batch_id": U64, "fix_results": repeated(ACK_RANGE), "fence_event_results": repeated(ACK_RANGE),
                     "retry_after_ms": U32, "server_time_ms": I64, "latest_assignment_version": U64,
                     "tracking_policy": TRACKING_POLICY, "outcome": enum(OUTCOMES), "hold_reason": enum(HOLD_REASONS),
                     "max_batch_bytes": U32, "protocol_revision": U32, "commands": repeated(DEVICE_COMMAND)})


def parse_json_text(body):
    """Strict RFC 8259 text in UTF-8 (no BOM, no NaN, no lone surrogate, at most 100 levels)."""
    def refuse_constant(name):
        raise ValueError(f"{name} is not JSON")
    try:
        value = json.loads(body.decode("utf-8"), object_pairs_hook=JsonObject, parse_float=decimal.Decimal,
                           parse_constant=refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Undecodable(f"json-syntax: {error}")
    check_json_value(value, 1)
    return value


def check_json_value(value, depth):
    """Nesting at most 100 levels, the top-level value being level 1; no unpaired surrogate in any string."""
    if isinstance(value, list):
        if depth > 100:
            raise Undecodable("json-depth-limit-exceeded")
        # An object's members are (name, value) pairs: the names are strings, the values one level deeper.
        elements = [part for member in value for part in member] if isinstance(value, JsonObject) else value
        for element in elements:
            check_json_value(element, depth + 1)
    elif isinstance(value, str) and any("\ud800" <= char <= "\udfff" for char in value):
        raise Undecodable("json-syntax: unpaired surrogate")


def read_integer(value, bounds, path):
    if isinstance(value, bool):
        raise Undecodable(f"json-type-mismatch at {path}")
    if isinstance(value, str):
        if not JSON_NUMBER.fullmatch(value):
            raise Undecodable(f"json-invalid-value at {path}")
        value = decimal.Decimal(value)
    if isinstance(value, decimal.Decimal):
        # An exponent this large is out of every integer range; checking first keeps int() from building it.
        if not value.is_finite() or value.adjusted() > 20 or value != value.to_integral_value():
            raise Undecodable(f"json-out-of-range at {path}")
        value = int(value)
    if not isinstance(value, int):
        raise Undecodable(f"json-type-mismatch at {path}")
    if not bounds[0] <= value <= bounds[1]:
        raise Undecodable(f"json-out-of-range at {path}")
    return value


def read_value(value, kind, path):
    if kind == BOOL or kind == STRING:
        if not isinstance(value, bool if kind == BOOL else str):
            raise Undecodable(f"json-type-mismatch at {path}")
        return value
    if isinstance(kind, tuple) and kind[0] == "message":
        return read_message(value, kind, path)
    if isinstance(kind, tuple) and kind[0] == "repeated":
        if isinstance(value, JsonObject) or not isinstance(value, list) or None in value:
            raise Undecodable(f"json-type-mismatch at {path}")
        return [read_value(element, kind[1], f"{path}[{index}]") for index, element in enumerate(value)]
    if isinstance(kind, tuple) and kind[0] == "enum":
        if isinstance(value, str):
            return kind[1].get(value, value)
        return read_integer(value, I32, path)
    return read_integer(value, kind, path)


def read_message(value, kind, path):
    """The members of one message as {json name: value}; absent and null members are left out."""
    if not isinstance(value, JsonObject):
        raise Undecodable(f"json-type-mismatch at {path}" if path.count(".") else "json-not-an-object")
    fields, seen, result = kind[1], set(), {}
    for name, member in value:
        if name not in fields:
            raise Undecodable(f"json-unknown-field {name!r} in {path}")
        json_name, member_kind = fields[name]
        if json_name in seen:
            raise Undecodable(f"json-duplicate-field {name!r} in {path}")
        seen.add(json_name)
        if member is not None:
            result[json_name] = read_value(member, member_kind, f"{path}.{name}")
    return result


# ---------------------------------------------------------------------------------------------------------------
# Acks: decoding, the checks of `§ack-ignore`, and which items an applied ack deletes (`§ack-table`).

@dataclasses.dataclass
class Ack:
    batch_id: int
    outcome: object
    fix_ranges: list
    event_ranges: list
    retry_after_ms: Optional[int]
    max_batch_bytes: Optional[int]
    latest_assignment_version: int
    policy: Optional[dict]
    commands: list


class IgnoredAck(Exception):
    """An ack the device ignores as a whole; `code` is the stable code of `§ack-ignore`."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def decode_ack(body):
    try:
        fields = read_message(parse_json_text(body), BATCH_ACK, "BatchAck")
    except Undecodable:
        raise IgnoredAck("ack-undecodable")

    def ranges(name):
        return [(item.get("firstSequence", 0), item.get("lastSequence", 0), item.get("result", 0),
                 item.get("rejectReason", 0)) for item in fields.get(name, [])]
    return Ack(fields.get("batchId", 0), fields.get("outcome", 0), ranges("fixResults"), ranges("fenceEventResults"),
               fields.get("retryAfterMs"), fields.get("maxBatchBytes"), fields.get("latestAssignmentVersion", 0),
               fields.get("trackingPolicy"), fields.get("commands", []))


def ack_defect(ack):
    """The code of the first row of `§ack-ignore` after ack-unknown-batch that the ack breaks, or None."""
    if ack.outcome == 0:
        return "ack-outcome-missing"
    if ack.outcome not in (PROCESSED, HOLD, TOO_LARGE):
        return "ack-outcome-unknown"
    lists = (ack.fix_ranges, ack.event_ranges)
    if any(first == 0 or last < first for ranges in lists for first, last, _, _ in ranges):
        return "range-inverted"
    for ranges in lists:
        for before, after in zip(ranges, ranges[1:]):  # a range is compared with the one before it only
            if after[0] < before[0]:
                return "ranges-not-sorted"
            if after[0] <= before[1]:
                return "ranges-overlap"
    if ack.outcome != PROCESSED and (ack.fix_ranges or ack.event_ranges):
        return "ranges-without-processing"
    if any(result == REJECTED and reason == 0 for ranges in lists for _, _, result, reason in ranges):
        return "reject-reason-missing"
    return None


def deletes(ranges, sequence, mutant=None):
    """Whether an applied PROCESSED ack deletes this fix (`§ack-table`, `§reject-reason-unknown`)."""
    for first, last, result, reason in ranges:
        if first <= sequence <= last:
            if result in (ACCEPTED, DUPLICATE):
                return True
            if result == REJECTED:
                if mutant == "keep-unknown-reject" and reason not in KNOWN_REJECT_REASONS:
                    return False
                return reason not in KEEPING_REJECT_REASONS
            return False  # RETRY_LATER, or a result this client does not know: keep it
    return False  # covered by no range: keep it


# ---------------------------------------------------------------------------------------------------------------
# Waits: Retry-After in both forms RFC 9110 allows (`§http-retry-after`).

DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
LONG_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAY, _LONG_DAY, _MONTH = "|".join(DAY_NAMES), "|".join(LONG_DAY_NAMES), "|".join(MONTHS)
_TIME = r"([0-9]{2}):([0-9]{2}):([0-9]{2})"
IMF_FIXDATE = re.compile(rf"(?:{_DAY}), ([0-9]{{2}}) ({_MONTH}) ([0-9]{{4}}) {_TIME} GMT")
RFC850_DATE = re.compile(rf"(?:{_LONG_DAY}), ([0-9]{{2}})-({_MONTH})-([0-9]{{2}}) {_TIME} GMT")
ASCTIME_DATE = re.compile(rf"(?:{_DAY}) ({_MONTH}) ([0-9]{{2}}| [0-9]) {_TIME} ([0-9]{{4}})")


def http_date_ms(text, now_ms):
    """An HTTP-date as UTC ms, or None when it is none of the three forms or names no real time."""
    if match := IMF_FIXDATE.fullmatch(text):
        day, month, year, hour, minute, second = match.groups()
    elif match := RFC850_DATE.fullmatch(text):
        day, month, short_year, hour, minute, second = match.groups()
        # RFC 9110, 5.6.7: a two-digit year more than 50 years ahead is the most recent past year with those digits.
        this_year = datetime.datetime.fromtimestamp(now_ms / 1000, datetime.timezone.utc).year
        year = this_year - this_year % 100 + int(short_year)
        if year > this_year + 50:
            year -= 100
        elif year + 100 <= this_year + 50:
            year += 100
    elif match := ASCTIME_DATE.fullmatch(text):
        month, day, hour, minute, second, year = match.groups()
    else:
        return None
    year, month, day = int(year), MONTHS.index(month) + 1, int(day)
    hour, minute, second = int(hour), int(minute), int(second)
    try:
        datetime.date(year, month, day)
    except ValueError:
        return None  # 31 Feb: no real time
    if hour > 23 or minute > 59 or second > 60:  # 60: a leap second
        return None
    return calendar.timegm((year, month, day, hour, minute, second)) * 1000


def retry_after_ms(values, now_ms, mutant=None):
    """The wait a Retry-After states, in ms from now_ms, or None when absent or unreadable (then: back-off)."""
    if len(values) != 1:
        return None  # absent, or two fields: which one the server meant would be a guess
    text = values[0].strip(" \t")
    if re.fullmatch(r"[0-9]+", text):
        return int(text) * 1000
    if mutant == "retry-after-seconds-only":
        return None
    date_ms = http_date_ms(text, now_ms)
    return None if date_ms is None else max(0, date_ms - now_ms)  # a date already past is a wait of 0


# ---------------------------------------------------------------------------------------------------------------
# Answers: what the device does with each answer to POST /v1/batches (`§http-device-answers`). read_answer() is
# pure, so that the upload loop and --run-vectors read answers with the same code.

@dataclasses.dataclass
class Answer:
    status: int  # 0: no HTTP answer at all (a reset, a closed connection, a time-out)
    headers: List[Tuple[str, str]]
    body: bytes = b""
    whole: bool = False  # all of Content-Length, or the last chunk, arrived

    def header(self, name):
        return [value for key, value in self.headers if key.lower() == name.lower()]


@dataclasses.dataclass
class Action:
    action: str  # the vocabulary of the http vectors' expectedResponse, plus the mutants' own
    failure: bool  # counts as a failure for `§back-off`
    code: str  # why, for the statistics
    wait_ms: Optional[int] = None  # a wait the answer states (Retry-After of a 408, 429, 503)
    max_batch_bytes: Optional[int] = None  # the limit to build within next (shrink, shrink-and-wait)
    ack: Optional[Ack] = None  # apply-ack: the ack of the batch just sent
    late_ack: Optional[Ack] = None  # no-ack: the ack of an earlier batch the device still remembers
    delete_all: bool = False  # the delete-on-2xx mutant: delete the whole batch, ack unread

    def as_expected(self):
        """In the form of a vector's expectedResponse."""
        result = {"action": self.action, "failure": self.failure}
        if self.wait_ms is not None:
            result["waitMs"] = self.wait_ms
        if self.max_batch_bytes is not None:
            result["maxBatchBytes"] = self.max_batch_bytes
        return result


def no_ack(code, late_ack=None):
    return Action("no-ack", True, code, late_ack=late_ack)


def content_body(answer):
    """The body after the answer's content coding; Undecodable when it is not one whole gzip member."""
    coding = ",".join(answer.header("Content-Encoding")).strip().lower()
    if coding in ("", "identity"):
        return answer.body
    if coding in ("gzip", "x-gzip"):
        decoder = zlib.decompressobj(wbits=31)
        try:
            body = decoder.decompress(answer.body)
        except zlib.error:
            raise Undecodable("corrupt gzip")
        if not decoder.eof or decoder.unused_data:
            raise Undecodable("not one whole gzip member")
        return body
    raise Undecodable(f"content coding {coding!r}")


def names_a_batch_ack(answer):
    """False when the Content-Type says the body is something else than a JSON BatchAck."""
    for value in answer.header("Content-Type"):
        media_type, *parameters = [part.strip() for part in value.split(";")]
        if media_type.lower() == "application/x-protobuf":
            return False  # this client reads JSON only
        for parameter in parameters:
            name, _, text = parameter.partition("=")
            if name.strip().lower() == "proto" and text.strip().strip('"') != "locationwire.v1.BatchAck":
                return False
    return True


def stated_limit(answer):
    """The maxBatchBytes member of a whole error body, or None (a client ignores members it does not know)."""
    if not answer.whole:
        return None
    try:
        value = json.loads(answer.body.decode("utf-8")).get("maxBatchBytes")
        value = int(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return value if value is not None and value > 0 else None


def shrunk_limit(stated, sent_bytes, timed_out=False):
    """`§http-shrink`: a stated limit counts as at least 16384, and is read as absent unless it is then below the
    size just sent; without one, half the size just sent, never under 16384 unless the batch was within 16384
    already, when it halves on. After a 408 (timed_out), half and never under 16384: a late small body is the
    link's fault."""
    if timed_out:
        return max(MIN_MAX_BATCH_BYTES, sent_bytes // 2)
    if stated is not None and max(MIN_MAX_BATCH_BYTES, stated) < sent_bytes:
        return max(MIN_MAX_BATCH_BYTES, stated)
    if sent_bytes <= MIN_MAX_BATCH_BYTES:
        return max(1, sent_bytes // 2)
    return max(MIN_MAX_BATCH_BYTES, sent_bytes // 2)


def read_ok(answer, batch_id, remembered, mutant):
    """A 200: applied only when its whole body is an ack of the batch just sent (`§http-whole-body`)."""
    if not answer.whole and mutant != "apply-cut-body":
        return no_ack("body-cut-short")
    try:
        if not names_a_batch_ack(answer):
            raise IgnoredAck("ack-undecodable")
        try:
            ack = decode_ack(content_body(answer))
        except Undecodable:
            raise IgnoredAck("ack-undecodable")
        if mutant == "apply-other-ack":
            ack.batch_id = batch_id  # the bug: whatever batch it names, it is taken for the one just sent
        if ack.batch_id != batch_id and ack.batch_id not in remembered:
            raise IgnoredAck("ack-unknown-batch")
        defect = ack_defect(ack)
        if defect:
            raise IgnoredAck(defect)
    except IgnoredAck as ignored:
        return no_ack(ignored.code if answer.whole else "body-cut-short")
    if ack.batch_id != batch_id:
        # Another batch's ack (a stale or repeated answer): no ack for this batch, but it may still apply to
        # the items of the batch it names (`§http-late-ack`).
        return no_ack("late-ack", late_ack=ack)
    return Action("apply-ack", False, "ack", ack=ack)


def read_answer(answer, batch_id, sent_bytes, now_ms, remembered=(), mutant=None):
    """What to do with one answer to the batch `batch_id` (`sent_bytes` of JSON text), at wall-clock now_ms."""
    action = classify_answer(answer, batch_id, sent_bytes, now_ms, remembered, mutant)
    if mutant == "no-back-off":
        action.failure, action.wait_ms = False, None
    return action


def classify_answer(answer, batch_id, sent_bytes, now_ms, remembered, mutant):
    status = answer.status
    if mutant == "delete-on-2xx" and 200 <= status < 300:
        return Action("apply-ack", False, "2xx", delete_all=True)
    if status == 0:
        return no_ack("no-answer")
    if status == 200:
        return read_ok(answer, batch_id, remembered, mutant)
    if status in (400, 431):
        if mutant == "resend-same-bytes-after-400":
            return Action("resend-same-bytes", True, f"status-{status}")
        return Action("rebuild", True, f"status-{status}")
    if status in (401, 403):
        if mutant == "retry-after-401":
            return no_ack(f"status-{status}")
        return Action("stop-token", True, f"status-{status}")
    if status == 408:
        limit = None if mutant == "same-size-after-408" else shrunk_limit(None, sent_bytes, timed_out=True)
        wait = retry_after_ms(answer.header("Retry-After"), now_ms, mutant)
        return Action("shrink-and-wait", True, "status-408", wait_ms=wait, max_batch_bytes=limit)
    if status == 413:
        limit = None if mutant == "ignore-413-limit" else shrunk_limit(stated_limit(answer), sent_bytes)
        return Action("shrink", False, "status-413", max_batch_bytes=limit)  # at once: Retry-After not read
    if status == 415:
        return Action("fix-encoding", True, "status-415")
    if status in (429, 503):
        return Action("wait", True, f"status-{status}",
                      wait_ms=retry_after_ms(answer.header("Retry-After"), now_ms, mutant))
    return no_ack(f"status-{status}")


# ---------------------------------------------------------------------------------------------------------------
# The device's state, persisted as one JSON file after every change (write a new file, fsync, rename).

class Queue:
    def __init__(self, path):
        self.path = path
        self.state = None

    def load_or_create(self, device_id, rng, first_sequence):
        if os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as f:
                self.state = json.load(f)
        else:
            self.state = {"deviceId": device_id, "installId": str(rng.randrange(1, 2**64)),
                          "nextSequence": first_sequence, "fixes": []}
        # Members added since the first version of this file; an older file gets their defaults.
        for name, default in (("policy", None), ("commandMark", 0), ("assignmentVersion", 0),
                              ("regionsAbsent", []), ("learntMaxBatchBytes", None), ("noContentCoding", False),
                              ("refusedTokens", []), ("lastFix", None), ("wait", None)):
            self.state.setdefault(name, default)
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

    @property
    def install_id(self):
        return self.state["installId"]

    def record(self, fix, client_log):
        """Numbers the fix and persists it with the counter (`§sequence-consecutive`), then logs it: a fix is in
        the log only once it is safely queued, so the report never expects a fix the client never held."""
        fix["sequence"] = self.state["nextSequence"]
        self.state["nextSequence"] += 1
        self.fixes.append(fix)
        self.state["lastFix"] = fix
        self.save()
        write_log(client_log, {"installId": self.install_id, "sequence": fix["sequence"], "timeMs": fix["timeMs"],
                               "latitudeE7": fix["latitudeE7"], "longitudeE7": fix["longitudeE7"]})

    def delete(self, sequences):
        if sequences:
            self.state["fixes"] = [fix for fix in self.fixes if fix["sequence"] not in sequences]
            self.save()


def write_log(client_log, line):
    client_log.write(json.dumps(line) + "\n")
    client_log.flush()


def boot_id():
    """This boot's id, where the system tells it (Linux); a wait is kept across a relaunch within one boot only."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip()
    except OSError:
        return None


class CredentialsRefused(Exception):
    pass


@dataclasses.dataclass
class SentBatch:
    batch_id: int
    sequences: set
    body: bytes  # the JSON text as sent, before gzip: what max_batch_bytes bounds


# ---------------------------------------------------------------------------------------------------------------
# The upload client.

class Uploader:
    def __init__(self, args, queue, client_log):
        self.args, self.queue, self.client_log = args, queue, client_log
        self.mutant = args.mutant
        url = urllib.parse.urlsplit(args.server)
        if url.scheme != "http":
            fatal("only http:// (loopback) servers are supported")
        self.server = args.server.rstrip("/")
        self.host, self.port, self.base_path = url.hostname, url.port or 80, url.path.rstrip("/")
        self.rng = random.Random(args.seed)
        self.gzip = args.gzip and not queue.state["noContentCoding"]
        self.remembered = {}  # batch_id -> SentBatch, for every given-up batch, oldest first
        self.failures = 0  # failures in a row (`§back-off`)
        self.wait_until = 0.0  # time.monotonic() before which no batch goes out (`§wait-clock`)
        self.fix_cap = None  # fewer fixes per batch, after a too-large answer the byte limit cannot cure
        self.resend = None  # the resend-same-bytes-after-400 mutant: the batch to send again as it was
        self.regions_due = False
        self.stats = {}
        self.restore_wait()

    def count(self, what):
        self.stats[what] = self.stats.get(what, 0) + 1

    def say(self, message):
        if self.args.verbose:
            print(f"uploader: {message}", file=sys.stderr)

    # --- waits -------------------------------------------------------------------------------------------------

    def restore_wait(self):
        """A wait kept across a relaunch within one boot goes on where it was; a new boot ends it, and the
        failure count carries over (`§wait-clock`, proto/BEHAVIOR.md `upload-boot`)."""
        kept = self.queue.state["wait"] or {}
        self.failures = kept.get("failures", 0)
        if kept.get("bootId") and kept.get("bootId") == boot_id():
            self.wait_until = kept.get("until", 0.0)

    def keep_wait(self):
        self.queue.state["wait"] = {"bootId": boot_id(), "until": self.wait_until, "failures": self.failures}
        self.queue.save()

    def hold(self, answered_at, wait_ms):
        """No batch before answered_at + wait_ms, on the monotonic clock (retry_after_ms, Retry-After)."""
        seconds = min(wait_ms / 1000, LONGEST_STATED_WAIT_S)
        self.wait_until = max(self.wait_until, answered_at + seconds)
        self.keep_wait()

    def fail(self, answered_at, stated_wait_ms=None):
        """A failure: wait what the answer states, else 1 s after the first in a row, doubling, at most 300 s."""
        if self.mutant == "no-back-off":
            return
        self.failures += 1
        if stated_wait_ms is None:
            stated_wait_ms = min(FIRST_BACK_OFF_S * 2 ** min(self.failures - 1, 16), LONGEST_BACK_OFF_S) * 1000
        self.hold(answered_at, stated_wait_ms)

    def succeed(self):
        """A PROCESSED ack that deleted at least one item resets the count."""
        if self.failures:
            self.failures = 0
            self.keep_wait()

    @staticmethod
    def sleep_until(moment, deadline):
        """Sleeps until `moment`; False when the deadline comes first."""
        while (now := time.monotonic()) < moment:
            if moment > deadline:
                time.sleep(max(0.0, deadline - now))
                return False
            time.sleep(moment - now)
        return True

    # --- sizes -------------------------------------------------------------------------------------------------

    def policy_value(self, name, default):
        return (self.queue.state["policy"] or {}).get(name, default)

    def max_batch_bytes(self):
        """The lowest of the default (or the policy's) and a limit learnt from TOO_LARGE, 413 or 408."""
        limit = min(self.policy_value("maxBatchBytes", DEFAULT_MAX_BATCH_BYTES), MAX_MAX_BATCH_BYTES)
        learnt = self.queue.state["learntMaxBatchBytes"]
        return min(limit, learnt) if learnt else limit

    def max_fixes(self):
        return min(self.args.batch_size, max(1, self.policy_value("maxBatchSize", DEFAULT_MAX_BATCH_SIZE)))

    def shrink(self, sent, new_limit, too_large):
        """After TOO_LARGE, 413 (too_large) or 408: build within new_limit (None: the mutants keep their size).
        A single fix refused as too large cannot become smaller: discard it (`§http-shrink-alone`)."""
        if too_large and len(sent.sequences) == 1 and self.mutant != "resend-single-item":
            self.discard(next(iter(sent.sequences)))
        if new_limit is None:
            return
        self.queue.state["learntMaxBatchBytes"] = new_limit
        self.queue.save()
        if self.max_batch_bytes() >= len(sent.body) and len(sent.sequences) > 1:
            # The limit cannot go under 16384 bytes, and a server may refuse less than that: so that the next
            # batch is smaller all the same, and a lone fix is reached at last, halve the number of fixes.
            self.fix_cap = max(1, len(sent.sequences) // 2)

    def discard(self, sequence):
        """A loss the device reports through its floor (`§sequence-floor`) and in the client log."""
        if all(fix["sequence"] != sequence for fix in self.queue.fixes):
            return  # already gone (a late ack can name a batch whose fix another ack deleted)
        self.queue.delete({sequence})
        write_log(self.client_log, {"installId": self.queue.install_id, "discarded": sequence})
        self.count("discarded")

    # --- batches -----------------------------------------------------------------------------------------------

    def batch_json(self, batch_id, backlog, live, sent_at_ms):
        def fix_json(fix):
            return {"sequence": str(fix["sequence"]), "timeMs": str(fix["timeMs"]), "latitudeE7": fix["latitudeE7"],
                    "longitudeE7": fix["longitudeE7"], "horizontalAccuracyCm": fix["horizontalAccuracyCm"],
                    "reason": fix.get("reason", "FIX_REASON_PERIODIC"), "source": "FIX_SOURCE_GNSS"}
        batch = {"deviceId": self.queue.state["deviceId"], "batchId": str(batch_id), "sentAtMs": str(sent_at_ms),
                 "datum": "COORDINATE_DATUM_WGS84"}
        if backlog:
            batch["fixes"] = [fix_json(fix) for fix in backlog]
        batch["liveFix"] = fix_json(live)
        batch["installId"] = self.queue.install_id
        # The lowest sequence still held: every number below it has left the device (`§sequence-floor`).
        batch["fixSequenceFloor"] = str(min(fix["sequence"] for fix in self.queue.fixes))
        batch["protocolRevision"] = PROTOCOL_REVISION
        policy_version = self.policy_value("policyVersion", 0)
        if policy_version and self.mutant != "no-policy-version":
            batch["policyVersion"] = str(policy_version)  # `§policy-in-acks`: 0 (left out) while it holds none
        return json.dumps(batch, separators=(",", ":")).encode("utf-8")

    def build_batch(self):
        """`§batch-composition`: the newest held fix as the live fix, the oldest others as the backlog, as many as
        fit max_batch_bytes measured on the JSON text as sent (`§batch-size`); at least the live fix."""
        held = sorted(self.queue.fixes, key=lambda fix: fix["sequence"])
        if self.fix_cap:
            # Narrowing after a too-large answer: the oldest fixes, the newest of them as the live fix, so that
            # halving comes down to the one fix the server refuses (which items to leave is the device's choice).
            held = held[: self.fix_cap]
        live, backlog = held[-1], held[:-1][: self.max_fixes() - 1]
        batch_id, sent_at_ms, limit = self.rng.randrange(1, 2**64), int(time.time() * 1000), self.max_batch_bytes()
        # The size grows with the backlog, so the largest backlog that fits is found by bisection.
        low, high = 0, len(backlog)
        while low < high:
            middle = (low + high + 1) // 2
            if len(self.batch_json(batch_id, backlog[:middle], live, sent_at_ms)) <= limit:
                low = middle
            else:
                high = middle - 1
        body = self.batch_json(batch_id, backlog[:low], live, sent_at_ms)
        return SentBatch(batch_id, {fix["sequence"] for fix in backlog[:low]} | {live["sequence"]}, body)

    # --- HTTP --------------------------------------------------------------------------------------------------

    def exchange(self, path, media_type, body):
        """One request on a new connection; the answer, or status 0 for a reset, a close or a time-out. The
        time-out (--timeout) covers the whole exchange (`§http-time-outs`)."""
        headers = {"Authorization": f"Bearer {self.args.token}", "Content-Type": media_type,
                   "Accept": "application/json", "Connection": "close"}
        if self.gzip:
            body = gzip.compress(body, mtime=0)  # mtime 0: the same text always gives the same bytes
            headers["Content-Encoding"] = "gzip"
        deadline = time.monotonic() + self.args.timeout
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.args.timeout)
        try:
            try:
                connection.request("POST", self.base_path + path, body=body, headers=headers)
            except OSError:
                # A server may answer (a 413 before reading) and close while the body is still going out; the
                # answer, with its maxBatchBytes, may still be there to read.
                if connection.sock is None:
                    raise
            sock = connection.sock
            response = connection.getresponse()
            status, answer_headers = response.status, response.getheaders()
            body, whole = self.read_body(response, sock, deadline)
            return Answer(status, answer_headers, body, whole)
        except (OSError, http.client.HTTPException) as error:
            self.count(f"transport:{type(error).__name__}")
            return Answer(0, [])
        finally:
            connection.close()

    @staticmethod
    def read_body(response, sock, deadline):
        """The body and whether it is whole: all of Content-Length, or the last chunk (`§http-whole-body`). A body
        delimited only by the close of the connection cannot be told from one cut short, so it is not whole."""
        framed = response.chunked or response.length is not None
        chunks = []
        try:
            while True:
                if response.isclosed():
                    # All of Content-Length (or the last chunk) was read, and http.client closed the connection
                    # the server asked to close (`Connection: close`): the socket is gone, the body is whole.
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError("the exchange took longer than --timeout")
                sock.settimeout(remaining)
                chunk = response.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except http.client.IncompleteRead as cut:
            return b"".join(chunks) + cut.partial, False
        except (OSError, http.client.HTTPException):
            return b"".join(chunks), False
        return b"".join(chunks), framed and not response.length

    # --- the upload loop ---------------------------------------------------------------------------------------

    def run(self, deadline):
        """Uploads until the queue is empty (True) or the deadline passes (False). An upload is due whenever fixes
        are held (this client drains its queue), but never before a wait in force has passed."""
        while True:
            self.ask_regions_if_due()
            if not self.queue.fixes:
                return True
            if time.monotonic() >= deadline or not self.sleep_until(self.wait_until, deadline):
                return False
            sent, self.resend = self.resend or self.build_batch(), None
            self.remember(sent)
            self.count("batches")
            answer = self.exchange("/v1/batches", BATCH_MEDIA_TYPE, sent.body)
            answered_at, now_ms = time.monotonic(), int(time.time() * 1000)
            action = read_answer(answer, sent.batch_id, len(sent.body), now_ms,
                                 set(self.remembered) - {sent.batch_id}, self.mutant)
            self.count(action.code)
            self.say(f"batch {sent.batch_id} ({len(sent.sequences)} fixes, {len(sent.body)} bytes): "
                     f"{answer.status} -> {action.action} ({action.code})")
            self.act(action, sent, answered_at)

    def remember(self, sent):
        self.remembered[sent.batch_id] = sent
        while len(self.remembered) > REMEMBERED_BATCHES:
            del self.remembered[next(iter(self.remembered))]

    def act(self, action, sent, answered_at):
        kind = action.action
        if kind == "apply-ack" and action.delete_all:
            self.remembered.pop(sent.batch_id, None)
            self.queue.delete(sent.sequences)  # the bug: the ack unread
            self.stats["deleted"] = self.stats.get("deleted", 0) + len(sent.sequences)
            self.succeed()
        elif kind == "apply-ack":
            self.apply_ack(action.ack, sent, answered_at)
        elif kind == "no-ack":
            if action.late_ack:
                self.apply_ack(action.late_ack, self.remembered[action.late_ack.batch_id], answered_at,
                               late=True)
            self.fail(answered_at, action.late_ack.retry_after_ms if action.late_ack else None)
        elif kind == "rebuild":
            # The next batch is built anew, with a fresh batch_id, so these bytes are never sent again.
            self.fail(answered_at)
        elif kind == "resend-same-bytes":
            self.resend = sent
            self.fail(answered_at)
        elif kind == "stop-token":
            self.queue.state["refusedTokens"].append(token_digest(self.args.token))
            self.queue.save()
            raise CredentialsRefused(f"the server refused the token ({action.code})")
        elif kind in ("shrink", "shrink-and-wait"):
            self.shrink(sent, action.max_batch_bytes, too_large=kind == "shrink")
            if kind == "shrink-and-wait":
                self.fail(answered_at, action.wait_ms)
        elif kind == "fix-encoding":
            if self.mutant != "keep-coding-after-415":
                self.gzip = False  # from then on (`§http-content-coding`)
                self.queue.state["noContentCoding"] = True
                self.queue.save()
            self.fail(answered_at)
        elif kind == "wait":
            self.fail(answered_at, action.wait_ms)

    def apply_ack(self, ack, batch, answered_at, late=False):
        """Applies an ack to the items of the batch it names (`§ack-scope`), and takes its hints and commands
        (`§ack-effects`). A late ack's failure is left to the caller: the batch just sent counts as no ack."""
        self.remembered.pop(batch.batch_id, None)
        failure = False
        if ack.outcome == PROCESSED:
            held = {fix["sequence"] for fix in self.queue.fixes}
            deleted = {sequence for sequence in batch.sequences & held
                       if deletes(ack.fix_ranges, sequence, self.mutant)}
            self.queue.delete(deleted)
            self.stats["deleted"] = self.stats.get("deleted", 0) + len(deleted)
            self.fix_cap = None
            if deleted or self.mutant == "nothing-deleted-no-wait":
                self.succeed()
            else:
                failure = True  # nothing deleted: a server answering RETRY_LATER is not asked in a tight loop
        elif ack.outcome == HOLD:
            failure = True
        elif ack.outcome == TOO_LARGE:
            # A present 0 is outside the field's range: read as absent, so the device halves.
            self.shrink(batch, shrunk_limit(ack.max_batch_bytes or None, len(batch.body)), too_large=True)
        self.take_policy(ack.policy)
        self.run_commands(ack.commands)
        if ack.latest_assignment_version > self.queue.state["assignmentVersion"]:
            self.regions_due = True
        if late:
            return
        if failure:
            self.fail(answered_at, ack.retry_after_ms)
        elif ack.retry_after_ms is not None:
            self.hold(answered_at, ack.retry_after_ms)  # `§retry-after`: with any outcome, the whole queue

    def take_policy(self, policy):
        """`§policy-in-acks`: a policy replaces the held one when its version is higher."""
        if policy and policy.get("policyVersion", 0) > self.policy_value("policyVersion", 0):
            self.queue.state["policy"] = policy
            self.queue.save()
            self.count("policy-taken")

    def run_commands(self, commands):
        """`§commands`: ascending ids, each only above the highest executed; the mark is durable before the
        command starts (`§command-once`), so a crash loses a command rather than runs it twice."""
        now_ms = int(time.time() * 1000)
        for command in sorted(commands, key=lambda item: item.get("commandId", 0)):
            command_id, kind = command.get("commandId", 0), command.get("kind", 0)
            expires_at_ms = command.get("expiresAtMs", 0)
            if self.mutant != "commands-twice" and command_id <= self.queue.state["commandMark"]:
                continue
            if 0 < expires_at_ms <= now_ms or kind not in (RECORD_FIX, REQUEST_REGIONS, UPLOAD_NOW):
                self.count("command-skipped")
                continue
            if self.mutant != "commands-twice":
                self.queue.state["commandMark"] = command_id
                self.queue.save()
            self.count(f"command-{kind}")
            if kind == RECORD_FIX:
                self.record_fix("FIX_REASON_SERVER_REQUEST", now_ms)
            elif kind == REQUEST_REGIONS:
                self.regions_due = True
            # UPLOAD_NOW: an upload is already due while fixes are held; a wait in force still holds.

    def record_fix(self, reason, time_ms):
        """One fix of a walk near Berlin: every fix differs in time and position, so the report tells them apart."""
        last = self.queue.state["lastFix"]
        base_lat, base_lon = (last["latitudeE7"], last["longitudeE7"]) if last else (525_200_000, 134_050_000)
        fix = {"timeMs": max(time_ms, last["timeMs"] + 1) if last else time_ms, "reason": reason,
               "latitudeE7": base_lat + 90 + self.rng.randrange(-200, 200),
               "longitudeE7": base_lon + 60 + self.rng.randrange(-200, 200),
               "horizontalAccuracyCm": 500 + self.rng.randrange(0, 1500)}
        self.queue.record(fix, self.client_log)

    # --- regions -----------------------------------------------------------------------------------------------

    def ask_regions_if_due(self):
        """A RegionRequest after a hint or REQUEST_REGIONS; never again after a 404 (`§http-regions-absent`), and
        never without a fix (`§http-regions-position`)."""
        if not self.regions_due:
            return
        self.regions_due = False
        if self.server in self.queue.state["regionsAbsent"] and self.mutant != "ask-regions-on-hint":
            self.count("regions-not-asked")
            return
        fix = self.queue.state["lastFix"]
        if fix is None:
            return
        request = {"deviceId": self.queue.state["deviceId"], "reason": "REGION_REQUEST_REASON_SERVER_HINT",
                   "currentFix": {"timeMs": str(fix["timeMs"]), "latitudeE7": fix["latitudeE7"],
                                  "longitudeE7": fix["longitudeE7"],
                                  "horizontalAccuracyCm": fix["horizontalAccuracyCm"]},
                   "platformSlotLimit": PLATFORM_SLOT_LIMIT, "datum": "COORDINATE_DATUM_WGS84",
                   "sentAtMs": str(int(time.time() * 1000))}
        held = self.queue.state["assignmentVersion"]
        if held:
            request["armed"] = {"assignmentVersion": str(held)}
        answer = self.exchange("/v1/regions", REGION_MEDIA_TYPE,
                               json.dumps(request, separators=(",", ":")).encode("utf-8"))
        self.count(f"regions-{answer.status}")
        if answer.status in (401, 403) and self.mutant != "retry-after-401":
            self.queue.state["refusedTokens"].append(token_digest(self.args.token))
            self.queue.save()
            raise CredentialsRefused(f"the server refused the token (status-{answer.status} on /v1/regions)")
        if answer.status == 404 and self.server not in self.queue.state["regionsAbsent"]:
            self.queue.state["regionsAbsent"].append(self.server)
            self.queue.save()
        elif answer.status == 200 and answer.whole:
            self.hold_assignment(answer.body)

    def hold_assignment(self, body):
        """Holds the assignment's version when it is above the held one (`§assignment-stale`). This client arms
        nothing; the version is what tells it which hints are new."""
        try:
            assignment = json.loads(body.decode("utf-8"))
            version = int(assignment.get("assignmentVersion", assignment.get("assignment_version", 0)))
        except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
            return
        if version > self.queue.state["assignmentVersion"]:
            self.queue.state["assignmentVersion"] = version
            self.queue.save()


def token_digest(token):
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# --run-vectors: the http vectors' HttpAnswerRequest cases, read with read_answer().

def vector_answer(request):
    """A vector's request as (Answer, batch_id, sent_bytes, now_ms); absent proto3 fields are defaults."""
    body = request.get("body", "")
    body = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if re.search(r"[-_]", body) else None)
    headers = [(item.get("name", ""), item.get("value", "")) for item in request.get("headers", [])]
    answer = Answer(int(request.get("status", 0)), headers, body, bool(request.get("bodyIsWhole", False)))
    return answer, int(request.get("batchId", 0)), int(request.get("sentBodyBytes", 0)), int(request.get("nowMs", 0))


def expected_action(response):
    """A vector's expectedResponse (an HttpAnswerResponse in proto3 JSON) in this runner's terms."""
    unknown = set(response) - {"action", "waitMs", "maxBatchBytes", "countsAsFailure"}
    expected = {name: response[name] for name in unknown}  # compare_action reports them
    expected["action"] = response.get("action", "HTTP_ACTION_UNSPECIFIED").replace("HTTP_ACTION_", "").lower()
    expected["action"] = expected["action"].replace("_", "-")
    if "waitMs" in response:
        expected["waitMs"] = int(response["waitMs"])  # int64: a string in proto3 JSON
    if response.get("maxBatchBytes"):
        expected["maxBatchBytes"] = response["maxBatchBytes"]
    expected["failure"] = response.get("countsAsFailure", False)
    return expected


def compare_action(expected, got):
    """A list of differences; an expected member this runner does not know is one, so it is never passed over."""
    known = {"action", "waitMs", "maxBatchBytes", "failure"}
    differences = [f"member {name!r} unknown to this runner" for name in expected if name not in known]
    expected = dict(expected, failure=expected.get("failure", False))  # proto3 JSON may leave a false out
    for name in ("action", "waitMs", "maxBatchBytes", "failure"):
        if expected.get(name) != got.get(name):
            differences.append(f"{name} {expected.get(name, 'absent')!r}, got {got.get(name, 'absent')!r}")
    return differences


def run_vectors(path, mutant):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    vectors = document.get("vectors", []) if isinstance(document, dict) else document
    passed = failed = skipped = 0
    for vector in vectors:
        if vector.get("messageType") != HTTP_ANSWER_REQUEST:
            continue
        vector_id, request = vector.get("id", "?"), vector.get("request", {})
        if request.get("sentFormat") == "HTTP_BODY_FORMAT_BINARY":
            print(f"SKIP {vector_id}: sent as binary; this client speaks JSON only")
            skipped += 1
            continue
        try:
            answer, batch_id, sent_bytes, now_ms = vector_answer(request)
        except (ValueError, TypeError, AttributeError) as error:
            print(f"FAIL {vector_id}: the vector's request does not read: {error}")
            failed += 1
            continue
        got = read_answer(answer, batch_id, sent_bytes, now_ms, (), mutant).as_expected()
        expected = expected_action(vector.get("expectedResponse", {}))
        # An expectedResponse may list several acceptable actions (a MAY of the text); any one passes.
        candidates = expected if isinstance(expected, list) else [expected]
        differences = min((compare_action(candidate, got) for candidate in candidates), key=len)
        if differences:
            print(f"FAIL {vector_id}: expected " + "; expected ".join(differences))
            failed += 1
        else:
            print(f"PASS {vector_id}")
            passed += 1
    mode = f" (mutant {mutant})" if mutant else ""
    print(f"{passed + failed + skipped} http answer vectors{mode}: {passed} passed, {failed} failed, "
          f"{skipped} skipped")
    return 0 if failed == 0 else 1


# ---------------------------------------------------------------------------------------------------------------

def interleave(argv):
    """`uploader.py interleave`: a scripted check of servers that share one database, not a device. Overlapping
    batches of one installation (batch k holds fixes 25k+1 .. 25k+50) go out at once, batch k to URL number k mod
    the number of URLs. Exit 1 unless every batch is PROCESSED and every fix is ACCEPTED exactly once and
    DUPLICATE in every other ack that answers it (with --expect duplicate: DUPLICATE in every ack, for a resend of
    batches already stored). Prints the highest sequence sent."""
    parser = argparse.ArgumentParser(prog="uploader.py interleave", description=interleave.__doc__)
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--install-id", type=int, default=7)
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--expect", choices=["fresh", "duplicate"], default="fresh")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for one whole exchange")
    args = parser.parse_args(argv)
    step, width, count = 25, 50, args.batches
    highest = (count - 1) * step + width
    now_ms = int(time.time() * 1000)

    def body(k):
        first, last = k * step + 1, k * step + width
        return json.dumps({
            "deviceId": args.device, "installId": str(args.install_id), "batchId": str(k + 1),
            "protocolRevision": PROTOCOL_REVISION, "datum": "COORDINATE_DATUM_WGS84", "sentAtMs": str(now_ms),
            "fixSequenceFloor": str(first),
            "fixes": [{"sequence": str(n), "timeMs": str(now_ms - 3_600_000 + n), "latitudeE7": 525_200_000 + n % 1000,
                       "longitudeE7": 134_050_000} for n in range(first, last + 1)],
        }).encode()

    def post(k):
        url = urllib.parse.urlsplit(args.urls[k % len(args.urls)])
        connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=args.timeout)
        try:
            connection.request("POST", url.path.rstrip("/") + "/v1/batches", body=body(k), headers={
                "Authorization": f"Bearer {args.token}", "Content-Type": BATCH_MEDIA_TYPE,
                "Accept": "application/json", "Connection": "close"})
            response = connection.getresponse()
            answer = response.read()
        finally:
            connection.close()
        if response.status != 200:
            raise SystemExit(f"batch {k + 1} to {url.geturl()}: HTTP {response.status}: {answer[:300]!r}")
        return decode_ack(answer)

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        acks = list(pool.map(post, range(count)))
    failures, accepted, answered = [], {}, {}
    for k, ack in enumerate(acks):
        if ack.outcome != PROCESSED:
            failures.append(f"batch {k + 1}: outcome {ack.outcome}")
        for first, last, result, _ in ack.fix_ranges:
            for n in range(first, last + 1):
                answered[n] = answered.get(n, 0) + 1
                if result == ACCEPTED:
                    accepted[n] = accepted.get(n, 0) + 1
                elif result != DUPLICATE:
                    failures.append(f"fix {n}: result {result}")
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
    print(f"every fix 1..{highest} acked " + ("ACCEPTED once, DUPLICATE elsewhere" if args.expect == "fresh"
                                              else "DUPLICATE"), file=sys.stderr)
    print(highest)
    return 0


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8081", help="base URL of the server")
    parser.add_argument("--token", default="demo-token", help="bearer token")
    parser.add_argument("--device-id", default="python-uploader")
    parser.add_argument("--fixes", type=int, default=200, help="how many fixes to record first")
    parser.add_argument("--batch-size", type=int, default=20, help="at most this many fixes per batch")
    parser.add_argument("--queue", default="./uploader-queue.json", help="the queue file (JSON)")
    parser.add_argument("--client-log", default="./client-log.jsonl", help="the client log (JSON lines)")
    parser.add_argument("--gzip", action="store_true", help="gzip the request bodies")
    parser.add_argument("--mutant", choices=sorted(MUTANTS), help="break one rule on purpose (--list-mutants)")
    parser.add_argument("--broken", action="store_true", help="the same as --mutant delete-on-2xx")
    parser.add_argument("--list-mutants", action="store_true", help="list the mutants and the rules they break")
    parser.add_argument("--run-vectors", metavar="FILE", help="check the answer reading against http vectors")
    parser.add_argument("--seed", type=int, default=None, help="seed for ids and fixes (default: random)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds for one whole exchange")
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds before giving up with fixes left")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per exchange on stderr")
    args = parser.parse_args()
    if args.broken:
        if args.mutant not in (None, "delete-on-2xx"):
            parser.error("--broken is --mutant delete-on-2xx; give one mutant")
        args.mutant = "delete-on-2xx"
    if args.fixes < 0 or args.batch_size < 1 or args.timeout <= 0:
        parser.error("--fixes must be at least 0, --batch-size at least 1, --timeout above 0")
    return args


def main():
    if sys.argv[1:2] == ["interleave"]:
        return interleave(sys.argv[2:])
    args = parse_arguments()
    if args.list_mutants:
        for name, rule in MUTANTS.items():
            print(f"{name}: {rule}")
        return 0
    if args.run_vectors:
        return run_vectors(args.run_vectors, args.mutant)

    queue = Queue(args.queue)
    # `§sequence-zero`: numbers start at 1 (the number-from-zero mutant starts a new queue at 0).
    queue.load_or_create(args.device_id, random.Random(args.seed), 0 if args.mutant == "number-from-zero" else 1)
    with open(args.client_log, "a", encoding="utf-8") as client_log:
        uploader = Uploader(args, queue, client_log)
        status = 2
        try:
            if token_digest(args.token) in queue.state["refusedTokens"] and args.mutant != "retry-after-401":
                raise CredentialsRefused("this token was refused before; never send with it again")
            start_ms = int(time.time() * 1000) - args.fixes * 1000
            for index in range(args.fixes):
                uploader.record_fix("FIX_REASON_PERIODIC", start_ms + index * 1000)
            status = 0 if uploader.run(time.monotonic() + args.deadline) else 3
        except CredentialsRefused as refused:
            print(f"uploader: {refused} (§http-credentials); the queue is kept", file=sys.stderr)
        finally:
            # What the client still holds on exit, so a report can tell pending fixes from lost ones.
            write_log(client_log, {"installId": queue.install_id,
                                   "pending": sorted(fix["sequence"] for fix in queue.fixes)})
    details = ", ".join(f"{key} {value}" for key, value in sorted(uploader.stats.items()))
    print(f"uploader ({args.mutant or 'correct'}): {len(queue.fixes)} fixes left in the queue; {details}")
    return status


if __name__ == "__main__":
    sys.exit(main())
