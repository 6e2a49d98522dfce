# tier: full
# lane: side
# what: Mock server: a correct upload client passes every check, the Swift device every check but the wall-clock pacing its fast replay cannot show, and each of the uploader's 17 mutants fails the check naming its rule; the uploader reads the http answer vectors as data
source .ci/lib.sh
python3 conformance/clients/python-uploader/uploader.py --run-vectors conformance/vectors/http.json
LOCWIRE="$(locwire_debug_built)" LOCWIRE_SERVER="$(locwire_server)" Server/scripts/mock-server-demo.sh
