# tier: full
# lane: root
# what: The codec's schema tables match proto/ (protoc's descriptors)
source .ci/lib.sh
python3 Tests/peers/schema_check.py "$(locwire_release)"
