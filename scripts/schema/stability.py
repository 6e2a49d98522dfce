#!/usr/bin/env python3
"""The stability of every message, enum, field and enum value of proto/ (proto/README.md "Stability",
`§stability`), read from the `Stability: stable.` / `Stability: experimental.` line of the leading comments, and
the checks of the rule that decides it.

    stability.py check [--image FILE] [--released FILE]
        Every message and enum carries one marker; a field or an enum value carries none or
        `Stability: experimental.`; a stable field's type is stable; nothing stable is new since the release
        (--released, default proto/released/ latest image); and what is stable is covered:
          locationwire.v1            a conformance vector (conformance/vectors/*.json) carries the field or value
          locationwire.session.v1    a committed stored-state golden carries it (Tests/Goldens/session-formats.json,
                                     Tests/Goldens/device-store-eb3f509.sqlite)
          locationwire.conformance.v1  the release's testee protocol: nothing more to cover (the runner speaks it)
    stability.py list [--image FILE] [--experimental]
        every item with its stability, one a line
    stability.py coverage [--image FILE]
        the fields and values the vectors and goldens carry, and the v1 and session.v1 ones they do not
    stability.py summary [--image FILE]
        the list of proto/README.md's generated span "stability" (scripts/codegen/generate.py writes it there)

FILE is a buf image or a FileDescriptorSet with source info (buf build -o FILE; protoc --include_source_info
--include_imports). Without --image, `buf build` in the repository's root makes one of proto/ (buf.yaml; buf from
pip's buf-bin, scripts/install-peers.sh). Exit status: 0 the check holds, 1 it does not (each problem on a line), 2 usage error or
a missing tool or file.
"""
import argparse
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from google.protobuf import descriptor_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASED = os.path.join(ROOT, "proto", "released")
PACKAGES = ("locationwire.v1", "locationwire.session.v1", "locationwire.conformance.v1")
STABLE, EXPERIMENTAL = "stable", "experimental"
# A marker is a comment line of its own; any other line that names "Stability:" is a typo the check reports.
MARKER = re.compile(r"^ ?Stability: ([A-Za-z-]+)\.$")
FD = descriptor_pb2.FieldDescriptorProto

# The rows of the reference device's store (Sources/LocationWireDevice/Store/DeviceStore.swift, StateKey) that hold a
# session.v1 message, by key; the others hold locationwire.v1 messages, which the vectors cover.
DEVICE_STORE_ROWS = {
    1: "locationwire.session.v1.UploadQueue",
    3: "locationwire.session.v1.DeviceRecord",
    5: "locationwire.session.v1.RecordingEngineState",
    6: "locationwire.session.v1.UploadSchedulerState",
    7: "locationwire.session.v1.FenceEngineState",
}


class StabilityError(Exception):
    """A missing tool or file, or an image that cannot be read: exit status 2."""


@dataclass
class Item:
    kind: str  # message, enum, field, value
    name: str  # full name: locationwire.v1.LocationFix, ...LocationFix.speed_cm_s, ...Platform.PLATFORM_IOS
    package: str
    stability: str
    where: str  # proto/locationwire/v1/location_fix.proto:42


def load(path):
    """The FileDescriptorSet of a buf image or a descriptor set file (a buf image is wire-compatible with one)."""
    try:
        with open(path, "rb") as file:
            return descriptor_pb2.FileDescriptorSet.FromString(file.read())
    except OSError as error:
        raise StabilityError(f"cannot read {path}: {error.strerror}") from error
    except Exception as error:  # the parser's own error type differs between backends
        raise StabilityError(f"{path} is not a buf image or a descriptor set: {error}") from error


def build_image(out):
    """`buf build` of the module in the repository's buf.yaml (proto/), with source info, into `out`."""
    try:
        subprocess.run(["buf", "build", "-o", out], cwd=ROOT, check=True, capture_output=True, text=True)
    except FileNotFoundError as error:
        raise StabilityError("buf not found (scripts/install-peers.sh installs buf-bin)") from error
    except subprocess.CalledProcessError as error:
        raise StabilityError(f"buf build failed:\n{error.stderr.strip()}") from error


