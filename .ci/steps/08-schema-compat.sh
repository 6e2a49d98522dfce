# tier: full
# lane: root
# what: proto/ against its release: buf lint, buf breaking of the stable items, the stability markers, mutations
source .ci/lib.sh
# proto/README.md "Stability": buf.yaml's lint rules, each exception with its reason.
buf lint
echo "buf lint: proto/ is clean"
# Every message and enum marked; what is stable covered by the vectors or the stored-state goldens, and not new.
python3 scripts/schema/stability.py check
# The stable schema against the newest image in proto/released/.
scripts/schema/breaking-check.sh
# The check itself: each breaking mutation fails with its rule and names its field, each harmless one passes.
python3 scripts/schema/mutations.py
