#!/usr/bin/env python3
"""Checks what `locwire-server probe --record FILE` recorded against the OpenAPI document of the binding.

    scripts/judges/openapi_exchanges.py FILE [--spec proto/openapi.yaml]
        [--descriptors Tests/Goldens/locationwire.descriptors.binpb] [--show N]

The document first: every file it refers to must exist (a missing JSON Schema is an error, never a schema that
allows anything), and openapi-spec-validator must accept it. Then each recorded exchange:

- A well-formed request (one the binding describes; the probe states which of its requests it breaks on purpose)
  is validated with openapi-core: path, method, token, parameters and body, after the body's content coding is
  undone, as a server undoes it. A JSON body is checked against its message's JSON Schema; a binary body by its
  media type, and then decoded as the message the media type names (`x-protobuf-message`), with protobuf's Python
  runtime and the committed descriptor set. A `proto` parameter must name that message too.
- A malformed request is not validated: it is broken on purpose.
- Every answer, to a well-formed request or a malformed one, is validated, since an error body is part of the
  binding whatever the request was: against its operation's responses (openapi-core: status, headers, media
  type, body; a binary `200` decoded as its message), or, for a request that matches no operation (an unknown
  path, a method the path does not take, HEAD), against the responses `x-unmatched-requests` names for it. An
  answer to HEAD has no body to check. A JSON body over LARGE_BODY_BYTES (the read-back's pages of up to
  thousands of fixes) is checked by jsonschema against the same schema of the document, openapi-core checking
  its status, headers and media type: openapi-core takes about 7 ms a fix where jsonschema takes 0.3, and
  jsonschema checks each distinct message once (a fix that one page showed valid is valid on the next): minutes
  instead of seconds a run.

Prints the figures (exchanges, requests validated, answers validated, skipped) and each failure with the check's
name and the validator's message. Exit status: 0 everything valid, 1 a failure, 2 the record or the document
could not be read.
"""
import argparse
import base64
import gzip
import json
import os
import re
import sys
import zlib
from collections import Counter
from urllib.parse import parse_qsl, urlsplit
from urllib.request import url2pathname

import yaml
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from jsonschema import validators
from openapi_core import Config, OpenAPI
from openapi_core.validation.response.validators import V31ResponseHeadersValidator
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate as validate_spec
from openapi_spec_validator.readers import read_from_filename
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.datastructures import Headers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The base URL the exchanges are taken to have gone to: the document's server is a variable, so any base matches.
HOST = "http://probe.invalid"
# Answers with a JSON body larger than this are checked by jsonschema rather than by openapi-core (see above).
LARGE_BODY_BYTES = 4 * 1024


def remembering_validator():
    """OAS 3.1's JSON Schema validator, remembering the messages found valid: a `$ref` to a JSON Schema file
    (a message of proto/jsonschema/) with an instance it found valid before is valid again without a second
    look. Only valid ones are remembered, so every error is found and reported where it is."""
    check_reference = OAS31Validator.VALIDATORS["$ref"]
    valid = set()

    def reference(validator, ref, instance, schema):
        if ref.startswith("#"):
            yield from check_reference(validator, ref, instance, schema)
            return
        key = (ref, json.dumps(instance, sort_keys=True))
        if key in valid:
            return
        errors = list(check_reference(validator, ref, instance, schema))
        if not errors:
            valid.add(key)
        yield from errors

    return validators.extend(OAS31Validator, {"$ref": reference})


class Failure(Exception):
    """What one validation found wrong, in words."""


def fail(message):
    raise Failure(message)


# --- The document -------------------------------------------------------------------------------------------------


