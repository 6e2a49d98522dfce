#!/usr/bin/env python3
"""conformance/README.md's Python example is conformance/testees/python/testee.py, and stays under 100 lines.

Usage: .ci/checks/readme_example.py   (from the repository root; exit 1 when they differ)
"""
import re

readme = open("conformance/README.md").read()
blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
testee = open("conformance/testees/python/testee.py").read()
if not blocks or blocks[0] != testee:
    raise SystemExit("conformance/README.md's Python example differs from conformance/testees/python/testee.py")
if len(testee.splitlines()) >= 100:
    raise SystemExit("the Python example must stay under 100 lines")
print(f"the example is testee.py ({len(testee.splitlines())} lines)")
