# tier: full
# lane: root
# what: The independent judges of error offsets (JSON syntax, binary decoding) agree with their own cases, with every vector that states an offset, and with locwire's decoder on 2,000 mutated inputs
source .ci/lib.sh
python3 scripts/judges/json_error_offset_judge.py --self-test
python3 scripts/judges/json_error_offset_judge.py --vectors conformance/vectors/http.json conformance/vectors/json.json
python3 scripts/judges/decode_error_judge.py --self-test
python3 scripts/judges/decode_error_judge.py --vectors conformance/vectors/http.json
python3 scripts/judges/decode_error_judge.py --vectors conformance/vectors/wire.json
python3 scripts/judges/decode_error_judge.py --differential 2000 --seed 1 --locwire "$(locwire_release)" 2>/dev/null
