"""Where a JSON text stops being well-formed, computed apart from the Swift reader: the judge of the offsets it
reports for `json-syntax` (proto/README.md, "## JSON", `§json-errors` and `§json-error-offset`).

The rule: the offset is the first byte that cannot continue a well-formed text, or the text's length when it ends
early. "Well-formed" is strict RFC 8259 JSON in valid UTF-8, with no unpaired UTF-16 surrogate in a `\\u` escape,
control characters escaped, no leading zeros, nothing after the top-level value but white space. The depth limit
is a separate code (`json-depth-limit-exceeded`) and is not judged here.

The method is the plain one: a recursive-descent recognizer says of a byte string whether it is a whole text, the
beginning of one (it ran out of bytes where more could follow), or neither; the offset is then the length of the
longest beginning. The recognizer asks "could this still go on?" only where the bytes run out: inside a `\\u`
escape by trying every way the remaining hex digits could be written, and inside a UTF-8 sequence by looking the
bytes up among the beginnings of every scalar value's UTF-8, as Python encodes them.

    python3 scripts/judges/json_error_offset_judge.py --self-test      # the cases below; exit 1 on a disagreement
    python3 scripts/judges/json_error_offset_judge.py CASES.json       # [{"hex": "...", "offset": N}], N -1: well-formed
    python3 scripts/judges/json_error_offset_judge.py --hex 5b30315d   # the offset of one text (-1: well-formed)
    python3 scripts/judges/json_error_offset_judge.py --vectors conformance/vectors/http.json conformance/vectors/json.json
        # http: each JSON body answered json-syntax has the rule's offset, and a body answered with another JSON
        # error is well-formed (syntax is checked first); json: json-syntax vectors are not well-formed, valid and
        # json-schema ones are (acceptable ones, where the peers differ, are left out)
"""
import itertools
import json
import sys

