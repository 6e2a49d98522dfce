"""What the spec text, proto/README.md, and the code share: the generated spans of the text that enumerate
fields or columns, and `Violation.Code` generated from the text's table of validation rules."""
import re

import swift_gen

# A generated span of proto/README.md: `<!-- codegen:NAME -->...<!-- /codegen -->`, on one line or several.
SPAN = re.compile(r"(<!-- codegen:([a-z-]+) -->)(.*?)(<!-- /codegen -->)", re.S)


class SpecError(Exception):
    pass


def spans(schema):
    """The text of each generated span that comes from the schema of locationwire.v1, by name."""
    without_presence = [f for f in schema.compact_columns if not f.has_presence]
    first, last = schema.future_columns
    return {
        # "Compact fixes", 4. Types: the columns that take no presence bitmap.
        "fields-without-presence": ", ".join(f"`{f.name}`" for f in without_presence),
        # "Conventions", nothing dropped silently: the column numbers of later revisions.
        "future-columns": f"{first} to {last}",
    }


def rewrite_spans(text, schema, blocks):
    """`text` with every generated span replaced; fails on a span the generator does not know, and when a span
    it knows is missing. `blocks`: spans of whole lines (a list's items, unwrapped), by name."""
    values = spans(schema)
    values.update(blocks)
    seen = set()

    def replace(match):
        name = match.group(2)
        if name not in values:
            raise SpecError(f"proto/README.md: unknown generated span codegen:{name} (known: {sorted(values)})")
        seen.add(name)
        if name in blocks:
            # Each item wrapped on its own, its continuation lines indented under its text.
            items = [_wrap(item, 0, "\n  ") for item in blocks[name]]
            return match.group(1) + "\n" + "\n".join(items) + "\n" + match.group(4)
        column = match.start(3) - (text.rfind("\n", 0, match.start(3)) + 1)
        return match.group(1) + _wrap(values[name], column, match.group(3)) + match.group(4)

    result = SPAN.sub(replace, text)
    missing = set(values) - seen
    if missing:
        raise SpecError(f"proto/README.md: no generated span for {sorted(missing)} (<!-- codegen:NAME -->...)")
    return result


# The width the spec text is wrapped to.
SPEC_WIDTH = 116


def _wrap(value, column, previous):
    """`value` broken at its spaces so that no line passes SPEC_WIDTH, starting at `column`; continuation lines
    take the indentation the span's previous text had on its second line (a list item's), or none."""
    indent = re.match(r"[^\n]*\n( *)", previous)
    indent = indent.group(1) if indent else ""
    lines, line, width = [], "", SPEC_WIDTH - column
    for word in value.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line, width = word, SPEC_WIDTH - len(indent)
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return ("\n" + indent).join(lines)


def validation_rules(text):
    """The rows of the table under "## Validation rules": (codes, severity, rule text), in order."""
    section = re.search(r"^## Validation rules\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        raise SpecError('proto/README.md has no section "## Validation rules"')
    rows = []
    for line in section.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) != 3 or cells[0] in ("Code", "---") or set(cells[0]) <= set("-"):
            continue
        codes = re.findall(r"`([a-z0-9-]+)`", cells[0])
        if not codes or cells[1] not in ("error", "warning"):
            raise SpecError(f"proto/README.md, Validation rules: cannot read the row {line!r}")
        rows.append((codes, cells[1], cells[2]))
    if not rows:
        raise SpecError("proto/README.md, Validation rules: the table has no rows")
    return rows


# Codes that begin with this are CompactFixesError codes of LocationWire, named by the rest: the validator
# reports them through `Violation.Code.compact(_:)`.
COMPACT_PREFIX = "compact-"


def codes_file(text):
    rows = validation_rules(text)
    lines = [swift_gen.HEADER.replace("from proto/locationwire/v1/*.proto",
                                      'from the table of proto/README.md, "Validation rules"'),
             "import LocationWire", "",
             "extension Violation.Code {"]
    entries = []
    for codes, severity, rule in rows:
        for code in codes:
            if code.startswith(COMPACT_PREFIX):
                entries.append(f".compact(.{swift_gen_name(code[len(COMPACT_PREFIX):])})")
                continue
            name = swift_gen_name(code)
            entries.append("." + name)
            lines += swift_gen.doc([rule], 4)
            argument = "" if severity == "error" else f", severity: .{severity}"
            lines.append(f"    public static let {name} = Self({swift_gen.swift_string(code)}{argument})")
    lines += ["",
              "    /// Every code of a rule, in the order of proto/README.md's table (not ``violationsOmitted``, which",
              "    /// is no rule). The compact codes are those a validator can meet when it expands a received",
              "    /// CompactFixes; `compact-unknown-fields` and `compact-count-overflow` arise only when fixes are",
              "    /// converted to the compact form.",
              "    public static let all: [Self] = [",
              "        " + ", ".join(entries) + ",",
              "    ]", "}", ""]
    return "\n".join(lines)


def swift_gen_name(kebab):
    words = kebab.split("-")
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])
