#!/usr/bin/env bash
# Writes locwire's man page and its shell completion scripts, all made by swift-argument-parser from the
# command definitions in Sources/locwire, so they list exactly the commands, options and values the binary has:
#
#   locwire.1             the manual page, from the argument parser's `generate-manual` package plugin
#   locwire.bash          bash completion   (locwire --generate-completion-script bash)
#   _locwire              zsh completion    (locwire --generate-completion-script zsh)
#   locwire.fish          fish completion   (locwire --generate-completion-script fish)
#
#   scripts/generate-man-and-completions.sh [--output DIR] [--release]
#
# DIR defaults to .build/man-and-completions. The page's date is the last commit's, so the same commit always
# gives the same page. Install, for example:
#   man page  cp DIR/locwire.1 /usr/local/share/man/man1/           (or read it: man -l DIR/locwire.1)
#   bash      cp DIR/locwire.bash /etc/bash_completion.d/locwire    (or: source DIR/locwire.bash)
#   zsh       cp DIR/_locwire a directory on your $fpath, then: autoload -U compinit && compinit
#   fish      cp DIR/locwire.fish ~/.config/fish/completions/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

output=.build/man-and-completions
configuration=debug
while [ $# -gt 0 ]; do
    case $1 in
        --output) output=${2:?--output needs a directory}; shift 2 ;;
        --output=*) output=${1#--output=}; shift ;;
        --release) configuration=release; shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "generate-man-and-completions.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$output"

swift build -c "$configuration" --product locwire
locwire="$(swift build -c "$configuration" --show-bin-path)/locwire"

# The plugin builds the package's executables, asks each ArgumentParser tool for its structure
# (--experimental-dump-help) and writes .build/plugins/GenerateManual/outputs/<target>/<tool>.1 (mdoc).
page=.build/plugins/GenerateManual/outputs/locwire/locwire.1
rm -f "$page"
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
swift package --disable-sandbox generate-manual --configuration "$configuration" --date "$date" \
    --authors "The LocationWire authors"
if [ ! -f "$page" ]; then
    echo "generate-man-and-completions.sh: the generate-manual plugin wrote no $page" >&2
    exit 1
fi
# The generator copies the commands' discussions verbatim, and their blank lines between paragraphs are not
# mdoc (groff warns "Empty input line"); .Pp is mdoc's paragraph break.
sed 's/^$/.Pp/' "$page" > "$output/locwire.1"

"$locwire" --generate-completion-script bash > "$output/locwire.bash"
"$locwire" --generate-completion-script zsh > "$output/_locwire"
"$locwire" --generate-completion-script fish > "$output/locwire.fish"

for file in locwire.1 locwire.bash _locwire locwire.fish; do
    if [ ! -s "$output/$file" ]; then
        echo "generate-man-and-completions.sh: $output/$file is empty" >&2
        exit 1
    fi
done
echo "generate-man-and-completions.sh: $output/locwire.1, locwire.bash, _locwire, locwire.fish" >&2