# The cases, as `("TEXT", OFFSET),` with OFFSET -1 for a well-formed text. TEXT is JSON written with only the escapes
# \" and \\, so that the line reads the same in Python and Swift; %XX stands for the byte 0xXX (%25 for a percent
# sign). They MUST stay equal, line for line, to the list in Tests/LocationWireJSONTests/JSONErrorOffsetTests.swift,
# which checks the reader against them and fails when the two lists differ.
# BEGIN CASES
CASES = [
    # Literals
    ("{\"x\":1, \"deviceId\": tru}", 23),
    ("tru", 3),
    ("[truex]", 5),
    ("[nulL]", 4),
    ("fals", 4),
    ("True", 0),
    ("NaN", 0),
    ("[nan]", 2),
    # Structure
    ("", 0),
    ("   ", 3),
    ("{", 1),
    ("{\"a\":1", 6),
    ("{\"a\":1,}", 7),
    ("[1,]", 3),
    ("{\"a\" 1}", 5),
    ("{\"a\":}", 5),
    ("{\"a\"::1}", 5),
    ("{,}", 1),
    ("[,]", 1),
    ("[1,,2]", 3),
    ("[1 2]", 3),
    ("{\"a\":1 \"b\":2}", 7),
    ("{1:2}", 1),
    ("{'a':1}", 1),
    ("{a:1}", 1),
    ("{/*c*/}", 1),
    ("[1] x", 4),
    ("{} {}", 3),
    ("1 2", 2),
    ("[[1,[2]]", 8),
    ("%EF%BB%BF{}", 0),
    ("{}%C3%A9", 2),
    # Numbers
    ("[01]", 2),
    ("01", 1),
    ("[-01]", 3),
    ("[00]", 2),
    ("-", 1),
    ("[-x]", 2),
    ("[--1]", 2),
    ("[+1]", 1),
    ("[.5]", 1),
    ("[1.]", 3),
    ("[1.e5]", 3),
    ("1.", 2),
    ("[1e]", 3),
    ("[1e+]", 4),
    ("1e+", 3),
    ("[1e+x]", 4),
    ("[1.5.]", 4),
    ("[1e5.0]", 4),
    ("[0x10]", 2),
    ("{\"sentAtMs\":01}", 13),
    ("[1e400, tru]", 11),
    # Strings and escapes
    ("\"ab", 3),
    ("\"a\\x\"", 3),
    ("\"\\q%FF\"", 2),
    ("\"\\U0041\"", 2),
    ("\"\\'\"", 2),
    ("\"a\\", 3),
    ("\"a%01\"", 2),
    ("\"a%09b\"", 2),
    ("\"%0A\"", 1),
    ("{\"%00\":1}", 2),
    ("{\"a\\", 4),
    # \u escapes and surrogates
    ("\"\\u12G4\"", 5),
    ("\"\\u\"", 3),
    ("\"\\u00\"", 5),
    ("\"\\u12", 5),
    ("\"\\uDX00\"", 4),
    ("\"\\ud800\"", 7),
    ("\"\\ud800", 7),
    ("\"\\ud800\\", 8),
    ("\"\\ud800\\n\"", 8),
    ("\"\\ud800 \"", 7),
    ("\"\\ud800\\u0041\"", 9),
    ("\"\\ud800\\ue000\"", 9),
    ("\"\\ud800\\ud800\"", 10),
    ("\"\\ud800\\udbff\"", 10),
    ("\"\\ud800\\ud", 10),
    ("\"\\uDBFF\\uDC0\"", 12),
    ("\"\\udc00\"", 4),
    ("\"\\uDC", 4),
    ("\"\\uDFFF\\uD800\"", 4),
    ("\"\\ud800%C3%A9\"", 7),
    ("\"\\uD8\"", 5),
    # UTF-8
    ("\"a%C3(\"", 3),
    ("\"%80\"", 1),
    ("\"%C0%80\"", 1),
    ("\"%C1%BF\"", 1),
    ("\"%ED%A0%80\"", 2),
    ("\"%E0%9F%BF\"", 2),
    ("\"%F0%8F%BF%BF\"", 2),
    ("\"%F4%90%80%80\"", 2),
    ("\"%F5%80%80%80\"", 1),
    ("\"%FF\"", 1),
    ("\"%C3\"", 2),
    ("\"%E2%82\"", 3),
    ("\"%E2%82", 3),
    ("\"%F0%9F%98", 4),
    ("\"%FF%01\"", 1),
    ("\"%C3\\u00e9\"", 2),
    ("\"%FF\\q\"", 1),
    ("\"%C3%A9%E2%82%AC%F0%9F%98%80%80\"", 10),
    ("\"%E2%28%A1\"", 2),
    ("\"ok\" %C3", 5),
    # In a message, syntax before the schema
    ("{\"deviceId\":\"a%C3(\"}", 15),
    ("{\"foo\":1,\"deviceId\":\"\\q\"}", 22),
    ("{\"fixes\":[{\"latitudeE7\":1,}]}", 26),
    ("{\"deviceId\":\"a\"} x", 17),
    # Well-formed
    ("\"\\ud83d\\ude00\"", -1),
    ("\"\\uDBFF\\uDFFF\"", -1),
    ("\"\\ud7ff\\ue000\\u0000\\/\"", -1),
    ("\"%F0%9F%98%80%C3%A9\"", -1),
    ("\"%EF%BF%BF%F4%8F%BF%BF%ED%9F%BF\"", -1),
    (" {\"a\" : [1, -0.5e+3, true, false, null, {}]} ", -1),
    ("0", -1),
]
# END CASES


def case_bytes(text):
    """The bytes a case's TEXT stands for: %XX is the byte 0xXX, every other character its ASCII byte."""
    out = bytearray()
    index = 0
    while index < len(text):
        if text[index] == "%":
            out.append(int(text[index + 1:index + 3], 16))
            index += 3
        else:
            out += text[index].encode("ascii")
            index += 1
    return bytes(out)


