#!/usr/bin/env bash
# The layout's figures, for comparing the code's shape before and after a reorganisation: lines per module (Swift
# and C under Sources/ and Server/Sources/, blank lines and comments included) with each module's largest file, the
# scripts per folder (tracked .sh and .py files), and the pairs `duplicates --repo Sources` finds when that tool
# is on the PATH. Reads only what git tracks at the given commit (default HEAD), so a run is reproducible.
#
#   scripts/measure/layout-figures.sh [COMMIT] [--markdown]
#
# Exit status: 0, or 2 for a bad argument.
set -euo pipefail
cd "$(dirname "$0")/../.."
commit=HEAD markdown=0
for argument in "$@"; do
  case $argument in
    --markdown) markdown=1 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "layout-figures.sh: unknown option $argument" >&2; exit 2 ;;
    *) commit=$argument ;;
  esac
done
git rev-parse --verify --quiet "$commit^{commit}" >/dev/null || { echo "layout-figures.sh: no commit $commit" >&2; exit 2; }

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
git archive "$commit" | tar -x -C "$tree"

python3 - "$tree" "$markdown" "$(git rev-parse --short "$commit")" <<'PY'
import collections, os, sys
tree, markdown, commit = sys.argv[1], sys.argv[2] == "1", sys.argv[3]

def lines(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")

modules = []
for base in ("Sources", "Server/Sources"):
    root = os.path.join(tree, base)
    if not os.path.isdir(root):
        continue
    for module in sorted(os.listdir(root)):
        total, largest = 0, (0, "")
        for folder, _, files in os.walk(os.path.join(root, module)):
            for name in files:
                if name.endswith((".swift", ".c", ".h")):
                    path = os.path.join(folder, name)
                    count = lines(path)
                    total += count
                    largest = max(largest, (count, os.path.relpath(path, os.path.join(root, module))))
        modules.append((f"{base}/{module}", total, largest))

scripts = collections.Counter()
for folder, _, files in os.walk(tree):
    for name in files:
        if name.endswith((".sh", ".py")):
            scripts[os.path.relpath(folder, tree)] += 1

print(f"Layout figures at {commit}\n")
if markdown:
    print("| module | lines | largest file | its lines |\n|---|---:|---|---:|")
    for name, total, (count, path) in modules:
        print(f"| `{name}` | {total:,} | `{path}` | {count:,} |")
    print("\n| folder | scripts |\n|---|---:|")
    for folder, count in sorted(scripts.items()):
        print(f"| `{folder}` | {count} |")
else:
    for name, total, (count, path) in modules:
        print(f"{name:45} {total:7,} lines; largest {path} ({count:,})")
    print()
    for folder, count in sorted(scripts.items()):
        print(f"{folder:55} {count:3} scripts")
print(f"\nscripts in all: {sum(scripts.values())}")
PY

if command -v duplicates >/dev/null; then
  echo "duplicates --repo Sources: $(cd "$tree" && git init -q . && git add -A && duplicates --repo Sources 2>&1 | head -1)"
fi
