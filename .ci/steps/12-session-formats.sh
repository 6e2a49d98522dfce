# tier: full
# lane: root
# what: The session engines' stored bytes are what proto/locationwire/session/v1/ describes (upb parses and rewrites them)
source .ci/lib.sh
python3 Tests/peers/session_formats_check.py