def external_refs(node, found):
    """Every `$ref` of `node` that points outside its own document, without the fragment."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            found.add(ref.split("#")[0])
        for value in node.values():
            external_refs(value, found)
    elif isinstance(node, list):
        for value in node:
            external_refs(value, found)
    return found


def load_document(spec_path):
    """The OpenAPI document, checked: its referenced files exist (recursively), and openapi-spec-validator
    accepts it. Exits with status 2 naming what is missing or wrong."""
    spec_path = os.path.abspath(spec_path)
    pending, seen, missing = [spec_path], set(), []
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path) as file:
            node = yaml.safe_load(file) if path.endswith((".yaml", ".yml")) else json.load(file)
        for ref in sorted(external_refs(node, set())):
            target = os.path.normpath(os.path.join(os.path.dirname(path), ref))
            if os.path.exists(target):
                pending.append(target)
            else:
                missing.append(f"{os.path.relpath(path, ROOT)} refers to {ref}, which does not exist "
                               f"({os.path.relpath(target, ROOT)})")
    if missing:
        for line in missing:
            print(f"openapi_exchanges: {line}", file=sys.stderr)
        sys.exit(2)
    spec_dict, base_uri = read_from_filename(spec_path)
    try:
        validate_spec(spec_dict, base_uri=base_uri)
    except Exception as error:  # noqa: BLE001 - any refusal of the document is reported as it is
        print(f"openapi_exchanges: {os.path.relpath(spec_path, ROOT)} is not a valid OpenAPI document: {error}",
              file=sys.stderr)
        sys.exit(2)
    # Validated just above: openapi-core need not validate it again.
    config = Config(extra_media_type_deserializers={"application/geo+json": json.loads}, spec_validator_cls=None)
    return spec_dict, base_uri, OpenAPI.from_file_path(spec_path, config=config)


class Document:
    """The OpenAPI document as data: its operations by path template, and a JSON Schema validator for any of its
    parts (for the answers that match no operation, which openapi-core has no place for)."""

    def __init__(self, spec_path):
        self.spec, self.base_uri, self.api = load_document(spec_path)
        self.templates = []
        for template, item in self.spec["paths"].items():
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            self.templates.append((re.compile(pattern), template, item))
        self.registry = Registry(retrieve=self.retrieve).with_resource(self.base_uri, Resource(self.spec, DRAFT202012))
        self.headers_validator = V31ResponseHeadersValidator(self.api.spec)
        self.validator_class = remembering_validator()

    @staticmethod
    def retrieve(uri):
        """A file the document refers to (a JSON Schema of proto/jsonschema/), for the referencing registry."""
        if not uri.startswith("file:"):
            raise LookupError(f"{uri}: only the document's own files are read")
        with open(url2pathname(urlsplit(uri).path)) as file:
            return Resource.from_contents(json.load(file), default_specification=DRAFT202012)

    def path_item(self, path):
        for pattern, template, item in self.templates:
            if pattern.match(path):
                return template, item
        return None, None

    def operation(self, path, method):
        template, item = self.path_item(path)
        if item is None:
            return None, None
        return template, item.get(method)

    def component_response(self, name):
        return self.spec["components"]["responses"][name]

    def schema_errors(self, instance, pointer):
        """The errors of `instance` against the schema at JSON pointer `pointer` of the document."""
        validator = self.validator_class({"$ref": f"{self.base_uri}#{pointer}"}, registry=self.registry)
        return [f"{'/'.join(map(str, error.absolute_path)) or 'body'}: {error.message}"
                for error in validator.iter_errors(instance)]


# --- Messages -----------------------------------------------------------------------------------------------------


class Messages:
    """Protobuf messages by full name, from the committed descriptor set."""

    def __init__(self, descriptor_path):
        files = descriptor_pb2.FileDescriptorSet()
        with open(descriptor_path, "rb") as file:
            files.ParseFromString(file.read())
        self.pool = descriptor_pool.DescriptorPool()
        for proto in files.file:
            self.pool.Add(proto)

    def decode_problem(self, name, data):
        """Why `data` is not a binary `name`, or None when it decodes."""
        try:
            cls = message_factory.GetMessageClass(self.pool.FindMessageTypeByName(name))
        except KeyError:
            return f"the document names the message {name}, which the descriptor set does not have"
        try:
            cls().ParseFromString(data)
        except Exception as error:  # noqa: BLE001 - the runtime's DecodeError, or what upb raises
            return f"the body does not decode as {name}: {error}"
        return None


# --- Exchanges ----------------------------------------------------------------------------------------------------


def media_type(value):
    """(type/subtype lower-cased, parameters with lower-cased names) of a Content-Type value."""
    parts = [part.strip() for part in (value or "").split(";")]
    parameters = {}
    for part in parts[1:]:
        name, _, text = part.partition("=")
        parameters.setdefault(name.strip().lower(), []).append(text.strip().strip('"'))
    return parts[0].lower(), parameters


def header_values(headers, name):
    return [value for key, value in headers if key.lower() == name.lower()]


def decoded_body(headers, body):
    """The request body after its content coding is undone (`http-gzip`): what the schemas describe."""
    codings = header_values(headers, "Content-Encoding")
    if codings and codings[0].strip().lower() in ("gzip", "x-gzip"):
        try:
            return gzip.decompress(body)
        except (OSError, EOFError, zlib.error) as error:
            fail(f"the gzip body does not decompress: {error}")
    return body


def explain(error):
    """The validator's message: the exception and the schema errors under it."""
    parts = [type(error).__name__]
    seen = set()
    current = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = str(current)
        if text and text not in parts:
            parts.append(text)
        for schema_error in getattr(current, "schema_errors", ()) or ():
            path = "/".join(map(str, schema_error.absolute_path)) or "body"
            parts.append(f"{path}: {schema_error.message[:300]}")
        current = current.__cause__ or current.__context__
    return "; ".join(parts)[:1500]