def released_images():
    """proto/released/locationwire-vX.Y.Z.binpb, oldest first."""
    def version(path):
        match = re.search(r"-v(\d+)\.(\d+)\.(\d+)\.binpb$", path)
        return tuple(int(part) for part in match.groups()) if match else (-1,)
    return sorted(glob.glob(os.path.join(RELEASED, "locationwire-v*.binpb")), key=version)


def marker(comment, where, problems):
    """The stability a leading comment states, or None; a malformed marker line is a problem."""
    found = []
    for line in comment.split("\n"):
        if "Stability:" not in line:
            continue
        match = MARKER.match(line.rstrip())
        if not match or match.group(1) not in (STABLE, EXPERIMENTAL):
            problems.append(f"{where}: '{line.strip()}' is no marker: write 'Stability: stable.' or "
                            "'Stability: experimental.' alone on a comment line")
        else:
            found.append(match.group(1))
    if len(found) > 1:
        problems.append(f"{where}: {len(found)} stability markers; one is enough")
    return found[0] if found else None


def items(fds, packages=PACKAGES):
    """Every message, enum, field and enum value of `packages` with its stability, and the marker problems."""
    result, problems = [], []
    for file in fds.file:
        if file.package not in packages:
            continue
        locations = {tuple(loc.path): loc for loc in file.source_code_info.location}

        def where(path):
            location = locations.get(tuple(path))
            return f"proto/{file.name}:{location.span[0] + 1}" if location else f"proto/{file.name}"

        def leading(path):
            location = locations.get(tuple(path))
            return location.leading_comments if location else ""

        def declared(kind, name, path, parent):
            """A message or an enum: its own marker is required; it is experimental when it or its parent is."""
            own = marker(leading(path), where(path), problems)
            if own is None:
                problems.append(f"{where(path)}: {kind} {name} has no 'Stability: stable.' or "
                                "'Stability: experimental.' line in its leading comment")
            stability = EXPERIMENTAL if EXPERIMENTAL in (own, parent) else STABLE
            result.append(Item(kind, name, file.package, stability, where(path)))
            return stability

        def member(kind, name, path, parent):
            own = marker(leading(path), where(path), problems)
            if own == STABLE:
                problems.append(f"{where(path)}: {name}: a {'field' if kind == 'field' else 'value'} is stable "
                                "unless marked experimental; only 'Stability: experimental.' may stand here")
            stability = EXPERIMENTAL if EXPERIMENTAL in (own, parent) else STABLE
            return Item(kind, name, file.package, stability, where(path))

        def enum(descriptor, prefix, path, parent):
            name = f"{prefix}.{descriptor.name}"
            stability = declared("enum", name, path, parent)
            for index, value in enumerate(descriptor.value):
                result.append(member("value", f"{name}.{value.name}", path + [2, index], stability))

        def message(descriptor, prefix, path, parent):
            name = f"{prefix}.{descriptor.name}"
            stability = declared("message", name, path, parent)
            for index, field in enumerate(descriptor.field):
                field_path = path + [2, index]
                if not leading(field_path) and field.HasField("oneof_index"):
                    oneof = descriptor.oneof_decl[field.oneof_index].name
                    if oneof == f"optional_{field.name}":
                        # `oneof optional_<name> { ... }` carries the comment of its one field.
                        field_path = path + [8, field.oneof_index]
                result.append(member("field", f"{name}.{field.name}", field_path, stability))
            for index, nested in enumerate(descriptor.nested_type):
                message(nested, name, path + [3, index], stability)
            for index, nested in enumerate(descriptor.enum_type):
                enum(nested, name, path + [4, index], stability)

        for index, descriptor in enumerate(file.message_type):
            message(descriptor, file.package, [4, index], None)
        for index, descriptor in enumerate(file.enum_type):
            enum(descriptor, file.package, [5, index], None)
    return result, problems


