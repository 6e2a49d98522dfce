#!/usr/bin/env python3
"""Writes a copy of a buf image (or a FileDescriptorSet with source info) without its experimental messages,
enums, fields and enum values (proto/README.md "Stability", read from the `Stability:` lines of the leading
comments), so that `buf breaking` judges only what is stable: buf itself cannot leave items out by comment.

    strip_experimental.py IN OUT

The source info is kept for what remains, its paths renumbered, so that buf's messages name the right file and
line. An emptied oneof goes too. Packages other than those of proto/README.md "Stability" are copied unchanged.
Prints what it left out on standard error. Exit status: 0 written, 2 usage error or an unreadable image.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stability  # noqa: E402

# Source-info path components (descriptor.proto's field numbers) of the lists this tool removes elements from.
FILE_MESSAGES, FILE_ENUMS = 4, 5
MESSAGE_FIELDS, MESSAGE_NESTED, MESSAGE_ENUMS, MESSAGE_ONEOFS = 2, 3, 4, 8
ENUM_VALUES = 2


def keep_list(elements, keep):
    """Keeps the elements for which `keep(index, element)` holds; the old index -> new index map (None: gone)."""
    mapping, kept = {}, []
    for index, element in enumerate(elements):
        if keep(index, element):
            mapping[index] = len(kept)
            kept.append(element)
        else:
            mapping[index] = None
    del elements[:]
    elements.extend(kept)
    return mapping


def strip_file(file, experimental, removed):
    """Removes the experimental items of one file in place; returns the map of source-info paths, old -> new,
    as a function (None for a path under something removed)."""
    # Each map: the new path of a list (its container's path and the list's component) -> {old index: new index,
    # or None when removed}.
    maps = {}

    def keep_named(path, elements, prefix):
        def keep(_, element):
            name = f"{prefix}.{element.name}"
            if name in experimental:
                removed.append(name)
                return False
            return True
        maps[path] = keep_list(elements, keep)
        return maps[path]

    def strip_enum(enum, name, path):
        keep_named(path + (ENUM_VALUES,), enum.value, name)

    def strip_message(message, name, path):
        keep_named(path + (MESSAGE_FIELDS,), message.field, name)
        keep_named(path + (MESSAGE_NESTED,), message.nested_type, name)
        keep_named(path + (MESSAGE_ENUMS,), message.enum_type, name)
        # A oneof none of whose fields is left is invalid in a descriptor: drop it and renumber the rest.
        used = {field.oneof_index for field in message.field if field.HasField("oneof_index")}
        oneofs = keep_list(message.oneof_decl, lambda index, _: index in used)
        maps[path + (MESSAGE_ONEOFS,)] = oneofs
        for field in message.field:
            if field.HasField("oneof_index"):
                field.oneof_index = oneofs[field.oneof_index]
        for index, nested in enumerate(message.nested_type):
            strip_message(nested, f"{name}.{nested.name}", path + (MESSAGE_NESTED, index))
        for index, enum in enumerate(message.enum_type):
            strip_enum(enum, f"{name}.{enum.name}", path + (MESSAGE_ENUMS, index))

    keep_named((FILE_MESSAGES,), file.message_type, file.package)
    keep_named((FILE_ENUMS,), file.enum_type, file.package)
    for index, message in enumerate(file.message_type):
        strip_message(message, f"{file.package}.{message.name}", (FILE_MESSAGES, index))
    for index, enum in enumerate(file.enum_type):
        strip_enum(enum, f"{file.package}.{enum.name}", (FILE_ENUMS, index))

    def translate(path):
        new = []
        position = 0
        while position < len(path):
            component = path[position]
            mapping = maps.get(tuple(new) + (component,))
            if mapping is None or position + 1 >= len(path):
                new.extend(path[position:])
                return new
            index = mapping.get(path[position + 1])
            if index is None:
                return None
            new.extend([component, index])
            position += 2
        return new

    return translate


def strip(fds):
    """The set without its experimental items (changed in place, and returned) and the names left out."""
    listed, _ = stability.items(fds)
    experimental = {item.name for item in listed if item.stability == stability.EXPERIMENTAL}
    removed = []
    for file in fds.file:
        if file.package not in stability.PACKAGES:
            continue
        translate = strip_file(file, experimental, removed)
        kept = []
        for location in file.source_code_info.location:
            path = translate(list(location.path))
            if path is not None:
                location.ClearField("path")
                location.path.extend(path)
                kept.append(location)
        del file.source_code_info.location[:]
        file.source_code_info.location.extend(kept)
    return fds, removed


def main():
    arguments = sys.argv[1:]
    if arguments and arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(arguments) != 2:
        print("usage: strip_experimental.py IN OUT (--help)", file=sys.stderr)
        return 2
    try:
        fds, removed = strip(stability.load(arguments[0]))
    except stability.StabilityError as error:
        print(f"strip_experimental.py: {error}", file=sys.stderr)
        return 2
    with open(arguments[1], "wb") as file:
        file.write(fds.SerializeToString(deterministic=True))
    print(f"strip_experimental.py: left out {len(removed)} experimental items of {arguments[0]}"
          + (f": {', '.join(removed)}" if removed else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
