#!/usr/bin/env python3
"""proto/openapi.yaml says what proto/HTTP.md's tables say, no more and no less.

    .ci/checks/openapi_tables.py [--spec proto/openapi.yaml] [--http proto/HTTP.md] [--readme proto/README.md]

Compared, each in both directions, naming every difference:

- the endpoint table: every method and path, the message each takes and answers (`x-protobuf-message`), the
  media types of its `200`, and which endpoints a server may leave out (`x-optional`);
- the error codes: every (status, code) pair of the `http-error-codes` table, "the codec's or the JSON reader's
  code" and "a validation rule's code" standing for proto/README.md's tables ("Decoding errors", "JSON", the
  error-severity rows of "Validation rules"), against the codes each response allows; and the four code lists of
  the `ErrorBody` schema against those tables;
- the error body's members and their types;
- the statuses: those of the tables against those the document answers, and every status of the table "What a
  device does with each answer" among those of `POST /v1/batches`;
- the HTTP fields the page names against those the document describes (parameters, answers' headers, the
  security scheme, and `x-http-fields` for the ones OpenAPI has no place for); and the fields the page's rules
  put on an answer (`FIELD_RULES`: each rule's paragraph must still name the status and the field) against the
  headers of every response with that status, required where the page says MUST.

Exit status: 0 in step, 1 a difference (each printed), 2 a file that cannot be read.
"""
import argparse
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = "locationwire.v1."
# The fields an answer carries, by the rule (its tag in proto/HTTP.md) that says so: (tag, status, field, whether
# every such answer carries it). The page's prose is not parsed for these; instead each rule's paragraph must
# still name its status and field, so a rule that is reworded away fails here until this list follows it.
FIELD_RULES = [
    ("§http-auth-errors", 401, "WWW-Authenticate", True),
    ("§http-allow", 405, "Allow", True),
    ("§http-content-coding", 415, "Accept-Encoding", False),  # only with unsupported-content-encoding
    ("§http-retry-after", 429, "Retry-After", True),
    ("§http-retry-after", 503, "Retry-After", True),
    ("§http-retry-after", 408, "Retry-After", False),
    ("§http-close", 408, "Connection", False),
    ("§http-close", 413, "Connection", False),
    ("§http-close", 503, "Connection", False),
]


def tables(path):
    """Every markdown table of `path`: (header cells, rows of cells), cells stripped."""
    found, current = [], None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("|") and line.endswith("|"):
            cells = [cell.strip() for cell in line[1:-1].split("|")]
            if current is None:
                current = (cells, [])
                found.append(current)
            elif not all(re.fullmatch(r":?-+:?", cell) for cell in cells):
                current[1].append(cells)
        else:
            current = None
    return found


def table(all_tables, first_headers, source):
    """The rows of the table whose header starts with `first_headers` (a cell, or a list of cells)."""
    first_headers = [first_headers] if isinstance(first_headers, str) else first_headers
    for header, rows in all_tables:
        if header[:len(first_headers)] == first_headers:
            return rows
    sys.exit(f"openapi_tables: {source} has no table whose header starts {' | '.join(first_headers)}")


def ticked(text):
    """The `code spans` of a cell."""
    return re.findall(r"`([^`]+)`", text)


def resolve(spec, node):
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target = spec
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def code_values(spec, schema):
    """Every code a schema of the `code` member allows (const, enum, anyOf, allOf, local references)."""
    schema = resolve(spec, schema)
    values = set()
    if not isinstance(schema, dict):
        return values
    if "const" in schema:
        values.add(schema["const"])
    values.update(schema.get("enum", []))
    for key in ("anyOf", "oneOf", "allOf"):
        for part in schema.get(key, []):
            values |= code_values(spec, part)
    return values


def response_codes(spec, response):
    """The codes an error response's JSON body allows: the `code` member's schemas, merged over allOf."""
    response = resolve(spec, response)
    error_body = spec["components"]["schemas"]["ErrorBody"]
    schema = resolve(spec, response["content"]["application/json"]["schema"])
    parts = [resolve(spec, part) for part in schema.get("allOf", [schema])]
    # ErrorBody's own `code` allows every code; a response that narrows it allows what it narrows to.
    narrowed = [part["properties"]["code"] for part in parts
                if part is not error_body and "code" in part.get("properties", {})]
    return set().union(*(code_values(spec, part) for part in narrowed or [error_body["properties"]["code"]]))


