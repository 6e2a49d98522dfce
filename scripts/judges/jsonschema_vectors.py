#!/usr/bin/env python3
"""Tests the JSON Schemas of proto/jsonschema/ (scripts/codegen/jsonschema_gen.py) against the conformance vectors.

    python3 scripts/judges/jsonschema_vectors.py [--locwire PATH] [--verbose]

  1. Every file is a valid draft 2020-12 schema (Draft202012Validator.check_schema) and stands alone: each `$ref`
     points into the file and resolves.
  2. Every JSON text a vector says is valid validates against its message's schema: the json family's inputJSON and
     canonicalJSON, the canonical and wire families' canonicalJSON, and the behaviour families' requests and
     expected responses (locationwire.conformance.v1 messages, without vectorId).
  3. Every invalid JSON input (json family) is caught or not exactly as proto/jsonschema/VECTORS.md lists it: the
     caught ones with the instance path of jsonschema's best-matching error, the others under the reason the
     schema cannot catch them. The vectors listed as "Not JSON" must be texts that are not well-formed, by the rule
     of scripts/judges/json_error_offset_judge.py, and every such text must be listed there.
  4. Every acceptable JSON input (the peers differ) is accepted or refused by the schema as VECTORS.md says; with
     --locwire, locwire convert must accept or refuse it as VECTORS.md's LocationWire column says.

A text is parsed with its numbers exact (a fraction or exponent as a Decimal, which counts as an integer when it is
integral, as JSON Schema says of numbers), and refused before any schema when it is not well-formed JSON.
--verbose prints each invalid or acceptable vector's verdict and error. Exit status: 0 everything as listed, 1 a
difference (each is printed), 2 usage error.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_error_offset_judge import classify  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "proto", "jsonschema")
LIST = os.path.join(SCHEMAS, "VECTORS.md")
VECTORS = os.path.join(ROOT, "conformance", "vectors")
# The families whose vectors carry JSON (only the json family's inputs may be invalid or acceptable).
FAMILIES = ["json", "canonical", "wire", "session", "ledger", "recording", "fences", "planning", "arming", "http"]
NOT_JSON = "Not JSON"


def is_integer(checker, instance):
    """JSON Schema's integer: a number whose fraction is zero, however it is written (1.0 and 1e3 are integers)."""
    if isinstance(instance, Decimal):
        return instance.is_finite() and instance == instance.to_integral_value()
    return Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer")


Validator = jsonschema.validators.extend(
    Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer))


class NotJSON(Exception):
    pass


def refuse_constant(name):
    raise NotJSON(f"{name} is not a JSON literal")


def parse(text):
    """The value of a JSON text, numbers exact; NotJSON when the text is not well-formed."""
    if classify(text.encode("utf-8", "surrogatepass")) != "whole":
        raise NotJSON("not well-formed")
    return json.loads(text, parse_float=Decimal, parse_constant=refuse_constant)


def load_schemas(problems):
    """The validator of each message, by full name, after checking each file (1)."""
    validators = {}
    for path in sorted(glob.glob(os.path.join(SCHEMAS, "*.schema.json"))):
        name = os.path.basename(path)[:-len(".schema.json")]
        with open(path, encoding="utf-8") as file:
            schema = json.load(file)
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            problems.append(f"{name}: not a valid draft 2020-12 schema: {error.message}")
            continue
        for ref in references(schema):
            if not ref.startswith("#/") or resolve(schema, ref) is None:
                problems.append(f"{name}: $ref {ref} does not resolve inside the file")
        if schema.get("$ref") != f"#/$defs/{name}":
            problems.append(f"{name}: its root is not #/$defs/{name}")
        validators[name] = Validator(schema)
    return validators


