#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR PYTHON: installs BUILD_DIR into a fresh temporary prefix
# and uses each installed piece from there, outside the source tree: the program run from
# another folder with a preset by name (found in the prefix's data folder), its documents (the
# hardware notes that `presets` points to), its man page, a tiny CMake project that links
# gpumemsim::gpumemsim, and the Python module imported from the prefix.
# Each check compares with the build tree's own program. Exits non-zero on the first failure.
set -euo pipefail
build=$(realpath "$1")
src=$(realpath "$2")
python=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gms-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
for f in bin/gpumemsim share/gpumemsim/presets/volta-v100.ini share/man/man1/gpumemsim.1 \
         share/gpumemsim/examples/example_stream.wtrace include/gpumemsim/sim/replay/simulator.h \
         include/gpumemsim/sim/config/default_config.h lib/cmake/gpumemsim/gpumemsimConfig.cmake \
         share/doc/gpumemsim/wtrace.md share/doc/gpumemsim/hardware.md share/doc/gpumemsim/config.md; do
  [ -f "$prefix/$f" ] || fail "$f is not installed"
done

# The manual's site, beside the man page, where the build made it (mkdocs found).
if [ -f "$build/site/index.html" ]; then
  for f in index.html statistics.html search/search_index.json; do
    [ -f "$prefix/share/doc/gpumemsim/html/$f" ] || fail "the manual's $f is not installed"
  done
fi

# The program, from a folder without configs/, with GPUMEMSIM_PRESETS unset: the preset by name
# must come from the prefix's data folder.
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
trace=$prefix/share/gpumemsim/examples/example_stream.wtrace
env -u GPUMEMSIM_PRESETS "$prefix/bin/gpumemsim" run "$trace" --config volta-v100 --format json \
  > installed.json
"$build/gpumemsim" run "$trace" --config "$src/configs/volta-v100.ini" --format json > built.json
cmp -s installed.json built.json || fail "installed run differs from the build tree's"
env -u GPUMEMSIM_PRESETS "$prefix/bin/gpumemsim" presets | grep -q "^  $prefix/share/gpumemsim/presets\$" \
  || fail "presets does not search the prefix's data folder"
# The hardware notes the sources column points into: the prefix's copy, the source tree's text.
env -u GPUMEMSIM_PRESETS "$prefix/bin/gpumemsim" presets | grep -q "^  $prefix/share/doc/gpumemsim/hardware.md\$" \
  || fail "presets does not point to the prefix's hardware notes"
cmp -s "$prefix/share/doc/gpumemsim/hardware.md" "$src/docs/hardware.md" || fail "hardware.md differs"
grep -q '^\.SS sweep' "$prefix/share/man/man1/gpumemsim.1" || fail "man page lacks the commands"
grep -q 'share/doc/gpumemsim/' "$prefix/share/man/man1/gpumemsim.1" || fail "man page lacks SEE ALSO"
# The manual's "Install" (docs/getting-started.md) shows this listing for the prefix /opt/gpumemsim.
env -u GPUMEMSIM_PRESETS "$prefix/bin/gpumemsim" presets | sed "s|$prefix|/opt/gpumemsim|" > presets.txt
"$python" - "$src/docs/getting-started.md" presets.txt <<'PY' \
  || fail "docs/getting-started.md's presets listing is not the program's"
import sys
page = open(sys.argv[1]).read()
section = page[page.index("\n## Install\n"):]
shown = section.split("```text\n", 1)[1].split("```", 1)[0]
sys.exit(0 if shown == open(sys.argv[2]).read() else "docs/getting-started.md shows another listing")
PY

# A CMake project outside the tree, linking the installed library.
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/consumer.log" || { cat "$tmp/consumer.log"; fail "configure"; }
cmake --build "$tmp/consumer" > "$tmp/consumer-build.log" \
  || { cat "$tmp/consumer-build.log"; fail "consumer build"; }
"$tmp/consumer/consumer" "$trace" volta-v100 "$prefix/share/gpumemsim/presets" > consumer.txt
"$python" - built.json consumer.txt <<'PY' || fail "the library's counts differ from the CLI's"
import json, sys
kernels = json.load(open(sys.argv[1]))["kernels"]
want = [f'{k["id"]} {k["records"]} {k["totals"]["global_load"]["transactions"]}' for k in kernels]
got = open(sys.argv[2]).read().split("\n")[:-1]
sys.exit(0 if got == want and want else f"library {got} != CLI {want}")
PY
# The Python module, imported from the prefix (not build/python), finding the prefix's presets.
PYTHONPATH=$prefix/lib/python3/dist-packages env -u GPUMEMSIM_PRESETS "$python" - built.json \
  "$trace" "$prefix" <<'PY' || fail "the installed Python module"
import json, os, sys
import gpumemsim
want, trace, prefix = json.load(open(sys.argv[1]))["kernels"], sys.argv[2], sys.argv[3]
assert gpumemsim.__file__.startswith(prefix), gpumemsim.__file__
assert gpumemsim.run(trace, config="volta-v100").kernels == want
files = [p["file"] for p in gpumemsim.presets() if p["name"] == "volta-v100"]
assert files == [os.path.join(prefix, "share/gpumemsim/presets/volta-v100.ini")], files
PY
echo "install_test: every installed piece works from $prefix"
