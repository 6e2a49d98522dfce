# tier: full
# lane: root
# what: Fixtures: every scenario generates valid, reproducible batches
source .ci/lib.sh
locwire=$(locwire_release)
fixtures=$(mktemp -d)
trap 'rm -rf "$fixtures"' EXIT
for scenario in walk run bike drive stationary offline-backlog urban-canyon clock-jump; do
  "$locwire" fixtures generate --scenario "$scenario" --seed 7 --count 5 --out "$fixtures/a"
  "$locwire" fixtures generate --scenario "$scenario" --seed 7 --count 5 --out "$fixtures/b"
done
diff -r "$fixtures/a" "$fixtures/b"
"$locwire" fixtures validate --quiet "$fixtures/a"