def descriptors_by_name(fds):
    """Every message and enum descriptor of the set, by full name (nested ones included)."""
    found = {}

    def walk(prefix, messages, enums):
        for descriptor in enums:
            found[f"{prefix}.{descriptor.name}"] = descriptor
        for descriptor in messages:
            name = f"{prefix}.{descriptor.name}"
            found[name] = descriptor
            walk(name, descriptor.nested_type, descriptor.enum_type)

    for file in fds.file:
        walk(file.package, file.message_type, file.enum_type)
    return found


class Coverage:
    """The fields (`pkg.Message.field`) and enum values (`pkg.Enum.VALUE`) that messages carry, walked with the
    schema: binary by its tags (a malformed input is walked up to where it breaks), JSON by its member names."""

    def __init__(self, fds):
        self.types = descriptors_by_name(fds)
        # The full name of each message descriptor, by object id (a DescriptorProto does not know its package).
        self._owner = {id(descriptor): name for name, descriptor in self.types.items()}
        self.seen = set()

    def _type(self, field):
        return field.type_name.lstrip(".")

    def _value(self, field, number):
        enum = self.types[self._type(field)]
        for value in enum.value:
            if value.number == number:
                self.seen.add(f"{self._type(field)}.{value.name}")

    def binary(self, data, type_name):
        try:
            self._binary(data, self.types[type_name])
        except (IndexError, ValueError):
            pass  # an invalid vector's bytes: what came before the fault counts

    @staticmethod
    def _varint(data, position):
        result = shift = 0
        while True:
            byte = data[position]
            position += 1
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return result, position
            shift += 7
            if shift > 63:
                raise ValueError("overlong varint")

    def _binary(self, data, message):
        fields = {field.number: field for field in message.field}
        position = 0
        while position < len(data):
            tag, position = self._varint(data, position)
            number, wire = tag >> 3, tag & 7
            if wire == 0:
                value, position = self._varint(data, position)
                payload = None
            elif wire == 1:
                position += 8
                payload = value = None
            elif wire == 5:
                position += 4
                payload = value = None
            elif wire == 2:
                length, position = self._varint(data, position)
                if position + length > len(data):
                    raise ValueError("length beyond the input")
                payload, value = data[position:position + length], None
                position += length
            else:
                raise ValueError(f"wire type {wire}")  # groups are not in proto/: stop here
            if position > len(data):
                raise ValueError("truncated")
            field = fields.get(number)
            if field is None:
                continue
            self.seen.add(f"{self._owner[id(message)]}.{field.name}")
            if field.type == FD.TYPE_MESSAGE and payload is not None:
                try:
                    self._binary(payload, self.types[self._type(field)])
                except (IndexError, ValueError):
                    pass
            elif field.type == FD.TYPE_ENUM:
                if value is not None:
                    self._value(field, value)
                elif payload is not None:  # packed
                    at = 0
                    while at < len(payload):
                        element, at = self._varint(payload, at)
                        self._value(field, element)

    def json(self, value, type_name):
        self._json(value, self.types[type_name])

    def _json(self, value, message):
        if not isinstance(value, dict):
            return
        by_key = {}
        for field in message.field:
            by_key[field.json_name or field.name] = field
            by_key[field.name] = field
        for key, member in value.items():
            field = by_key.get(key)
            if field is None or member is None:
                continue
            self.seen.add(f"{self._owner[id(message)]}.{field.name}")
            elements = member if isinstance(member, list) else [member]
            for element in elements:
                if field.type == FD.TYPE_MESSAGE:
                    self._json(element, self.types[self._type(field)])
                elif field.type == FD.TYPE_ENUM:
                    enum_name = self._type(field)
                    if isinstance(element, str):
                        if any(known.name == element for known in self.types[enum_name].value):
                            self.seen.add(f"{enum_name}.{element}")
                    elif isinstance(element, int):
                        self._value(field, element)


