"""Results of crosscheck.py: pass/fail counts per check and message type, failures with their inputs and both
sides' outputs, informational notes, and the printed summary."""

import collections
import threading

import edgecases


def short(typ):
    return typ.rsplit(".", 1)[-1]


def show_bytes(data, limit=4096):
    if data is None:
        return "-"
    h = data.hex()
    if len(data) > limit:
        return "%s... (%d bytes, first %d shown)" % (h[:2 * limit], len(data), limit)
    return "%s (%d bytes)" % (h or "(empty)", len(data))


def show_run(r, binary=True):
    if r is None:
        return "not run"
    if r.rc is None:
        return "TIMEOUT (%s)" % r.err
    body = show_bytes(r.out) if binary else r.out.decode("utf-8", "replace")
    s = "exit %d, %.2fs, stdout: %s" % (r.rc, r.secs, body if r.out else "(empty)")
    if r.err:
        s += "\n      stderr: " + r.err[:500]
    return s


def first_difference(a, b):
    """Where two byte strings first differ, with some context of each."""
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    lo = max(0, i - 30)
    return "first difference at byte %d: C++ ...%r... locwire ...%r..." % (i, a[lo:i + 30], b[lo:i + 30])


class Results:
    """Counts per (check, type), failures (with input and both sides), findings and notes that do not fail."""

    def __init__(self):
        self.lock = threading.RLock()  # tool runs happen on a thread pool
        self.counts = collections.defaultdict(lambda: [0, 0])
        self.failures = []
        self.findings = []
        self.info = collections.defaultdict(list)

    def ok(self, check, typ):
        with self.lock:
            self.counts[(check, short(typ))][0] += 1

    def fail(self, check, typ, data, *lines):
        with self.lock:
            self.counts[(check, short(typ))][1] += 1
            self.failures.append((check, short(typ), data, list(lines)))

    def finding(self, check, typ, data, text):
        with self.lock:
            self.findings.append((check, short(typ), data, text))

    def note(self, key, item):
        with self.lock:
            self.info[key].append(item)

    def check_ok(self, cond, check, typ, data, *lines):
        if cond:
            self.ok(check, typ)
        else:
            self.fail(check, typ, data, *lines)
        return cond


def print_counts(res):
    checks = sorted({c for c, _ in res.counts})
    types = sorted({t for _, t in res.counts})
    print("\n=== Summary: passed/failed per check ===")
    for c in checks:
        p = sum(v[0] for (cc, _), v in res.counts.items() if cc == c)
        f = sum(v[1] for (cc, _), v in res.counts.items() if cc == c)
        print("  %-28s %6d passed %5d failed" % (c, p, f))
    print("\n=== Per message type (passed/failed) ===")
    print("  %-18s" % "type" + "".join("%10s" % c.split(" ")[0] for c in checks))
    for t in types:
        row = "  %-18s" % t
        for c in checks:
            v = res.counts.get((c, t))
            row += "%10s" % ("%d/%d" % tuple(v) if v else "-")
        print(row)
    print("  (columns: " + ", ".join(checks) + ")")


def print_unknown_rule(res):
    print("\n=== Check 2: where each implementation puts unknown fields in its canonical output ===")
    print("  rule: at every level, known fields first in field-number order, then the unknown fields of that level")
    print("  byte for byte as they arrived, in arrival order (a singular sub-message's occurrences are merged, so")
    print("  their unknown fields are concatenated in arrival order)")
    for who in ("upb", "C++", "locwire"):
        for how in ("exact", "re-encoded"):
            items = res.info["2 unknown rule %s %s" % (who, how)]
            bad = [x for x in items if x[2]]
            print("  %-8s rule holds for %d of %d accepted variants (%s)" % (
                who, len(items) - len(bad), len(items),
                "unknown fields byte for byte" if how == "exact" else "after minimal re-encoding"))
            for typ, data, why in sorted(bad, key=lambda x: len(x[1]))[:3]:
                print("    e.g. %s %s: %s" % (short(typ), show_bytes(data, 96), why))
    diff = res.info["2 C++ canonical differs from upb"]
    if diff:
        print("  C++ deterministic bytes differ from upb's for %d variants; smallest:" % len(diff))
        for typ, data, up, cp in sorted(diff, key=lambda x: len(x[1]))[:3]:
            print("    %s input %s\n      upb %s\n      C++ %s" % (
                short(typ), show_bytes(data, 96), show_bytes(up, 96), show_bytes(cp, 96)))
    rejected = res.info["2 variants upb rejected"]
    if rejected:
        print("  note: upb rejected %d generated variants (locwire was checked to reject them too); smallest:"
              % len(rejected))
        for typ, hexdata, err in sorted(rejected, key=lambda x: (len(x[1]), x[1]))[:3]:
            print("    %s %s: %s" % (short(typ), hexdata if len(hexdata) <= 400 else hexdata[:400] + "...", err))


