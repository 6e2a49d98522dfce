# tier: full
# lane: packages
# what: The reference device against the reference server stores exactly what simulate record and simulate fences say; a short soak with kill -9 of device and server, then the mock server's faults: nothing durable lost or doubled
source .ci/lib.sh
LOCWIRE="$(locwire_debug_built)"
LOCWIRE_SERVER="$(locwire_server)"
export LOCWIRE LOCWIRE_SERVER
scripts/device-e2e.sh
# The long soak is scripts/measure/device-soak.sh (figures in model/DEVICE-SOAK.md); this is its short round, debug builds.
scripts/measure/device-soak.sh --seconds 10 --laps 3 --no-results