class Differences:
    def __init__(self):
        self.lines = []

    def compare(self, what, page, document, page_name="proto/HTTP.md"):
        for item in sorted(set(page) - set(document), key=str):
            self.lines.append(f"{what}: {item} is in {page_name}, not in proto/openapi.yaml")
        for item in sorted(set(document) - set(page), key=str):
            self.lines.append(f"{what}: {item} is in proto/openapi.yaml, not in {page_name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default=os.path.join(ROOT, "proto", "openapi.yaml"))
    parser.add_argument("--http", default=os.path.join(ROOT, "proto", "HTTP.md"))
    parser.add_argument("--readme", default=os.path.join(ROOT, "proto", "README.md"))
    arguments = parser.parse_args()
    try:
        spec = yaml.safe_load(open(arguments.spec, encoding="utf-8"))
        http_tables = tables(arguments.http)
        readme_tables = tables(arguments.readme)
        http_text = open(arguments.http, encoding="utf-8").read()
    except OSError as error:
        print(f"openapi_tables: {error}", file=sys.stderr)
        return 2
    differences = Differences()
    schemas = spec["components"]["schemas"]

    # The endpoints: method and path, the messages, the media types of the 200, which are optional.
    operations = {}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "post", "delete", "patch", "head", "options", "trace"):
                operations[(method.upper(), path)] = operation
    endpoint_rows = table(http_tables, "Method and path", "proto/HTTP.md")
    page_endpoints, page_messages, page_answers = {}, set(), set()
    for row in endpoint_rows:
        method, path = ticked(row[0])[0].split(" ", 1)
        page_endpoints[(method, path)] = row
        request = ticked(row[1])
        page_messages.add((method, path, "request", PACKAGE + request[0] if request else "none"))
        answer = ticked(row[2])
        if len(answer) > 1:
            page_answers.add((method, path, "200", "message " + PACKAGE + answer[1]))
        else:
            for name, media in (("JSON", "application/json"), ("GeoJSON", "application/geo+json")):
                if re.search(rf"\b{name}\b", row[2]):
                    page_answers.add((method, path, "200", "media " + media))
    differences.compare("endpoint", page_endpoints, operations)
    document_messages, document_answers = set(), set()
    for (method, path), operation in operations.items():
        content = (operation.get("requestBody") or {}).get("content") or {}
        names = {media.get("x-protobuf-message") for media in content.values()}
        if not content:
            document_messages.add((method, path, "request", "none"))
        for name in names:
            document_messages.add((method, path, "request", name))
        if content and set(content) != {"application/x-protobuf", "application/json"}:
            differences.lines.append(
                f"endpoint {method} {path}: takes {sorted(content)}, not both formats (§http-media-types)")
        answer = operation["responses"].get("200", {}).get("content") or {}
        messages = {media.get("x-protobuf-message") for media in answer.values()} - {None}
        for name in messages:
            document_answers.add((method, path, "200", "message " + name))
        if not messages:
            for media in answer:
                document_answers.add((method, path, "200", "media " + media))
    differences.compare("body", page_messages, document_messages)
    differences.compare("answer", page_answers, document_answers)
    required = set(re.findall(r"A server MUST offer `(\w+) (\S+)`", http_text))
    if not required:
        differences.lines.append("proto/HTTP.md: no sentence 'A server MUST offer `METHOD PATH`' found")
    for key, operation in operations.items():
        if operation.get("x-optional") != (key not in required):
            differences.lines.append(
                f"endpoint {' '.join(key)}: x-optional is {operation.get('x-optional')}, the page makes it "
                f"{'required' if key in required else 'optional'}")

    # The codes: the page's tables, and proto/README.md's for the codec, the JSON reader and the rules.
    decoding = {ticked(row[0])[0] for row in table(readme_tables, ["Code", "The input"], "proto/README.md")}
    json_codes = {ticked(row[0])[0] for row in table(readme_tables, ["Code", "The text"], "proto/README.md")}
    validation = {ticked(row[0])[0] for row in table(readme_tables, ["Code", "Severity"], "proto/README.md")
                  if row[1] == "error"}
    page_pairs, binding_codes = set(), set()
    for row in table(http_tables, "Status", "proto/HTTP.md"):
        status = int(ticked(row[0])[0])
        codes = ticked(row[1])
        if codes:
            page_pairs.add((status, codes[0]))
            binding_codes.add(codes[0])
        elif "codec" in row[1] and "JSON reader" in row[1]:
            page_pairs |= {(status, code) for code in decoding | json_codes}
        elif "validation rule" in row[1]:
            page_pairs |= {(status, code) for code in validation}
        else:
            differences.lines.append(f"proto/HTTP.md: the error code row {row} names no code this check reads")
    responses = spec["components"]["responses"]
    document_pairs, document_statuses = set(), {200}
    used = []
    for (method, path), operation in operations.items():
        for status, response in operation["responses"].items():
            document_statuses.add(int(status))
            if status != "200":
                used.append((int(status), response, f"{method} {path}"))
    for name, response in responses.items():
        used.append((response.get("x-status"), response, f"components/responses/{name}"))
        if response.get("x-status") is None:
            differences.lines.append(f"components/responses/{name}: no x-status")
    for status, response, where in used:
        resolved = resolve(spec, response)
        if resolved.get("x-status") not in (None, status):
            differences.lines.append(f"{where}: answers {status} with a response whose x-status is "
                                     f"{resolved.get('x-status')}")
        document_statuses.add(status)
        document_pairs |= {(status, code) for code in response_codes(spec, resolved)}
    differences.compare("status and code", page_pairs, document_pairs)
    differences.compare("BindingErrorCode", binding_codes, code_values(spec, schemas["BindingErrorCode"]))
    differences.compare("DecodingErrorCode", decoding, code_values(spec, schemas["DecodingErrorCode"]),
                        "proto/README.md")
    differences.compare("JSONErrorCode", json_codes, code_values(spec, schemas["JSONErrorCode"]), "proto/README.md")
    differences.compare("ValidationRuleCode", validation, code_values(spec, schemas["ValidationRuleCode"]),
                        "proto/README.md")

    # The statuses: the tables' and the device table's.
    page_statuses = {status for status, _ in page_pairs} | {200}
    device_statuses = {int(status) for row in table(http_tables, "Answer to `POST /v1/batches`", "proto/HTTP.md")
                       for status in re.findall(r"`(\d{3})`", row[0])}
    differences.compare("status", page_statuses | device_statuses, document_statuses)
    batches = {int(status) for status in operations.get(("POST", "/v1/batches"), {}).get("responses", {})}
    for status in sorted(device_statuses - batches):
        differences.lines.append(f"status: {status} is in the table 'What a device does with each answer', not "
                                 "among the responses of POST /v1/batches in proto/openapi.yaml")

    # The error body's members.
    member_type = {"string": "string", "integer": "integer"}
    page_members = {(ticked(row[0])[0], member_type.get(row[1], row[1]))
                    for row in table(http_tables, "Member", "proto/HTTP.md")}
    error_body = schemas["ErrorBody"]["properties"]
    document_members = {(name, resolve(spec, schema).get("type", "code" if name == "code" else "?"))
                        for name, schema in error_body.items()}
    document_members = {(name, "string" if kind == "code" else kind) for name, kind in document_members}
    differences.compare("error body member", page_members, document_members)

    # The HTTP fields the page names.
    page_fields = set()
    for span in re.findall(r"`([^`]+)`", http_text):
        name = span.split(":")[0]
        if re.fullmatch(r"(WWW|[A-Z][a-z]+)(-[A-Z][a-z]+)*", name) and name not in ("HOLD",):
            page_fields.add(name)
    document_fields = set(spec.get("x-http-fields", {})) - {"description"}
    for item in spec["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                parameter = resolve(spec, parameter)
                if parameter["in"] == "header":
                    document_fields.add(parameter["name"])
    for response in responses.values():
        document_fields |= set(response.get("headers") or {})
    for scheme in spec["components"].get("securitySchemes", {}).values():
        if scheme.get("type") == "http":
            document_fields.add("Authorization")
    differences.compare("HTTP field", page_fields, document_fields)

    # The fields the rules put on answers.
    for tag, status, field, always in FIELD_RULES:
        end = http_text.find(f"`{tag}`")
        paragraph = http_text[http_text.rfind("`§", 0, end) + 1:end] if end >= 0 else ""
        if f"`{status}`" not in paragraph or f"`{field}" not in paragraph:
            differences.lines.append(f"{tag}: its paragraph in proto/HTTP.md no longer names `{status}` and "
                                     f"`{field}`; update FIELD_RULES in this check")
            continue
        for answered, response, where in used:
            if answered != status:
                continue
            header = (resolve(spec, response).get("headers") or {}).get(field)
            if header is None:
                differences.lines.append(f"{where}: the {status} has no {field} header ({tag})")
            elif bool(resolve(spec, header).get("required")) != always:
                differences.lines.append(f"{where}: the {status}'s {field} header is "
                                         f"{'' if always else 'not '}required by {tag}, "
                                         f"but required: {resolve(spec, header).get('required', False)}")

    for line in differences.lines:
        print(line)
    if differences.lines:
        print(f"openapi_tables: {len(differences.lines)} differences between proto/openapi.yaml and the tables")
        return 1
    print(f"openapi_tables: proto/openapi.yaml matches proto/HTTP.md's tables: {len(operations)} endpoints, "
          f"{len(page_pairs)} status and code pairs, {len(page_statuses | device_statuses)} statuses, "
          f"{len(page_members)} error body members, {len(page_fields)} HTTP fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
