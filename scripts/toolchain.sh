#!/usr/bin/env bash
# Sets up everything the build needs, idempotently:
#  1. Debian 12 packages (system): clang-22, lld-22, llvm-22, hipcc 5.2.3, libamdhip64-dev 5.2.3,
#     rocm-device-libs 5.2.3, zstd/zlib headers, check (libcheck).
#  2. Data packages from Debian's unstable suite (HIP 6.4 headers, device bitcode for the newer
#     targets), downloaded with a private apt configuration and unpacked with dpkg -x into
#     $CRK_TOOLS (default: .toolchain/). Nothing from unstable is installed into the system.
# Writes $CRK_TOOLS/versions.txt (recorded in the build summary). Fails naming the package.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tools=${CRK_TOOLS:-$top/.toolchain}
stamp=$tools/.done-v1

sys_pkgs=(clang-22 lld-22 llvm-22 hipcc libamdhip64-dev rocm-device-libs libzstd-dev zlib1g-dev check pkg-config)
# Unstable data packages, asked for by name (unstable rolls: the version we got is recorded).
unstable_pkgs=(libamdhip64-dev libhsa-runtime-dev rocm-device-libs-21)

say() { printf 'toolchain: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

missing=()
for p in "${sys_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian 12 packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q >/dev/null || die "apt-get update failed"
  for p in "${missing[@]}"; do
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$p" >/dev/null \
      || die "cannot install Debian package '$p' (apt-get install $p)"
  done
fi

if [ -f "$stamp" ]; then exit 0; fi

say "fetching unstable data packages into $tools"
apt_dir=$tools/apt
rm -rf "$tools/root" "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$tools/root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main" \
  > "$apt_dir/sources.list"
: > "$apt_dir/status"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o "Dir::State::status=$apt_dir/status" -o APT::Architecture=amd64)
apt-get "${apt_opts[@]}" update -q >/dev/null 2>&1 || die "cannot read Debian unstable package lists (deb.debian.org unstable)"
: > "$tools/versions.txt"
for p in "${unstable_pkgs[@]}"; do
  (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download "$p" >/dev/null 2>&1) \
    || die "cannot download '$p' from Debian unstable; check 'apt-cache policy $p' there"
  deb=$(ls "$apt_dir"/debs/"${p}"_*.deb | head -1)
  dpkg -x "$deb" "$tools/root" || die "cannot unpack $deb"
  echo "$p $(dpkg-deb -f "$deb" Version) (unstable)" >> "$tools/versions.txt"
done
for p in clang-22 lld-22 hipcc libamdhip64-dev rocm-device-libs; do
  echo "$p $(dpkg-query -W -f='${Version}' "$p") (bookworm)" >> "$tools/versions.txt"
done
rm -rf "$apt_dir/lists" "$apt_dir/cache"
# Sanity: the files the build relies on.
[ -f "$tools/root/usr/include/hip/hip_runtime.h" ] || die "libamdhip64-dev (unstable) lacks hip/hip_runtime.h"
ls "$tools"/root/usr/lib/llvm-21/lib/clang/21/lib/amdgcn/bitcode/ocml.bc >/dev/null 2>&1 \
  || find "$tools/root" -name ocml.bc | grep -q . || die "rocm-device-libs-21 (unstable) lacks ocml.bc"
touch "$stamp"
say "done: $(tr '\n' ';' < "$tools/versions.txt")"
