# tier: full
# lane: root
# what: API documentation: DocC for LocationWire, LocationWireValidation, LocationWireJSON, LocationWireDevice and LocationWireInterchange, warnings as errors
source .ci/lib.sh
# A broken ``symbol`` link or <doc:article> fails the build; the articles' code runs in DocumentationSnippetTests.
docs=$(mktemp -d)
trap 'rm -rf "$docs"' EXIT
scripts/build-docs.sh --output "$docs"
for page in locationwire/gettingstarted locationwire/addingafield locationwire/writingatestee \
  locationwire/readingavalidationreport locationwirevalidation/validationreport locationwirejson \
  locationwiredevice/embeddingthedevice locationwireinterchange/googletakeout; do
  test -s "$docs"/*/documentation/$page/index.html || { echo "no page documentation/$page" >&2; exit 1; }
done