def _utf8_beginnings():
    """Every proper beginning of a multi-byte UTF-8 sequence: the first one, two or three bytes of the encoding of
    some scalar value (surrogates are no scalar values, and Python will not encode them)."""
    beginnings = set()
    for code in range(0x80, 0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        encoded = chr(code).encode("utf-8")
        for length in range(1, len(encoded)):
            beginnings.add(encoded[:length])
    return beginnings


UTF8_BEGINNINGS = _utf8_beginnings()
WHITE_SPACE = b" \t\n\r"
HEX = "0123456789abcdefABCDEF"
DIGITS = b"0123456789"


class RanOut(Exception):
    """The bytes ended where a well-formed text could still go on."""


class Broken(Exception):
    """The last byte read cannot continue a well-formed text."""


class Recognizer:
    def __init__(self, data):
        self.data = data
        self.index = 0

    def peek(self):
        return self.data[self.index] if self.index < len(self.data) else None

    def take(self):
        byte = self.peek()
        if byte is None:
            raise RanOut
        self.index += 1
        return byte

    def take_one_of(self, allowed):
        if self.take() not in allowed:
            raise Broken

    def white_space(self):
        while self.peek() is not None and self.peek() in WHITE_SPACE:
            self.index += 1

    def text(self):
        self.white_space()
        self.value()
        self.white_space()
        if self.index != len(self.data):
            raise Broken

    def value(self):
        byte = self.peek()
        if byte is None:
            raise RanOut
        if byte == ord("{"):
            self.object()
        elif byte == ord("["):
            self.array()
        elif byte == ord('"'):
            self.string()
        elif byte in b"-0123456789":
            self.number()
        elif byte == ord("t"):
            self.literal(b"true")
        elif byte == ord("f"):
            self.literal(b"false")
        elif byte == ord("n"):
            self.literal(b"null")
        else:
            raise Broken

    def literal(self, word):
        for expected in word:
            self.take_one_of([expected])

    def object(self):
        self.take_one_of(b"{")
        self.white_space()
        if self.peek() == ord("}"):
            self.index += 1
            return
        while True:
            self.white_space()
            self.string()
            self.white_space()
            self.take_one_of(b":")
            self.white_space()
            self.value()
            self.white_space()
            byte = self.take()
            if byte == ord("}"):
                return
            if byte != ord(","):
                raise Broken

    def array(self):
        self.take_one_of(b"[")
        self.white_space()
        if self.peek() == ord("]"):
            self.index += 1
            return
        while True:
            self.white_space()
            self.value()
            self.white_space()
            byte = self.take()
            if byte == ord("]"):
                return
            if byte != ord(","):
                raise Broken

    def number(self):
        if self.peek() == ord("-"):
            self.index += 1
        first = self.take()
        if first not in DIGITS:
            raise Broken
        if first != ord("0"):  # after a leading 0, a digit cannot follow
            self.digits()
        if self.peek() == ord("."):
            self.index += 1
            self.take_one_of(DIGITS)
            self.digits()
        if self.peek() is not None and self.peek() in b"eE":
            self.index += 1
            if self.peek() is not None and self.peek() in b"+-":
                self.index += 1
            self.take_one_of(DIGITS)
            self.digits()

    def digits(self):
        while self.peek() is not None and self.peek() in DIGITS:
            self.index += 1

    def string(self):
        self.take_one_of(b'"')
        pending = b""  # the beginning of a multi-byte UTF-8 sequence
        while True:
            byte = self.take()
            if pending or byte >= 0x80:
                candidate = pending + bytes([byte])
                if candidate in UTF8_BEGINNINGS:
                    pending = candidate
                    continue
                try:
                    candidate.decode("utf-8")
                except UnicodeDecodeError:
                    raise Broken from None
                pending = b""
                continue
            if byte == ord('"'):
                return
            if byte < 0x20:
                raise Broken
            if byte == ord("\\"):
                self.escape()

    def escape(self):
        kind = self.take()
        if kind in b'"\\/bfnrt':
            return
        if kind != ord("u"):
            raise Broken
        first = self.hex4(lambda value: not 0xDC00 <= value <= 0xDFFF)
        if 0xD800 <= first <= 0xDBFF:
            self.take_one_of(b"\\")
            self.take_one_of(b"u")
            self.hex4(lambda value: 0xDC00 <= value <= 0xDFFF)

    def hex4(self, acceptable):
        """Four hex digits whose value is `acceptable`; when the bytes end among them, whether some way of writing
        the rest makes an acceptable value decides between RanOut and Broken."""
        digits = ""
        for count in range(4):
            if self.peek() is None:
                for rest in itertools.product("0123456789abcdef", repeat=4 - count):
                    if acceptable(int(digits + "".join(rest), 16)):
                        raise RanOut
                raise Broken
            byte = self.take()
            if chr(byte) not in HEX:
                raise Broken
            digits += chr(byte)
        value = int(digits, 16)
        if not acceptable(value):
            raise Broken
        return value


def classify(data):
    """"whole": a well-formed text; "beginning": not one, but the beginning of one; "broken": neither."""
    try:
        Recognizer(data).text()
        return "whole"
    except RanOut:
        return "beginning"
    except Broken:
        return "broken"
    except RecursionError:
        raise SystemExit("json_error_offset_judge.py: nesting too deep for the recognizer")


def error_offset(data):
    """The rule's offset for `data`, -1 when it is well-formed."""
    if classify(data) == "whole":
        return -1
    for length in range(1, len(data) + 1):
        if classify(data[:length]) == "broken":
            return length - 1
    return len(data)


def judge(cases):
    """(label, bytes, expected offset) each; prints every disagreement and returns how many there were."""
    wrong = 0
    for label, data, expected in cases:
        found = error_offset(data)
        if found != expected:
            wrong += 1
            print(f"{label}: expected offset {expected}, the rule gives {found}")
    return wrong


def vector_cases(paths):
    """(label, bytes, expected offset) for the vectors of `paths` whose JSON text the rule decides: an offset for a
    json-syntax answer or vector, -1 (well-formed) for a valid one or one refused for another JSON reason."""
    cases = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
        for vector in document["vectors"]:
            if document["family"] == "http":
                request = vector.get("httpRequest") or {}
                fields = {name.lower(): value for name, value in request.get("headers", [])}
                if "bodyHex" not in request or "json" not in fields.get("content-type", ""):
                    continue
                if "content-encoding" in fields:
                    continue
                for answer in vector["expectedAnswers"]:
                    code = answer.get("code", "")
                    if code == "json-syntax":
                        cases.append((vector["id"], bytes.fromhex(request["bodyHex"]), answer["offset"]))
                    elif code.startswith("json-") and code != "json-depth-limit-exceeded":
                        cases.append((vector["id"], bytes.fromhex(request["bodyHex"]), -1))
            elif document["family"] == "json" and "inputJSON" in vector and vector["result"] != "acceptable":
                data = vector["inputJSON"].encode("utf-8")
                if vector.get("errorCategory") == "json-syntax":
                    offset = error_offset(data)
                    cases.append((vector["id"], data, offset if offset >= 0 else "not -1"))
                else:
                    cases.append((vector["id"], data, -1))
    return cases


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == "--vectors":
        cases = vector_cases(arguments[1:])
        wrong = judge(cases)
        print(f"{len(cases) - wrong} of {len(cases)} vectors agree with the rule")
        return 1 if wrong else 0
    if arguments == ["--self-test"]:
        cases = [(text, case_bytes(text), offset) for text, offset in CASES]
    elif len(arguments) == 2 and arguments[0] == "--hex":
        print(error_offset(bytes.fromhex(arguments[1])))
        return 0
    elif len(arguments) == 1 and not arguments[0].startswith("-"):
        with open(arguments[0], encoding="utf-8") as file:
            cases = [(entry["hex"], bytes.fromhex(entry["hex"]), entry["offset"]) for entry in json.load(file)]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    wrong = judge(cases)
    print(f"{len(cases) - wrong} of {len(cases)} cases agree with the rule")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
