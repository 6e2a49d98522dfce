#!/usr/bin/env python3
"""Applies the code blocks of CONTRIBUTING.md that a `<!-- walkthrough: ... -->` line places, in order, to the
checkout in ROOT, and prints what it did: one line per place, then the counts of places and files.

    scripts/walkthrough_apply.py [--root ROOT] [--doc CONTRIBUTING.md] [--list]

A placement line is `<!-- walkthrough: FILE | ACTION "ANCHOR" [| in "SCOPE"] -->`, right before a fenced code block:

  before "A"    the block goes before the first line (after SCOPE's) whose text, leading white space aside, starts
                with A, indented as that line is;
  after "A"     the same, after that line;
  replace "A"   the text A, found in the first line (after SCOPE's) that holds it, becomes the block's first line;
                the block's other lines follow it, indented as that line is.

`in "S"` starts the search at the first line that contains S. Anchors are literal text (`\\"` is a quote). The
block is written as it stands in the document, dedented; a trailing empty line in the block is kept.

Exit status: 0 every block applied; 1 a block did not apply (its anchor or scope is not in its file: the document
and the code have parted ways), with the block's line in the document; 2 usage error.
"""
import argparse
import os
import re
import sys

PLACEMENT = re.compile(r'^\s*<!-- walkthrough: (?P<body>.*?) -->\s*$')
QUOTED = r'"((?:[^"\\]|\\.)*)"'
BODY = re.compile(r'^(\S+) \| (before|after|replace) ' + QUOTED + r'(?: \| in ' + QUOTED + r')?$')
FENCE = re.compile(r'^(\s*)```')


def unescape(text):
    return re.sub(r'\\(.)', r'\1', text)


def placements(doc_path):
    """Every placement of the document: (line number, section, file, action, anchor, scope, block lines), the
    section being the `## ` heading it stands under."""
    lines = open(doc_path, encoding="utf-8").read().split("\n")
    found = []
    section = ""
    index = 0
    while index < len(lines):
        if lines[index].startswith("## "):
            section = lines[index][3:].strip()
        match = PLACEMENT.match(lines[index])
        if not match:
            index += 1
            continue
        number = index + 1
        body = BODY.match(match.group("body"))
        if not body:
            raise SystemExit(f"CONTRIBUTING.md:{number}: cannot read the placement {match.group('body')!r}; "
                             'it is FILE | before|after|replace "ANCHOR" [| in "SCOPE"]')
        fence = FENCE.match(lines[index + 1]) if index + 1 < len(lines) else None
        if not fence:
            raise SystemExit(f"CONTRIBUTING.md:{number}: the placement is not followed by a code block")
        indent = len(fence.group(1))
        block = []
        index += 2
        while index < len(lines) and not FENCE.match(lines[index]):
            block.append(lines[index][indent:] if lines[index][:indent].strip() == "" else lines[index])
            index += 1
        file, action, anchor, scope = body.groups()
        found.append((number, section, file, action, unescape(anchor), unescape(scope) if scope else None, block))
        index += 1
    return found


def apply(root, number, relative, action, anchor, scope, block):
    path = os.path.join(root, relative)
    if not os.path.isfile(path):
        return f"CONTRIBUTING.md:{number}: {relative} does not exist"
    lines = open(path, encoding="utf-8").read().split("\n")
    start = 0
    if scope is not None:
        start = next((i for i, line in enumerate(lines) if scope in line), None)
        if start is None:
            return f"CONTRIBUTING.md:{number}: no line of {relative} contains {scope!r}"
    if action == "replace":
        at = next((i for i in range(start, len(lines)) if anchor in lines[i]), None)
    else:
        at = next((i for i in range(start, len(lines)) if lines[i].lstrip().startswith(anchor)), None)
    if at is None:
        where = f" after {scope!r}" if scope else ""
        return f"CONTRIBUTING.md:{number}: no line of {relative}{where} {'holds' if action == 'replace' else 'starts with'} {anchor!r}"
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    placed = [indent + line if line else "" for line in block]
    if action == "before":
        lines[at:at] = placed
    elif action == "after":
        lines[at + 1:at + 1] = placed
    else:
        lines[at] = lines[at].replace(anchor, block[0], 1)
        lines[at + 1:at + 1] = [indent + line if line else "" for line in block[1:]]
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--doc", default=None, help="the document (default: ROOT/CONTRIBUTING.md)")
    parser.add_argument("--list", action="store_true", help="list the placements; change nothing")
    arguments = parser.parse_args()
    doc = arguments.doc or os.path.join(arguments.root, "CONTRIBUTING.md")
    found = placements(doc)
    if not found:
        print(f"{doc}: no walkthrough placements", file=sys.stderr)
        return 1
    files = {}  # section -> files, in order
    for number, section, relative, action, anchor, scope, block in found:
        if not arguments.list:
            problem = apply(arguments.root, number, relative, action, anchor, scope, block)
            if problem:
                print(f"walkthrough: {problem}: the document and the code have parted ways", file=sys.stderr)
                return 1
        where = f" in {scope!r}" if scope else ""
        print(f"  CONTRIBUTING.md:{number}: {relative}: {action} {anchor!r}{where} ({len(block)} lines)")
        files.setdefault(section, [])
        if relative not in files[section]:
            files[section].append(relative)
    for section, names in files.items():
        places = sum(1 for placement in found if placement[1] == section)
        print(f"{section}: {places} places in {len(names)} files ({', '.join(names)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