def print_rejections(ctx, res, trunc_note):
    print("\n=== Check 3d: handcrafted binary cases (C++ = protoc --decode) ===")
    print("  %-72s %-14s %-7s %-7s %s" % ("case", "type", "upb", "C++", "locwire"))
    order = {name: i for i, (name, _, _) in enumerate(edgecases.binary_cases())}
    for name, typ, upb_ok, cpp_ok, rc in sorted(res.info["3 handcrafted verdicts"], key=lambda x: order[x[0]]):
        lw = {0: "accept", 1: "reject"}.get(rc, "exit %s" % rc)
        mark = "" if lw == ("accept" if upb_ok else "reject") else "   <-- differs from upb"
        print("  %-72s %-14s %-7s %-7s %s%s" % (name[:72], typ, "accept" if upb_ok else "reject",
                                               "accept" if cpp_ok else "reject", lw, mark))
    dis = res.info["3 C++/upb disagreements"]
    print("\n=== Check 3: C++ vs upb verdicts that differ (informational, %d inputs) ===" % len(dis))
    by_kind = collections.OrderedDict()
    for check, typ, name, data, cpp, upb in sorted(dis, key=lambda x: (x[0], x[2], len(x[3]), x[3])):
        key = (check, name or "(generated)", "C++ accepts" if ": accepts" in cpp else "C++ rejects", upb)
        by_kind.setdefault(key, []).append((typ, data, cpp))
    for (check, name, cpp, upb), items in by_kind.items():
        typ, data, detail = items[0]
        print("  [%s] %s: %s, %s; %d input(s), smallest %s %s\n      %s" % (
            check, name, cpp, upb, len(items), typ, show_bytes(data, 64), detail))
    print("  note: " + trunc_note)
    times = res.info["3 claimed-length times"]
    if times:
        print("  note: locwire took at most %.3fs on the %d inputs whose length prefix claims up to 2^64-1 bytes "
              "(limit 2s)" % (max(times), len(times)))


def print_json_table(json_table):
    print("\n=== Check 4: JSON edge cases (accept/reject) ===")
    print("  %-52s %-14s %-7s %-7s %-8s %s" % ("case", "type", "upb", "C++", "locwire", "status"))
    for name, typ, upb, cpp, lw, status in json_table:
        print("  %-52s %-14s %-7s %-7s %-8s %s" % (name[:52], typ, upb, cpp, lw, status))


def print_failures(res, max_print):
    if res.findings:
        print("\n=== Findings (not failures): %d ===" % len(res.findings))
        for check, typ, data, text in res.findings[:max_print]:
            print("  [%s] %s input %s\n    %s" % (check, typ, show_bytes(data, 512), text))
    if not res.failures:
        return
    print("\n=== FAILURES: %d (smallest inputs first) ===" % len(res.failures))
    shown = collections.Counter()
    for check, typ, data, lines in sorted(res.failures, key=lambda f: (f[0], len(f[2]), f[2], f[1])):
        shown[check] += 1
        if shown[check] > max_print:
            continue
        print("FAIL [%s] %s" % (check, typ))
        print("  input: " + show_bytes(data))
        for line in lines:
            print("  " + line)
    for check, n in shown.items():
        if n > max_print:
            print("  (%s: %d more failures not shown; --max-print raises the limit)" % (check, n - max_print))


def print_summary(ctx, args, elapsed, json_table, trunc_note):
    res = ctx.results
    print_counts(res)
    if "1" in args.only:
        print("  note: protoc text round trip (1e2) skipped for %d messages with NaN (text format drops NaN "
              "payloads)" % len(res.info["1e NaN skipped"]))
    if "2" in args.only:
        print_unknown_rule(res)
    if "3" in args.only:
        print_rejections(ctx, res, trunc_note)
    if "4" in args.only:
        print_json_table(json_table)
    print_failures(res, args.max_print)
    runs = ctx.tools.runs
    print("\nlocwire runs: %d, protoc runs: %d, seed %d, %.1fs" % (runs["locwire"], runs["protoc"], args.seed,
                                                                    elapsed))
    print("RESULT: %s" % ("PASS" if not res.failures else "FAIL (%d failures)" % len(res.failures)))
