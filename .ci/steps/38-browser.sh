# tier: full
# lane: root
# what: Browser: the HTML outputs in headless Chromium (not blank, track colour at the fixes, script works, no console errors)
source .ci/lib.sh
# The checker first proves it can fail (a JavaScript error, console.error, a network resource, a hidden, recoloured
# or moved track, a blank page); then the real track's page and the conformance report must pass.
LOCWIRE="$(locwire_release)" scripts/browser-check.sh --no-build
