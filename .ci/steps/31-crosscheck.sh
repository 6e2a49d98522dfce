# tier: full
# lane: root
# what: Cross-check against upb and protoc: random messages, wire variants, truncations, JSON
source .ci/lib.sh
# A third of the default rounds (the script's defaults are the full check, about 5 minutes of CPU on its own).
python3 Tests/peers/crosscheck.py --locwire "$(locwire_release)" --count 20 --mutations 100 --trunc-budget 200
