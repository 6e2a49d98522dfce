#!/usr/bin/env bash
# Tries a release archive (scripts/release.sh) where no Swift toolchain is: in the bare Debian root file system of
# scripts/release/make-bare-root.sh (python3 with protobuf, libsqlite3-0, libcurl4, libxml2; nothing of Swift's),
# entered with unshare and chroot, as a team that uses another language would run it:
#
#   1. the archive's checksums
#   2. `locwire conformance run` against the Python testee, which loads the archive's descriptor set (no protoc)
#   3. `locwire-server serve` with `locwire-server probe` (Server/scripts/probe-reference.sh: every check, 429 and
#      503 required)
#   4. `locwire-server mock-server` judging the Python upload client (Server/scripts/mock-server-demo.sh, the
#      correct client only, under every fault; the report must pass with --require-drained)
#
#   scripts/release/try-archive.sh ARCHIVE [--root DIR] [--fixes N]
#
#   --root DIR   the bare root (default: make-bare-root.sh's, made first when it is missing)
#   --fixes N    fixes the upload client sends through the mock server's faults (default 80)
#
# The root is mounted read-only under an overlay in a mount namespace of its own, so a run leaves it as it was and
# nothing is left mounted. Needs root (unshare, mount, chroot). Prints each part's time and what the root holds.
# Exit status: 0 every part passed, 1 a part failed, 2 usage error or the root could not be entered.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
fail() { echo "try-archive.sh: $*" >&2; exit 2; }

archive="" bare_root="" fixes=80
while (($#)); do
  case "$1" in
    --root) [[ $# -ge 2 ]] || fail "--root needs a folder"; bare_root=$2; shift ;;
    --fixes) [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || fail "--fixes needs a number"; fixes=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; fail "unknown option $1" ;;
    *) [[ -z $archive ]] || fail "one ARCHIVE only"; archive=$1 ;;
  esac
  shift
done
[[ -n $archive ]] || { usage >&2; fail "no ARCHIVE"; }
[[ -f $archive ]] || fail "$archive: no such file"
((EUID == 0)) || fail "needs root (unshare, mount, chroot)"
if [[ -z $bare_root ]]; then
  bare_root=$("$here/make-bare-root.sh" | tail -1) || fail "no bare root (make-bare-root.sh failed)"
fi
[[ -e $bare_root/.complete ]] || fail "$bare_root is not a finished root (make-bare-root.sh makes one)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/overlay-work" "$work/mnt"
archive=$(realpath "$archive")

# What runs inside: the archive unpacked in /opt, then the parts, each timed.
cat >"$work/inside.sh" <<'INSIDE'
set -euo pipefail
export PATH=/opt/python/bin:/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8
status=0
part() {
  local name=$1 begin=$SECONDS
  shift
  echo "== $name"
  if "$@"; then echo "<= $name: passed in $((SECONDS - begin)) s"
  else echo "<= $name: FAILED in $((SECONDS - begin)) s"; status=1; fi
}
cd /opt && tar -xzf /tmp/archive.tar.gz && cd /opt/locationwire-*/
echo "in the root: $(. /etc/os-release && echo "$PRETTY_NAME"); $(python3 --version);" \
  "protobuf $(python3 -c 'import google.protobuf as p; print(p.__version__)'); swift: $(command -v swift || echo none)"
part checksums sha256sum --check --quiet SHA256SUMS
part "conformance suite, Python testee" bin/locwire conformance run --vectors conformance/vectors \
  --testee "python3 conformance/testees/python/testee.py --descriptors locationwire.descriptors.binpb"
part "serve with probe" Server/scripts/probe-reference.sh --bin bin/locwire-server --quiet
part "mock server, Python upload client" env LOCWIRE_SERVER=bin/locwire-server STEPS=correct FIXES="$FIXES" \
  Server/scripts/mock-server-demo.sh
exit "$status"
INSIDE

echo "try-archive.sh: $(basename "$archive") ($(du -h "$archive" | cut -f1)) in $bare_root"
recipe=$(sed -n 's/^packages=//p; s/^pip=/pip /p' "$bare_root/.complete" | paste -sd' ')
echo "try-archive.sh: the root holds $recipe and minbase;" \
  "installed: $(grep -c '^Package:' "$bare_root/var/lib/dpkg/status") Debian packages"
status=0
unshare --mount --pid --fork bash -euo pipefail -c '
  root=$1 work=$2 fixes=$3 archive=$4
  mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/overlay-work" "$work/mnt"
  mount -t proc proc "$work/mnt/proc"
  mount -t tmpfs tmpfs "$work/mnt/tmp"
  cp "$archive" "$work/mnt/tmp/archive.tar.gz"
  cp "$work/inside.sh" "$work/mnt/tmp/inside.sh"
  exec env -i FIXES="$fixes" /usr/sbin/chroot "$work/mnt" /bin/bash /tmp/inside.sh
' try "$bare_root" "$work" "$fixes" "$archive" || status=$?
((status == 0)) && echo "try-archive.sh: every part passed without a Swift toolchain" ||
  echo "try-archive.sh: a part failed (exit $status)" >&2
exit $((status == 0 ? 0 : 1))
