#!/usr/bin/env bash
# Installs everything gpumemsim needs to build, test and benchmark on Debian 12.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  libboost-program-options-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev
  libzstd-dev zstd nlohmann-json3-dev libbenchmark-dev python3
  liblzma-dev xz-utils clang-14 libclang-rt-14-dev
  pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest help2man dpkg-dev file
)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