def references(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def resolve(schema, ref):
    node = schema
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def documents():
    """(vector id, what, message type, result, the JSON: a text, or a value already parsed) of every vector."""
    for family in FAMILIES:
        with open(os.path.join(VECTORS, f"{family}.json"), encoding="utf-8") as file:
            vectors = json.load(file, parse_float=Decimal)["vectors"]
        for vector in vectors:
            message, result = vector["messageType"], vector["result"]
            if "inputJSON" in vector:
                yield vector["id"], "inputJSON", message, result, vector["inputJSON"]
            if "canonicalJSON" in vector:
                yield vector["id"], "canonicalJSON", message, "valid", vector["canonicalJSON"]
            if "request" in vector:
                yield vector["id"], "request", message, "valid", vector["request"]
            if "expectedResponse" in vector:
                response = re.sub(r"Request$", "Response", message)
                yield vector["id"], "expectedResponse", response, "valid", vector["expectedResponse"]


def verdict(validators, message, json_text_or_value):
    """(None, None) when the JSON validates; otherwise where it is refused, "not JSON" (and None) or the path of
    the best-matching error (and the error)."""
    try:
        value = parse(json_text_or_value) if isinstance(json_text_or_value, str) else json_text_or_value
    except (NotJSON, ValueError):
        return "not JSON", None
    error = best_match(validators[message].iter_errors(value))
    return (None, None) if error is None else (error.json_path, error)


def read_list():
    """VECTORS.md: {id: path} caught, {id: reason} not caught, {id: (schema, locwire)} acceptable."""
    caught, missed, acceptable = {}, {}, {}
    section, reason, counts = None, None, {}
    with open(LIST, encoding="utf-8") as file:
        for line in file:
            if line.startswith("## "):
                section = line[3:].split(":")[0].strip()
                counts[section] = re.findall(r"[0-9]+", line)
            elif line.startswith("### "):
                reason = line[4:].strip()
            elif section == "Caught" and (match := re.match(r"- `([^`]+)` at `([^`]+)`$", line.rstrip())):
                caught[match[1]] = match[2]
            elif section == "Not caught" and (match := re.match(r"- `([^`]+)`$", line.rstrip())):
                missed[match[1]] = reason
            elif section == "Acceptable" and (
                    match := re.match(r"\| `([^`]+)` \| (accepts|refuses[^|]*?) \| (accepts|refuses) \|", line)):
                acceptable[match[1]] = (match[2], match[3])
    total = str(len(caught) + len(missed))
    for section, figures in [("Caught", [str(len(caught)), total]), ("Not caught", [str(len(missed)), total]),
                             ("Acceptable", [str(len(acceptable))])]:
        if counts.get(section) != figures:
            raise SystemExit(f"jsonschema_vectors.py: VECTORS.md's heading ## {section} should say "
                             f"{' of '.join(figures)}, as many as it lists")
    return caught, missed, acceptable


def locwire_verdict(locwire, message, text):
    result = subprocess.run([locwire, "convert", "--type", message, "--from", "json", "--to", "binpb"],
                            input=text.encode("utf-8", "surrogatepass"), capture_output=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"locwire convert failed (exit {result.returncode}): {result.stderr.decode()[:300]}")
    return "accepts" if result.returncode == 0 else "refuses"


def schema_says(where):
    """How VECTORS.md writes a verdict of verdict()."""
    if where is None:
        return "accepts"
    return "refuses (not JSON)" if where == "not JSON" else f"refuses at `{where}`"


def run_vectors(validators, problems):
    """Validates every document: (how many valid documents of each kind, {id: (result, message, text, where)} of the
    invalid and acceptable inputs)."""
    valid, verdicts = {}, {}
    for vector_id, what, message, result, json_value in documents():
        if message not in validators:
            problems.append(f"{vector_id}: no schema for {message}")
            continue
        where, error = verdict(validators, message, json_value)
        if result == "valid":
            valid[what] = valid.get(what, 0) + 1
            if where is not None:
                detail = error.message[:300] if error else "not well-formed JSON"
                problems.append(f"{vector_id}: its valid {what} does not validate: {where}: {detail}")
        elif what == "inputJSON":
            verdicts[vector_id] = (result, message, json_value, where)
            if VERBOSE:
                print(f"{vector_id} ({result}): {schema_says(where)}" + (f": {error.message[:160]}" if error else ""))
    return valid, verdicts


def compare_with_list(verdicts, locwire, problems):
    """Checks the invalid and acceptable inputs' verdicts against VECTORS.md (3, 4)."""
    caught_list, missed_list, acceptable_list = read_list()
    for vector_id, (result, message, text, where) in sorted(verdicts.items()):
        if result == "invalid" and where == "not JSON" and missed_list.get(vector_id) != NOT_JSON:
            problems.append(f"{vector_id}: not well-formed JSON, not listed under ### {NOT_JSON} (- `{vector_id}`)")
        elif result == "invalid" and where != "not JSON" and missed_list.get(vector_id) == NOT_JSON:
            problems.append(f"{vector_id}: listed under ### {NOT_JSON}, but it is well-formed")
        elif result == "invalid" and where is None and vector_id not in missed_list:
            problems.append(f"{vector_id}: not caught, not listed as such (- `{vector_id}` under its reason)")
        elif result == "invalid" and where not in (None, "not JSON") and caught_list.get(vector_id) != where:
            problems.append(f"{vector_id}: caught at {where}, listed at {caught_list.get(vector_id)} "
                            f"(- `{vector_id}` at `{where}`)")
        elif result == "acceptable" and acceptable_list.get(vector_id, ("",))[0] != schema_says(where):
            listed = acceptable_list.get(vector_id, ("not listed",))[0]
            problems.append(f"{vector_id}: the schema {schema_says(where)}, listed: {listed}")
        elif result == "acceptable" and locwire:
            found = locwire_verdict(locwire, message, text)
            if found != acceptable_list[vector_id][1]:
                problems.append(f"{vector_id}: locwire {found}, listed: {acceptable_list[vector_id][1]}")
    for vector_id in sorted((set(caught_list) | set(missed_list) | set(acceptable_list)) - set(verdicts)):
        problems.append(f"{vector_id}: listed, but the json family has no such invalid or acceptable input")
    for vector_id in sorted(set(caught_list) & set(missed_list)):
        problems.append(f"{vector_id}: listed as caught and as not caught")
    return missed_list


# Texts on the edges of each rule, which the schemas and locwire must judge alike (with --locwire): what the
# vectors leave out. Each is a LocationBatch.
PROBES = [
    '{"sentAtMs":"1"}', '{"sentAtMs":"+1"}', '{"sentAtMs":"-1"}', '{"sentAtMs":"1.0"}', '{"sentAtMs":"1.5"}',
    '{"sentAtMs":"1.50"}', '{"sentAtMs":"1e3"}', '{"sentAtMs":"10e-1"}', '{"sentAtMs":"-0"}', '{"sentAtMs":"01"}',
    '{"sentAtMs":"1 "}', '{"sentAtMs":"9223372036854775807"}', '{"sentAtMs":"-9223372036854775808"}',
    '{"sentAtMs":"9223372036854775808"}', '{"sentAtMs":"-9223372036854775809"}', '{"sentAtMs":1.0}',
    '{"sentAtMs":1e3}', '{"sentAtMs":1e-1}', '{"sentAtMs":100e-2}', '{"sentAtMs":9223372036854775807}',
    '{"sentAtMs":9223372036854775808}', '{"sentAtMs":-9223372036854775808}', '{"sentAtMs":null}',
    '{"batchId":"18446744073709551615"}', '{"batchId":"18446744073709551616"}', '{"batchId":"-0"}',
    '{"batchId":"-0.0"}', '{"batchId":"-0e3"}', '{"batchId":"-1e0"}', '{"batchId":"+0"}', '{"batchId":-0}',
    '{"batchId":18446744073709551615}', '{"batchId":18446744073709551616}', '{"batchId":-1}',
    '{"liveFix":{"altitudeCm":"2147483647"}}', '{"liveFix":{"altitudeCm":"2147483648"}}',
    '{"liveFix":{"altitudeCm":"-2147483648"}}', '{"liveFix":{"altitudeCm":2.147483647e9}}',
    '{"liveFix":{"altitudeCm":2.1474836475e9}}', '{"liveFix":{"horizontalAccuracyCm":"4294967295"}}',
    '{"liveFix":{"horizontalAccuracyCm":"4294967296"}}', '{"liveFix":{"horizontalAccuracyCm":-0}}',
    '{"liveFix":{"isMock":true}}', '{"liveFix":{"isMock":0}}', '{"liveFix":{"isMock":null}}',
    '{"datum":"COORDINATE_DATUM_WGS84"}', '{"datum":1}', '{"datum":"1"}', '{"datum":"+1"}', '{"datum":"1.0"}',
    '{"datum":"1e0"}', '{"datum":99}', '{"datum":-1}', '{"datum":2147483647}', '{"datum":"2147483648"}',
    '{"datum":"-2147483649"}', '{"datum":1.5}', '{"datum":"1.5"}', '{"datum":" 1"}', '{"datum":true}',
    '{"deviceId":"a","device_id":"b"}', '{"device_id":null,"deviceId":"a"}', '{"device_id":"a"}',
    '{"liveFix":null}', '{"fixes":null}', '{"fixes":[]}', '{"fixes":[{"sequence":"1"}]}', '{"fixes":[1]}',
    '{"liveFix":{"pressureHpa":"NaN"}}', '{"liveFix":{"pressureHpa":"Infinity"}}',
    '{"liveFix":{"pressureHpa":"-Infinity"}}', '{"liveFix":{"pressureHpa":"inf"}}',
    '{"liveFix":{"pressureHpa":"+1.5"}}', '{"liveFix":{"pressureHpa":"-1.5e3"}}', '{"liveFix":{"pressureHpa":".5"}}',
    '{"liveFix":{"pressureHpa":"1."}}', '{"liveFix":{"pressureHpa":1e-50}}', '{"liveFix":{"pressureHpa":-0.0}}',
    '{"liveFix":{"pressureHpa":340282356779733642748073463979561713663}}',
    '{"liveFix":{"pressureHpa":340282356779733642748073463979561713664}}',
    '{"liveFix":{"pressureHpa":-340282356779733642748073463979561713664}}',
    '{"liveFix":{"pressureHpa":true}}',
    '{"compactFixes":{"sequence":{"presence":""}}}', '{"compactFixes":{"sequence":{"presence":"AA"}}}',
    '{"compactFixes":{"sequence":{"presence":"AA=="}}}', '{"compactFixes":{"sequence":{"presence":"AA="}}}',
    '{"compactFixes":{"sequence":{"presence":"AAA="}}}', '{"compactFixes":{"sequence":{"presence":"AAAAA"}}}',
    '{"compactFixes":{"sequence":{"presence":"AA==AA"}}}', '{"compactFixes":{"sequence":{"presence":"-_-_"}}}',
    '{"compactFixes":{"sequence":{"presence":"a-+/"}}}', '{"compactFixes":{"sequence":{"presence":"AA==="}}}',
    '{"compactFixes":{"sequence":{"presence":"=AAA"}}}', '{"compactFixes":{"sequence":{"deltas":["1",-2]}}}',
]
# Where they differ, and why (proto/jsonschema/README.md, "What the schemas cannot check").
PROBES_DIFFERING = {
    '{"sentAtMs":"1e-1"}': "an integer written with an exponent in a string is held only to the number grammar",
    '{"sentAtMs":"1e30"}': "an integer written with an exponent in a string is held only to the number grammar",
    '{"liveFix":{"pressureHpa":"1e39"}}': "a float in a string is held only to the number grammar",
    '{"deviceId":"a","deviceId":"b"}': "a JSON parser keeps one of two members of the same name",
    '{"sentAtMs":"1\\n"}': "Python's re takes $ before a final newline (ECMA-262, which JSON Schema names, does not)",
}


def run_probes(validators, locwire, problems):
    """Checks that the schemas judge PROBES as locwire does, and PROBES_DIFFERING as it does not."""
    for text in PROBES + list(PROBES_DIFFERING):
        message = "locationwire.v1.LocationBatch"
        ours = "accepts" if verdict(validators, message, text)[0] is None else "refuses"
        theirs = locwire_verdict(locwire, message, text)
        if (ours == theirs) != (text not in PROBES_DIFFERING):
            why = PROBES_DIFFERING.get(text, "listed as agreeing")
            problems.append(f"probe {text}: the schema {ours}, locwire {theirs} ({why})")
    return len(PROBES) + len(PROBES_DIFFERING)


VERBOSE = False


def main():
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--locwire", help="also check VECTORS.md's LocationWire column and the probes with it")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    VERBOSE = args.verbose
    problems = []
    validators = load_schemas(problems)
    valid, verdicts = run_vectors(validators, problems)
    missed_list = compare_with_list(verdicts, args.locwire, problems)
    probes = run_probes(validators, args.locwire, problems) if args.locwire else 0

    invalid = {vector_id: entry for vector_id, entry in verdicts.items() if entry[0] == "invalid"}
    caught = sum(1 for entry in invalid.values() if entry[3] not in (None, "not JSON"))
    reasons = {}
    for vector_id, entry in invalid.items():
        if entry[3] in (None, "not JSON"):
            reason = missed_list.get(vector_id, "not listed")
            reasons[reason] = reasons.get(reason, 0) + 1
    acceptable = [entry for entry in verdicts.values() if entry[0] == "acceptable"]
    refused = sum(1 for entry in acceptable if entry[3] is not None)
    print(f"{len(validators)} schemas, each a valid draft 2020-12 schema that stands alone")
    print(f"{sum(valid.values())} valid JSON documents validate ("
          + ", ".join(f"{count} {what}" for what, count in sorted(valid.items())) + ")")
    print(f"{len(invalid)} invalid JSON inputs: {caught} caught, {len(invalid) - caught} not caught ("
          + "; ".join(f"{reason}: {count}" for reason, count in sorted(reasons.items())) + ")")
    print(f"{len(acceptable)} acceptable JSON inputs: the schema refuses {refused}, accepts {len(acceptable) - refused}"
          + (" (locwire's verdicts checked against VECTORS.md)" if args.locwire else ""))
    if args.locwire:
        print(f"{probes} probes at the edges of the rules checked against locwire ({len(PROBES_DIFFERING)} where they "
              "differ, as listed)")
    for problem in problems:
        print(f"jsonschema_vectors.py: {problem}", file=sys.stderr)
    if problems:
        print(f"jsonschema_vectors.py: {len(problems)} problems (VECTORS.md: {os.path.relpath(LIST, ROOT)})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