def vector_coverage(fds, folder=None):
    """What the valid and acceptable conformance vectors carry: a v1 message's binary and JSON forms (input,
    canonical, rows, compact, an HTTP request's batch), and a behaviour request with its expected response (proto3
    JSON of the conformance.v1 request and response types, which hold v1 messages)."""
    coverage = Coverage(fds)
    folder = folder or os.path.join(ROOT, "conformance", "vectors")
    paths = sorted(glob.glob(os.path.join(folder, "*.json")))
    if not paths:
        raise StabilityError(f"no conformance vectors in {folder}")
    for path in paths:
        with open(path, encoding="utf-8") as file:
            vectors = json.load(file)["vectors"]
        for vector in vectors:
            kind = vector["messageType"]
            # An invalid vector exercises the decoder's refusal, not the field it garbles.
            if kind not in coverage.types or vector["result"] == "invalid":
                continue
            for key in ("inputHex", "canonicalHex"):
                if key in vector:
                    coverage.binary(bytes.fromhex(vector[key]), kind)
            if "rowsHex" in vector:
                coverage.binary(bytes.fromhex(vector["rowsHex"]), "locationwire.v1.LocationBatch")
            if "compactHex" in vector:
                coverage.binary(bytes.fromhex(vector["compactHex"]), "locationwire.v1.CompactFixes")
            for key in ("inputJSON", "canonicalJSON"):
                if key in vector:
                    try:
                        coverage.json(json.loads(vector[key]), kind)
                    except ValueError:
                        pass  # JSON that is not JSON: a syntax vector
            if "batch" in vector.get("httpRequest", {}):
                coverage.json(vector["httpRequest"]["batch"], kind)
            if "request" in vector:
                coverage.json(vector["request"], kind)
            response = kind.replace("Request", "Response")
            if "expectedResponse" in vector and response in coverage.types:
                coverage.json(vector["expectedResponse"], response)
    return coverage.seen


def golden_coverage(fds):
    """What the committed stored-state goldens carry: Tests/Goldens/session-formats.json's samples and the rows of
    the reference device's store Tests/Goldens/device-store-eb3f509.sqlite."""
    coverage = Coverage(fds)
    goldens = os.path.join(ROOT, "Tests", "Goldens")
    with open(os.path.join(goldens, "session-formats.json"), encoding="utf-8") as file:
        for sample in json.load(file)["samples"]:
            coverage.binary(bytes.fromhex(sample["hex"]), sample["type"])
    store = os.path.join(goldens, "device-store-eb3f509.sqlite")
    connection = sqlite3.connect(f"file:{store}?mode=ro&immutable=1", uri=True)
    try:
        for key, data in connection.execute("SELECT key, bytes FROM state"):
            if key in DEVICE_STORE_ROWS:
                coverage.binary(bytes(data), DEVICE_STORE_ROWS[key])
    finally:
        connection.close()
    return coverage.seen


def field_types(fds):
    """The full type name of every message- or enum-typed field, by the field's full name."""
    result = {}
    for name, descriptor in descriptors_by_name(fds).items():
        for field in getattr(descriptor, "field", []):
            if field.type in (FD.TYPE_MESSAGE, FD.TYPE_ENUM):
                result[f"{name}.{field.name}"] = field.type_name.lstrip(".")
    return result


def zero_values(fds):
    """Each enum's zero value: what an absent field reads as, so no vector has to carry it."""
    return {f"{name}.{descriptor.value[0].name}" for name, descriptor in descriptors_by_name(fds).items()
            if isinstance(descriptor, descriptor_pb2.EnumDescriptorProto) and descriptor.value}


