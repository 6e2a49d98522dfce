# tier: full
# lane: root
# what: Cross-check against upb and protoc: random messages, wire variants, truncations, JSON
source .ci/lib.sh
# A sixth of the default rounds (the script's defaults are the full check, about 5 minutes of CPU on its own; a
# third took 255 s of CI's time in November 2026).
python3 Tests/peers/crosscheck.py --locwire "$(locwire_release)" --count 10 --mutations 50 --trunc-budget 100
