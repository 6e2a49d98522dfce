# tier: full
# lane: packages
# what: Load and crash, short forms: devices upload through serve, every acknowledged fix stored once; kill -9 soak, 0 lost; serve and its floors, no errors
source .ci/lib.sh
# The full runs (1,000 devices for 60 s, the sqlite3 CLI limit, a 2-minute soak, the floors) are scripts whose
# figures are committed in Server/RESULTS.md; these check errors and consistency with the server's debug build.
locwire_server >/dev/null
LOCWIRE_BUILD_CONFIGURATION=debug Server/scripts/measure/load-sqlite.sh --short --no-build
LOCWIRE_BUILD_CONFIGURATION=debug Server/scripts/measure/crash-soak.sh --short --no-build
LOCWIRE_BUILD_CONFIGURATION=debug Server/scripts/measure/ingest-floors.sh --short --no-build