def check(fds, released):
    """Every problem with the markers and the rule, as lines."""
    listed, problems = items(fds)
    stability = {item.name: item.stability for item in listed}
    types = field_types(fds)
    for item in listed:
        if item.kind == "field" and item.stability == STABLE and stability.get(types.get(item.name)) == EXPERIMENTAL:
            problems.append(f"{item.where}: {item.name} is stable but its type {types[item.name]} is experimental: "
                            "mark the field experimental too")
    if released is not None:
        before = {item.name: item.stability for item in items(released)[0]}
        for item in listed:
            if item.stability != STABLE or before.get(item.name) == STABLE:
                continue
            if item.name in before:
                problems.append(f"{item.where}: {item.name} is experimental in the release: it becomes stable with "
                                "the next release image (proto/released/README.md); mark it 'Stability: "
                                "experimental.' until then")
            else:
                problems.append(f"{item.where}: {item.name} is new since the release, so it starts experimental: "
                                "mark it 'Stability: experimental.' (proto/README.md `§stability`)")
    covered = vector_coverage(fds) | golden_coverage(fds) | zero_values(fds)
    sources = {"locationwire.v1": "no conformance vector carries it",
               "locationwire.session.v1": "no stored-state golden (Tests/Goldens/) carries it"}
    for item in listed:
        if item.kind in ("field", "value") and item.stability == STABLE and item.package in sources:
            if item.name not in covered:
                problems.append(f"{item.where}: {item.name} is stable but {sources[item.package]}: add a vector or "
                                "a golden, or mark it 'Stability: experimental.'")
    return problems


def summary(fds):
    """One Markdown list item per package (unwrapped) for proto/README.md "Stability": how many messages and enums
    it has, which of them are experimental, and the experimental fields and values of the stable ones."""
    listed, _ = items(fds)
    by_name = {item.name: item for item in listed}
    lines = []
    for package in PACKAGES:
        mine = [item for item in listed if item.package == package]

        def names(chosen):
            # An enum value's name is unique in its package (protobuf scopes values like their enum).
            return ", ".join(f"`{item.name.rsplit('.', 1)[1]}`" if item.kind == "value"
                             else f"`{item.name[len(package) + 1:]}`" for item in chosen)

        messages = sum(item.kind == "message" for item in mine)
        enums = sum(item.kind == "enum" for item in mine)
        types = [item for item in mine if item.kind in ("message", "enum") and item.stability == EXPERIMENTAL]
        text = f"- `{package}`: {messages} message{'s' * (messages != 1)} and {enums} enum{'s' * (enums != 1)}, "
        text += f"stable but {names(types)} (experimental)" if types else "all stable"
        for kind, label in (("field", "fields"), ("value", "enum values")):
            # The members of an experimental message or enum are experimental with it: only the others are listed.
            members = [item for item in mine if item.kind == kind and item.stability == EXPERIMENTAL
                       and by_name[item.name.rsplit(".", 1)[0]].stability == STABLE]
            if members:
                text += f"; experimental {label}: {names(members)}"
        lines.append(text + ".")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["check", "list", "coverage", "summary"])
    parser.add_argument("--image", help="a buf image or descriptor set with source info (default: buf build)")
    parser.add_argument("--released", help="the release image (default: the latest in proto/released/)")
    parser.add_argument("--experimental", action="store_true", help="list: only the experimental items")
    args = parser.parse_args()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            image = args.image
            if image is None:
                image = os.path.join(scratch, "current.binpb")
                build_image(image)
            fds = load(image)
            if args.command == "check":
                released = args.released or (released_images() or [None])[-1]
                problems = check(fds, load(released) if released else None)
                for problem in problems:
                    print(problem)
                counted = items(fds)[0]
                print(f"stability.py: {len(problems)} problem(s); {sum(i.stability == STABLE for i in counted)} "
                      f"stable and {sum(i.stability == EXPERIMENTAL for i in counted)} experimental items",
                      file=sys.stderr)
                return 1 if problems else 0
            if args.command == "list":
                for item in items(fds)[0]:
                    if item.stability == EXPERIMENTAL or not args.experimental:
                        print(f"{item.stability:12} {item.kind:7} {item.name}  {item.where}")
            elif args.command == "coverage":
                covered = vector_coverage(fds) | golden_coverage(fds) | zero_values(fds)
                for item in items(fds)[0]:
                    if item.kind in ("field", "value") and item.package != "locationwire.conformance.v1":
                        print(f"{'covered' if item.name in covered else 'NOT COVERED':12} {item.name}")
            else:
                print("\n".join(summary(fds)))
    except StabilityError as error:
        print(f"stability.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
