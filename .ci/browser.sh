#!/usr/bin/env bash
# Browser test of the HTML reports: installs Debian's chromium (as root), writes one report of
# each kind (run, compare, sweep, validate, fidelity) with the built gpumemsim, loads each in
# headless chromium, and checks that the charts rendered: the dumped DOM holds SVG marks with
# data attributes, and the screenshot is a PNG of non-trivial size. Then one page of the manual,
# where BUILD_DIR/site holds the built site.
#
#   bash .ci/browser.sh [BUILD_DIR] [--update-docs]
#
# BUILD_DIR defaults to build/. --update-docs also copies the screenshots to docs/report-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
update_docs=0
for a in "$@"; do
  case "$a" in
    --update-docs) update_docs=1 ;;
    *) build=$a ;;
  esac
done
gms="$build/gpumemsim"
[[ -x "$gms" ]] || { echo "browser.sh: $gms is not built" >&2; exit 1; }

if ! command -v chromium >/dev/null; then
  echo "== Installing chromium (Debian package)"
  if [[ $(id -u) -ne 0 ]]; then
    echo "browser.sh: chromium is missing and installing it needs root" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trace=tests/data/example_stream.wtrace

echo "== Reports"
# The generated trace goes in the build folder, not the temporary one: the run report names its
# traces as given, and the pictures in docs/ come from here.
matmul="$build/matmul_naive_n64.wtrace"
"$gms" gen matmul_naive --n 64 -o "$matmul"
"$gms" run "$matmul" "$trace" --mode both --format html -o "$out/run.html"
"$gms" compare "$trace" --config kepler-k40-ca --config volta-v100 --format html \
  -o "$out/compare.html"
"$gms" sweep --trace "$trace" --vary preset=kepler-k40-ca,kepler-k40,volta-v100 --mode both \
  --format html -o "$out/sweep.html"
# validate exits 3: the raw parser fixture is 11% off on one metric on purpose.
status=0
"$gms" validate --ncu tests/data/ncu/example_stream_ncu_raw.csv "$trace" --match name \
  --tolerance 5 --format html -o "$out/validate.html" 2>/dev/null || status=$?
[[ $status -eq 3 ]] || { echo "browser.sh: validate exited $status, expected 3" >&2; exit 1; }
# The calibration report of two curves fidelity.py replayed (its points CSV, a fixture).
"$gms" fidelity tests/data/fidelity/v100_quick_points.csv --format html -o "$out/fidelity.html"

chrome() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$(mktemp -d -p "$out")" "$@" 2>>"$out/chromium.log"
}

# How often a pattern occurs in a file (0 without failing).
marks() { { grep -o "$1" "$2" || true; } | wc -l; }

# kind, then the least number of each mark the DOM must hold: bars, points, lines.
check() {
  local kind=$1 bars=$2 points=$3 lines=$4
  local dom="$out/$kind.dom.html" png="$out/$kind.png"
  chrome --dump-dom "file://$out/$kind.html" >"$dom"
  chrome --screenshot="$png" --window-size=1280,2000 "file://$out/$kind.html" >/dev/null
  local svgs nbars npoints nlines size
  svgs=$(marks '<svg class="chart"' "$dom")
  nbars=$(marks '<rect class="bar"[^>]*data-value="[^"]*"' "$dom")
  npoints=$(marks '<circle class="point"[^>]*data-y="[^"]*"' "$dom")
  nlines=$(marks '<path class="series"[^>]*data-series="[^"]*"' "$dom")
  size=$(stat -c %s "$png" 2>/dev/null || echo 0)
  echo "$kind: $svgs charts, $nbars bars, $npoints points, $nlines lines; screenshot $size bytes"
  local ok=1
  [[ $svgs -ge 1 && $nbars -ge $bars && $npoints -ge $points && $nlines -ge $lines ]] || ok=0
  [[ $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || ok=0
  [[ $size -gt 30000 ]] || ok=0
  if [[ $ok -eq 0 ]]; then
    echo "browser.sh: the $kind report did not render as expected" >&2
    tail -20 "$out/chromium.log" >&2 || true
    exit 1
  fi
  if [[ $update_docs -eq 1 ]]; then cp "$png" "docs/report-$kind.png"; fi
}

echo "== Headless chromium"
check run 20 0 0
check compare 20 0 0
check sweep 0 40 10
check validate 0 40 0
check fidelity 0 70 10
# The manual as a site (mkdocs.yml), where it has been built into BUILD_DIR/site (.ci/run builds
# it before this stage): one page, the statistics reference, must render with its navigation,
# its definition tables and the search box, in a screenshot of some size.
site="$build/site"
if [[ -f "$site/statistics.html" ]]; then
  dom="$out/site.dom.html" png="$out/site.png"
  chrome --dump-dom "file://$PWD/$site/statistics.html" >"$dom"
  chrome --screenshot="$png" --window-size=1280,2000 "file://$PWD/$site/statistics.html" >/dev/null
  tables=$(marks '<table' "$dom")
  navs=$(marks 'class="md-nav__link' "$dom")
  size=$(stat -c %s "$png" 2>/dev/null || echo 0)
  echo "manual: statistics.html: $tables tables, $navs navigation links; screenshot $size bytes"
  if [[ $tables -lt 3 || $navs -lt 10 || $size -le 30000 ]] \
      || ! grep -q 'Statistics: definitions' "$dom" \
      || [[ $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') != 89504e470d0a1a0a ]]; then
    echo "browser.sh: the manual's page did not render as expected" >&2
    tail -20 "$out/chromium.log" >&2 || true
    exit 1
  fi
else
  echo "manual: not checked ($site/statistics.html is not built: mkdocs build --site-dir $site)"
fi
echo "browser test passed"
