# tier: full
# lane: root
# what: Cross-check against upb and protoc: random messages, wire variants, truncations, JSON
source .ci/lib.sh
python3 Tests/peers/crosscheck.py --locwire "$(locwire_release)"
