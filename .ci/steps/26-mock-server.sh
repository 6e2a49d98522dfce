# tier: full
# lane: packages
# what: Mock server: passes a correct upload client and the Swift device, catches one that deletes on any 2xx
source .ci/lib.sh
LOCWIRE="$(locwire_debug_built)" LOCWIRE_SERVER="$(locwire_server)" Server/scripts/mock-server-demo.sh
