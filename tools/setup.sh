#!/bin/sh
# Shared by tools/main.sh and tools/test.sh: installs the Debian packages the
# build and the tests need (only those missing), then configures and builds
# into ./build.  Sourced, not run.
set -eu

OVERSHADE_PACKAGES="meson ninja-build gcc pkg-config python3 \
libvulkan-dev libvulkan-volk-dev vulkan-tools mesa-vulkan-drivers vulkan-validationlayers \
xvfb xauth glslang-tools spirv-headers spirv-tools libspirv-cross-c-shared-dev \
libzstd-dev libxxhash-dev libpng-dev libjson-c-dev libxcb1-dev valgrind gdb clang libclang-rt-14-dev gnuplot-nox \
qtbase5-examples vkd3d-demos mesa-utils glmark2-x11 openscenegraph chromium \
neverball extremetuxracer chromium-bsu teeworlds \
billard-gl supertux armagetronad mangohud vkbasalt mpv \
gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-bad \
warzone2100 supertuxkart minetest slurm-wlm munge \
megaglest scorched3d openclonk stellarium \
openarena xmoto redeclipse nexuiz cube2 cube2-data bzflag-client bzflag-server gl-117 \
openttd openttd-opengfx retroarch dbus-daemon f3d naev widelands"

overshade_install_packages() {
    missing=""
    for p in $OVERSHADE_PACKAGES; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing="$missing $p"
        fi
    done
    [ -z "$missing" ] && return 0
    echo "overshade: installing Debian packages:$missing"
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    else
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    $sudo apt-get install -y -q --no-install-recommends $missing
}

overshade_build() {
    if [ ! -f build/build.ninja ]; then
        meson setup build
    fi
    ninja -C build
}

overshade_install_packages
overshade_build