def mock_request(exchange, body):
    url = urlsplit(exchange["path"])
    headers = [tuple(pair) for pair in exchange["requestHeaders"]]
    content_type = header_values(headers, "Content-Type")
    return MockRequest(
        HOST, exchange["method"], url.path, args=parse_qsl(url.query, keep_blank_values=True),
        headers=Headers(headers), data=body, content_type=content_type[0] if content_type else "")


def protobuf_media_problems(content, value, body, messages, what):
    """The problems of a body whose media type `value` the operation lists in `content`: a `proto` parameter
    that names another message, and a binary body that does not decode as the message."""
    mime, parameters = media_type(value)
    media = content.get(mime)
    if media is None:
        return []  # openapi-core reports a media type the operation does not list
    message = media.get("x-protobuf-message")
    problems = []
    if message and "proto" in parameters and parameters["proto"] != [message]:
        problems.append(f"{what}'s proto parameter is {parameters['proto']}, expected {message}")
    if message and mime == "application/x-protobuf":
        problem = messages.decode_problem(message, body)
        if problem:
            problems.append(f"{what}: {problem}")
    return problems


def validate_request(document, messages, exchange, request_body):
    method = exchange["method"].lower()
    try:
        body = decoded_body(exchange["requestHeaders"], request_body)
        request = mock_request(exchange, body)
        document.api.validate_request(request)
    except Failure:
        raise
    except Exception as error:  # noqa: BLE001 - openapi-core's validation errors, reported as they are
        fail(f"request {exchange['method']} {exchange['path']}: {explain(error)}")
    _, operation = document.operation(urlsplit(exchange["path"]).path, method)
    content = ((operation or {}).get("requestBody") or {}).get("content") or {}
    content_type = header_values(exchange["requestHeaders"], "Content-Type")
    if content and content_type:
        problems = protobuf_media_problems(content, content_type[0], body, messages, "the request")
        if problems:
            fail("; ".join(problems))


