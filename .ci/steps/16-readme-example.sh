# tier: full
# lane: root
# what: The conformance README's Python example is the Python testee, under 100 lines
source .ci/lib.sh
python3 .ci/checks/readme_example.py
