# tier: full
# lane: root
# what: Session and ledger vectors against python-session, the second implementation written from the spec text
source .ci/lib.sh
conformance/testees/python-session/build.sh >/dev/null
"$(locwire_release)" conformance run --testee 'python3 conformance/testees/python-session/testee.py' \
  --filter session --filter ledger --failures conformance/failures/python-session.txt
