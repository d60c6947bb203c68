#!/usr/bin/env bash
# Installs what RematLens needs to build and test on Debian 12 (skips what is already there).
# --capture adds PyTorch (python3-torch, python3-torchvision: large) for python/rematlens_capture.
set -euo pipefail
capture=0
for argument in "$@"; do
  case "$argument" in
    --capture) capture=1 ;;
    *) echo "usage: $0 [--capture]" >&2; exit 2 ;;
  esac
done
packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev libvulkan-dev
  libtbb-dev libsimdjson-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev libmuparser-dev libgraphviz-dev libzip-dev zlib1g-dev
  coinor-libcbc-dev
  libopenmpi-dev openmpi-bin
  python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest python3-nbclient python3-ipykernel python3-matplotlib
  xvfb xauth clang libclang-rt-14-dev poppler-utils desktop-file-utils dpkg-dev
  openbox python3-xlib
)
((capture)) && packages+=(python3-torch python3-torchvision)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
fi