def validate_answer(document, messages, exchange, request_body):
    """Validates the answer; returns how: `operation` or `unmatched`."""
    path = urlsplit(exchange["path"]).path
    method = exchange["method"].lower()
    status = exchange["status"]
    headers = [tuple(pair) for pair in exchange["responseHeaders"]]
    body = base64.b64decode(exchange["responseBody"])
    content_type = header_values(headers, "Content-Type")
    template, operation = document.operation(path, method)
    if operation is not None:
        response = MockResponse(body, status, Headers(headers), content_type[0] if content_type else "")
        # The request only selects the operation here: a malformed one must not fail its answer.
        request = MockRequest(HOST, exchange["method"], path)
        where = f"answer {status} to {exchange['method']} {exchange['path']}"
        large = len(body) > LARGE_BODY_BYTES and media_type(content_type[0] if content_type else "")[0].endswith(
            "json")
        try:
            if large:
                document.headers_validator.validate(request, response)
            else:
                document.api.validate_response(request, response)
        except Exception as error:  # noqa: BLE001 - openapi-core's validation errors, reported as they are
            fail(f"{where}: {explain(error)}")
        if large:
            large_body_problems(document, template, method, status, content_type[0], body, where)
            return "large"
        if status == 200 and content_type:
            content = operation["responses"]["200"].get("content") or {}
            problems = protobuf_media_problems(content, content_type[0], body, messages, "the answer")
            if problems:
                fail("; ".join(problems))
        return "operation"
    validate_unmatched(document, exchange, template, method, status, headers, body, content_type)
    return "unmatched"


def large_body_problems(document, template, method, status, content_type, body, where):
    """A large JSON answer's body against its media type's schema in the document, by jsonschema."""
    mime, _ = media_type(content_type)
    response = document.spec["paths"][template][method]["responses"][str(status)]
    pointer = f"/paths/{template.replace('~', '~0').replace('/', '~1')}/{method}/responses/{status}"
    if "$ref" in response:
        pointer = response["$ref"][1:]
        response = document.component_response(response["$ref"].rsplit("/", 1)[1])
    if mime not in (response.get("content") or {}):
        fail(f"{where}: Content-Type {content_type}, expected one of {sorted(response.get('content') or {})}")
    try:
        instance = json.loads(body)
    except ValueError as error:
        fail(f"{where}: the body is not JSON: {error}")
    errors = document.schema_errors(instance, f"{pointer}/content/{mime.replace('/', '~1')}/schema")
    if errors:
        fail(f"{where}: {'; '.join(errors[:5])}")


def validate_unmatched(document, exchange, template, method, status, headers, body, content_type):
    """An answer to a request that matches no operation, against `x-unmatched-requests`."""
    unmatched = document.spec["x-unmatched-requests"]
    _, item = document.path_item(urlsplit(exchange["path"]).path)
    if item is None:
        case = "unknown-path"
    elif method == "head" and "get" in item:
        case = "head-on-get"
    else:
        case = "other-method"
    entry = unmatched[case]
    names = (entry["responses"] if isinstance(entry, dict) else entry) + unmatched["any-request"]
    where = f"answer {status} to {exchange['method']} {exchange['path']} ({case})"
    if method == "head" and body:
        fail(f"{where}: the answer to HEAD has a body")
    if case == "head-on-get" and status == 200:
        return
    candidates = [name for name in names if document.component_response(name).get("x-status") == status]
    if not candidates:
        allowed = sorted({document.component_response(name).get("x-status") for name in names})
        fail(f"{where}: the status is none of {allowed}, which x-unmatched-requests allows here")
    problems = []
    for name in candidates:
        found = response_problems(document, name, headers, body, content_type, has_body=method != "head")
        if not found:
            return
        problems.append(f"as {name}: {'; '.join(found)}")
    fail(f"{where}: {' | '.join(problems)}")


