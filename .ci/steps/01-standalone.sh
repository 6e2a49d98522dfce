# tier: quick
# what: The clone stands alone: no code, test, script or CI step reads ../shared or anything else beside the checkout
source .ci/lib.sh
# Prose may tell the story; nothing that runs may point outside. .ci/run itself names ../shared to relocate.
if git grep -n -E '\.\./shared|shared/data|LOCWIRE_SHARED' -- ':!*.md' ':!.ci/run' ':!.ci/steps/01-standalone.sh'; then
  echo "the lines above read files beside the checkout: put the data in the repository (conformance/data/)" >&2
  exit 1
fi
if [[ -e ../shared ]]; then
  echo "note: ../shared is beside this checkout (run .ci/run without --here to run in a clone that has nothing beside it)"
else
  echo "ok: nothing is read from outside, and nothing is beside this checkout ($(dirname "$root"))"
fi
