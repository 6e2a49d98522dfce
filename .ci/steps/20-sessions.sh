# tier: full
# lane: root
# what: Sessions: 50,000 simulated faulty sessions break no invariant, and the ack-scope mutant is caught
source .ci/lib.sh
locwire=$(locwire_release)
"$locwire" simulate sessions --count 50000 --seed 20261122 --quiet
if "$locwire" simulate sessions --count 300 --seed 1 --mutant ack-scope --quiet >/dev/null 2>&1; then
  echo "the simulator did not catch the ack-scope mutant" >&2
  exit 1
fi
echo "ok: the ack-scope mutant is caught"
