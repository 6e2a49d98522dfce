# tier: quick
# what: Commits: every subject since the rule began is at most 72 characters, and every commit since 5020148 has a body
source .ci/lib.sh
# The subject rule holds from b4eecbd on, the body rule from 5020148 on (CONTRIBUTING.md, "Commits"); earlier
# history is as it was written.
subjects_from=b4eecbd
bodies_from=5020148
for commit in $subjects_from $bodies_from; do
  git cat-file -e "$commit^{commit}" 2>/dev/null ||
    { echo "commit $commit is not in this clone's history (a shallow clone?): git fetch --unshallow" >&2; exit 1; }
done
failed=0
while IFS=$'\t' read -r hash subject; do
  if ((${#subject} > 72)); then
    echo "$hash: the subject has ${#subject} characters, more than 72: $subject" >&2
    failed=1
  fi
done < <(git log --format='%h%x09%s' "$subjects_from..HEAD")
while read -r hash; do
  if [[ -z $(git log -1 --format=%b "$hash" | tr -d '[:space:]') ]]; then
    echo "$hash: no body that says why: $(git log -1 --format=%s "$hash")" >&2
    failed=1
  fi
done < <(git log --no-merges --format='%h' "$bodies_from..HEAD")
((failed == 0)) || exit 1
echo "ok: $(git rev-list --count "$subjects_from..HEAD") subjects of at most 72 characters," \
  "$(git rev-list --no-merges --count "$bodies_from..HEAD") commits with a body"
