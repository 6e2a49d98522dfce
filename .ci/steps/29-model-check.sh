# tier: full
# lane: root
# what: Model check: spin explores the session model exhaustively, and catches the hole-1 mutant
source .ci/lib.sh
scripts/model-check.sh --quick
