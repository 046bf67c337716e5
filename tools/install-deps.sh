#!/usr/bin/env bash
# Installs everything gpumemsim needs to build, test and benchmark on Debian 12 (the README's
# quick start). --ci adds what only CI's further stages use: clang 14 and its sanitizer and
# libFuzzer runtimes (.ci/fuzz.sh), a large download a first build does not need, and MkDocs with
# the Material theme, which build the manual as a site (mkdocs.yml; installed with the program
# when present at configure time).
#   bash tools/install-deps.sh [--ci]
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libboost-program-options-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev
  libzstd-dev zstd nlohmann-json3-dev libbenchmark-dev python3
  liblzma-dev xz-utils time
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest help2man dpkg-dev file
)
case "${1:-}" in
  --ci) packages+=(clang-14 libclang-rt-14-dev mkdocs mkdocs-material) ;;
  "") ;;
  *) echo "install-deps.sh: unknown argument '$1' (expected --ci or nothing)" >&2; exit 2 ;;
esac
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
