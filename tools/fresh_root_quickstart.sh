#!/usr/bin/env bash
# Times a newcomer's first command (docs/getting-started.md: bash tools/quickstart.sh) on a fresh
# Debian 12 root: a minimal debootstrap of bookworm (no compiler, no CMake: less than a new
# machine has, so apt does all its work), a clean copy of the committed tree (git archive of
# HEAD), then quickstart.sh inside it under chroot, as root, timed from start to the example
# table. Needs root, debootstrap and the Debian mirror.
#   sudo bash tools/fresh_root_quickstart.sh [ROOT_CACHE]
# With --tests, the README's test command is then run and timed in the same root (the tree that
# quickstart built), as the README writes it.
# ROOT_CACHE (default /var/tmp/gms-froot-base) keeps the debootstrap between runs (not timed: a
# fresh machine has it); each run copies it to a new root, which is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=0
if [[ ${1:-} == --tests ]]; then
  tests=1
  shift
fi
base=${1:-/var/tmp/gms-froot-base}
if [[ ! -x $base/bin/bash ]]; then
  echo "== debootstrap --variant=minbase bookworm $base"
  debootstrap --variant=minbase bookworm "$base" http://deb.debian.org/debian >/dev/null
fi
root=$(mktemp -d /var/tmp/gms-froot.XXXXXX)
cleanup() {
  for m in dev/pts dev proc sys; do umount "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/src/gpumemsim"
git archive HEAD | tar -x -C "$root/src/gpumemsim"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
# timed WHAT COMMAND: runs COMMAND in the tree inside the root, as a fresh login would, prints
# its seconds (and, on failure, the end of its log) and leaves its log in $root.log.
timed() {
  local what=$1 command=$2 start end
  start=$(date +%s.%N)
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /src/gpumemsim && $command" >"$root.log" 2>&1 || {
    tail -n 40 "$root.log" >&2
    echo "fresh_root_quickstart.sh: $what failed (log $root.log)" >&2
    exit 1
  }
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v w="$what" 'BEGIN { printf "%s: %.0f s\n", w, e - s }'
}
echo "== $(git rev-parse --short HEAD) in a fresh bookworm root, $(nproc) cores, $(date -u +%FT%TZ)"
timed "quickstart.sh in a fresh root" "bash tools/quickstart.sh"
tail -n 12 "$root.log"
rm -f "$root.log"
[[ $tests == 1 ]] || exit 0
test_command=$(grep -m1 -x 'cmake --build build && ctest .*' README.md)
echo "== the README's test command: $test_command"
timed "the test command after quickstart.sh" "$test_command"
grep -E 'tests passed|Total Test time' "$root.log"
rm -f "$root.log"
