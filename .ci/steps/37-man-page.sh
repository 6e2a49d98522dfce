# tier: full
# lane: root
# what: Man page and shell completions from swift-argument-parser: not empty, the page renders with no warning
source .ci/lib.sh
manual=$(mktemp -d)
trap 'rm -rf "$manual"' EXIT
scripts/generate-man-and-completions.sh --output "$manual"
groff -mandoc -Tutf8 -ww -z "$manual/locwire.1" 2>"$manual/groff.txt"
if [ -s "$manual/groff.txt" ]; then cat "$manual/groff.txt" >&2; exit 1; fi
MANWIDTH=100 man -l "$manual/locwire.1" >"$manual/locwire.txt"
grep -q '^SYNOPSIS' "$manual/locwire.txt" && grep -q 'Exit status: 0 success' "$manual/locwire.txt"
bash -n "$manual/locwire.bash"
bash -c 'source "$1"; COMP_WORDS=(locwire con); COMP_CWORD=1; COMP_LINE="locwire con"; COMP_POINT=11; _locwire
  [[ " ${COMPREPLY[*]} " == *" conformance "* ]]' _ "$manual/locwire.bash"
grep -q 'conformance' "$manual/_locwire" && grep -q 'conformance' "$manual/locwire.fish"
