#!/usr/bin/env bash
# .ci/deb.sh [BUILD_DIR]: builds the .deb of BUILD_DIR's install with CPack, checks that dpkg
# would install it here (dependencies satisfied: dpkg --dry-run), unpacks it into a fresh root
# and runs the packaged program from there on the packaged example, with a preset by name, from
# a folder without configs/; its report must equal the build tree's, and `presets` must point to
# the packaged hardware notes (share/doc/gpumemsim). Then imports the packaged Python module from
# that root. Needs a full build of BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gms-deb-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -B "$tmp/out" > cpack.log) \
  || { cat "$tmp/cpack.log"; exit 1; }
deb=$(ls "$tmp"/out/gpumemsim_*.deb)
dpkg-deb --field "$deb" Package Version Depends
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi  # as tools/install-deps.sh
$sudo dpkg --dry-run -i "$deb" > /dev/null  # the dependencies are met on this machine
root=$tmp/root
dpkg-deb -x "$deb" "$root"
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
example=$root/usr/share/gpumemsim/examples/example_stream.wtrace
env -u GPUMEMSIM_PRESETS "$root/usr/bin/gpumemsim" run "$example" --config volta-v100 > packaged.txt
# The hardware notes that the presets' sources cite travel in the package, and the program finds them.
env -u GPUMEMSIM_PRESETS "$root/usr/bin/gpumemsim" presets \
  | grep -qx "  $root/usr/share/doc/gpumemsim/hardware.md" \
  || { echo "deb: presets does not point to the packaged hardware notes" >&2; exit 1; }
# The manual's site, beside the man page, where the build made it (MkDocs found: CI's build).
if [ -f "$build/site/index.html" ]; then
  [ -f "$root/usr/share/doc/gpumemsim/html/index.html" ] \
    || { echo "deb: the manual's HTML is not packaged" >&2; exit 1; }
fi
cd - > /dev/null
"$build/gpumemsim" run "$example" --config configs/volta-v100.ini > "$tmp/built.txt"
cmp "$tmp/elsewhere/packaged.txt" "$tmp/built.txt"
PYTHONPATH=$root/usr/lib/python3/dist-packages /usr/bin/python3 -c "
import gpumemsim
r = gpumemsim.run('$example', config='volta-v100')
assert r.kernels[0]['records'] > 0 and gpumemsim.presets()[0]['file'].startswith('$root/usr/share')
"
echo "deb: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) installs and runs"