def response_problems(document, name, headers, body, content_type, has_body=True):
    """The problems of an answer against the component response `name`: its headers and its JSON body (none for
    an answer to HEAD)."""
    response = document.component_response(name)
    problems = []
    for header, definition in (response.get("headers") or {}).items():
        pointer = f"/components/responses/{name}/headers/{header}/schema"
        if "$ref" in definition:
            pointer = definition["$ref"][1:] + "/schema"
            definition = document.spec["components"]["headers"][definition["$ref"].rsplit("/", 1)[1]]
        values = header_values(headers, header)
        if definition.get("required") and not values:
            problems.append(f"no {header}")
        for value in values:
            problems += [f"{header}: {error}" for error in document.schema_errors(value, pointer)]
    if not has_body:
        return problems
    mime, _ = media_type(content_type[0] if content_type else "")
    content = response.get("content") or {}
    if mime not in content:
        problems.append(f"Content-Type {content_type[0] if content_type else 'absent'}, expected one of "
                        f"{sorted(content)}")
        return problems
    try:
        instance = json.loads(body)
    except ValueError as error:
        return problems + [f"the body is not JSON: {error}"]
    pointer = f"/components/responses/{name}/content/{mime.replace('/', '~1')}/schema"
    return problems + document.schema_errors(instance, pointer)


# --- The run ------------------------------------------------------------------------------------------------------


REQUIRED_MEMBERS = ("check", "wellFormed", "method", "path", "requestHeaders", "status", "responseHeaders",
                    "responseBody")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="the file of `locwire-server probe --record FILE`")
    parser.add_argument("--spec", default=os.path.join(ROOT, "proto", "openapi.yaml"))
    parser.add_argument("--descriptors", default=os.path.join(ROOT, "Tests", "Goldens",
                                                              "locationwire.descriptors.binpb"))
    parser.add_argument("--show", type=int, default=40, help="failures printed in full (default 40)")
    arguments = parser.parse_args()

    document = Document(arguments.spec)
    messages = Messages(arguments.descriptors)
    try:
        with open(arguments.record) as file:
            lines = [line for line in file if line.strip()]
    except OSError as error:
        print(f"openapi_exchanges: {error}", file=sys.stderr)
        return 2

    counts = Counter()
    skipped = Counter()
    failures = []
    checks = set()
    for number, line in enumerate(lines, 1):
        try:
            exchange = json.loads(line)
            missing = [member for member in REQUIRED_MEMBERS if member not in exchange]
            if missing:
                raise ValueError(f"no {', '.join(missing)}")
            request_body = base64.b64decode(exchange.get("requestBody") or "")
        except ValueError as error:
            print(f"openapi_exchanges: {arguments.record}:{number}: not a recorded exchange: {error}",
                  file=sys.stderr)
            return 2
        checks.add(exchange["check"])
        if exchange["wellFormed"]:
            try:
                validate_request(document, messages, exchange, request_body)
                counts["requests passed"] += 1
            except Failure as failure:
                counts["requests failed"] += 1
                failures.append((exchange["check"], str(failure)))
        else:
            skipped[exchange.get("breakage") or "broken on purpose"] += 1
        try:
            how = validate_answer(document, messages, exchange, request_body)
            counts[f"answers passed ({how})"] += 1
        except Failure as failure:
            counts["answers failed"] += 1
            failures.append((exchange["check"], str(failure)))

    requests = counts["requests passed"] + counts["requests failed"]
    answers = sum(value for key, value in counts.items() if key.startswith("answers"))
    large = counts["answers passed (large)"]
    print(f"openapi_exchanges: {len(lines)} exchanges recorded by {len(checks)} checks, against "
          f"{os.path.relpath(arguments.spec, ROOT)}")
    print(f"  requests: {requests} well-formed validated ({counts['requests passed']} valid, "
          f"{counts['requests failed']} invalid); {sum(skipped.values())} malformed on purpose, skipped")
    print(f"  answers: {answers} validated ({counts['answers passed (operation)'] + large} against their operation"
          f" ({large} JSON bodies over {LARGE_BODY_BYTES} bytes by jsonschema), "
          f"{counts['answers passed (unmatched)']} against x-unmatched-requests, {counts['answers failed']} invalid)")
    for breakage, count in skipped.most_common():
        print(f"    skipped {count:4d}: {breakage}")
    for check, message in failures[:arguments.show]:
        print(f"FAIL {check}: {message}")
    if len(failures) > arguments.show:
        print(f"... and {len(failures) - arguments.show} more failures")
    if not lines:
        print("openapi_exchanges: the record is empty: nothing was checked", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
