#!/usr/bin/env bash
# Makes a bare Debian root file system with only what a team that does not use Swift would have: Python 3 with a
# virtual environment holding the protobuf package, and the system libraries the release binaries link. The
# release archive is tried there (scripts/release/try-archive.sh), to prove that it needs no Swift toolchain.
#
#   scripts/release/make-bare-root.sh [--print-path] [--cache DIR] [--remake]
#
#   --print-path   print the root's path and exit (0 when it is made, 1 when it is missing)
#   --cache DIR    where roots are kept (default: $LOCWIRE_BARE_ROOT_CACHE, or /var/cache/locationwire)
#   --remake       make it again even when it is there
#
# The root is made once, with debootstrap from Debian's packages, and kept outside the checkout: CI remakes it only
# when it is missing. Its folder's name carries a digest of the recipe below, so a changed recipe makes a new root
# instead of reusing a stale one. On success the last line printed (stdout) is the root's path.
#
# What goes in (the recipe): debootstrap's minbase variant of the host's Debian suite, then
#   python3, python3-venv, ca-certificates   what a Python team has, and pip's way to PyPI
#   libsqlite3-0, libcurl4, libxml2          what locwire and locwire-server link besides glibc, libstdc++ and
#                                            zlib (Foundation's networking and XML parts; the server's SQLite)
#   /opt/python: a venv with protobuf (the version scripts/install-peers.sh pins), for the Python testee
#
# Needs root, debootstrap and the network (deb.debian.org, and PyPI through this machine's pip) while making it;
# nothing afterwards: the root is used without a network connection.
# Exit status: 0 made (or already there), 1 missing (--print-path), 2 usage error or a failed step.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
usage() { sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
fail() { echo "make-bare-root.sh: $*" >&2; exit 2; }

cache=${LOCWIRE_BARE_ROOT_CACHE:-/var/cache/locationwire}
print_path=0 remake=0
while (($#)); do
  case "$1" in
    --print-path) print_path=1 ;;
    --remake) remake=1 ;;
    --cache) [[ $# -ge 2 ]] || fail "--cache needs a folder"; cache=$2; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown argument: $1" ;;
  esac
  shift
done

suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[[ -n $suite ]] || fail "/etc/os-release names no VERSION_CODENAME (the binaries need the host's glibc or newer)"
packages=python3,python3-venv,ca-certificates,libsqlite3-0,libcurl4,libxml2
protobuf=$(grep -o '"protobuf==[0-9.]*"' "$root/scripts/install-peers.sh" | tr -d '"')
[[ -n $protobuf ]] || fail "scripts/install-peers.sh pins no protobuf version"
digest=$(printf '%s\n' "$suite" "$packages" "$protobuf" "$(uname -m)" | sha256sum | cut -c1-12)
target="$cache/bare-root-$suite-$digest"

if ((print_path)); then
  [[ -e $target/.complete ]] || exit 1
  echo "$target"
  exit 0
fi
if [[ -e $target/.complete ]] && ((!remake)); then
  echo "$target"
  exit 0
fi

((EUID == 0)) || fail "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || fail "debootstrap not found (apt-get install -y debootstrap)"
rm -rf "$target" "$target.partial"
mkdir -p "$cache"
partial="$target.partial"
echo "make-bare-root.sh: debootstrap --variant=minbase $suite into $partial (a few minutes)" >&2
debootstrap --variant=minbase --include="$packages" "$suite" "$partial" http://deb.debian.org/debian \
  >"$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log" >&2; fail "debootstrap failed"; }
# The wheel is fetched here, with this machine's pip and its network settings, and installed in the root from that
# folder: the root itself needs no way out. Host and root are the same suite, so the wheel's tags fit.
echo "make-bare-root.sh: python3 -m venv /opt/python; pip install $protobuf" >&2
python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps "$protobuf" \
  -d "$partial/tmp/wheels" || fail "pip download $protobuf failed"
chroot "$partial" /usr/bin/python3 -m venv /opt/python || fail "python3 -m venv failed in the root"
chroot "$partial" /opt/python/bin/pip install --quiet --disable-pip-version-check --no-index \
  --find-links /tmp/wheels "$protobuf" || fail "pip install $protobuf failed in the root"
# The apt and pip caches are not part of what a user keeps.
rm -rf "$partial"/var/cache/apt/archives/*.deb "$partial"/root/.cache "$partial"/tmp/wheels
{
  echo "suite=$suite"
  echo "packages=$packages"
  echo "pip=$protobuf"
  echo "made=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$partial/.complete"
mv "$partial" "$target"
echo "make-bare-root.sh: made $(du -sh "$target" | cut -f1) in $target" >&2
echo "$target"
