#!/usr/bin/env bash
# toolchain.sh — sets up everything the build needs, idempotently; `make` runs
# it before any compile, every time (the checks take milliseconds).
#  1. Debian 12 packages (system): the packages of every command in
#     mk/tools.mk, plus the headers and libraries in lib_pkgs below.
#  2. Every command in mk/tools.mk must then be on PATH: a missing one fails
#     here, in seconds, naming its package and apt suite.
#  3. Data packages from Debian's unstable suite (HIP 6.4 headers, device
#     bitcode for the newer targets), downloaded with a private apt state from
#     the machine's own configured Debian mirror (proxies and mirrors that work
#     for apt work here) and unpacked with dpkg -x into $CRK_TOOLS (default
#     .toolchain/). Nothing from unstable is installed into the system.
# Writes $CRK_TOOLS/versions.txt and the stamp the Makefile depends on; the
# stamp changes only when the versions do, so editing this script rebuilds
# nothing. Options: --check (no install, no download: only steps 1-2 as
# checks). Env: CRK_TOOLS, CRK_DEBIAN_MIRROR (overrides the mirror found).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tools=${CRK_TOOLS:-$top/.toolchain}
stamp=$tools/.stamp
check_only=0
[ "${1:-}" = --check ] && check_only=1

# Headers and libraries (no command to check): zstd/zlib for CCOB bundles,
# libcheck for the unit tests, libamdhip64 for libcrk's HIP back end.
lib_pkgs=(libzstd-dev zlib1g-dev check libamdhip64-dev)
# Unstable data packages, asked for by name (unstable rolls: the version we
# got is recorded).
unstable_pkgs=(libamdhip64-dev libhsa-runtime-dev rocm-device-libs-21)

say() { printf 'toolchain: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
# apt's own error and warning lines from a log (never thrown away).
apt_why() { grep -E '^(E|W|Err):' "$1" | head -20 | sed 's/^/toolchain:   apt: /' >&2 || tail -20 "$1" >&2; }

# "command package suite" for every entry of mk/tools.mk.
mapfile -t tool_rows < <(sed -nE \
  's/^[A-Z_0-9]+[[:space:]]*:=[[:space:]]*([^[:space:]#]+)[[:space:]]*#[[:space:]]*pkg:[[:space:]]*([^[:space:]]+)[[:space:]]+([^[:space:]]+).*/\1 \2 \3/p' \
  "$top/mk/tools.mk")
[ ${#tool_rows[@]} -gt 0 ] || die "mk/tools.mk lists no tools (format: NAME := cmd  # pkg: PACKAGE SUITE)"
declare -A suite_of=()
pkgs=()
for row in "${tool_rows[@]}"; do
  read -r _ p s <<< "$row"
  [ -n "${suite_of[$p]:-}" ] || pkgs+=("$p")
  suite_of[$p]=$s
done
for p in "${lib_pkgs[@]}"; do [ -n "${suite_of[$p]:-}" ] || { pkgs+=("$p"); suite_of[$p]=bookworm; }; done

# The apt line that enables a suite, for error messages.
suite_line() {
  case $1 in
    bookworm-security) echo "deb http://deb.debian.org/debian-security bookworm-security main" ;;
    *) echo "deb http://deb.debian.org/debian $1 main" ;;
  esac
}

# One dpkg-query for all (a call per package costs more than the rest of the checks).
missing=()
mapfile -t have < <(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null | awk '/ install ok installed$/{print $1}')
for p in "${pkgs[@]}"; do
  printf '%s\n' "${have[@]}" | grep -qxF "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] && [ $check_only = 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "packages missing (${missing[*]}) and not root: run 'apt-get install ${missing[*]}' as root, or install sudo"
    sudo=sudo
  fi
  say "installing Debian 12 packages: ${missing[*]}"
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  $sudo apt-get update -q > "$log" 2>&1 || { apt_why "$log"; die "apt-get update failed (apt's lines above)"; }
  grep -E '^(W|E|Err):' "$log" | sed 's/^/toolchain:   apt: /' >&2 || true
  # A package apt has no candidate for is in a suite this machine lacks: say which.
  for p in "${missing[@]}"; do
    cand=$(apt-cache policy "$p" 2>/dev/null | sed -nE 's/^[[:space:]]*Candidate:[[:space:]]*//p')
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
      s=${suite_of[$p]}
      die "Debian package '$p' is in no apt source of this machine: it comes from Debian 12's '$s' suite. Add it to apt's sources, e.g. as root: echo '$(suite_line "$s")' >> /etc/apt/sources.list && apt-get update"
    fi
  done
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" > "$log" 2>&1 \
    || { apt_why "$log"; die "cannot install Debian packages: ${missing[*]} (apt's lines above)"; }
  missing=()
fi
[ ${#missing[@]} -eq 0 ] || die "Debian packages not installed: ${missing[*]} (run scripts/toolchain.sh, or apt-get install them)"

# Every command the build invokes, present now (not 19 minutes into the build).
bad=0
for row in "${tool_rows[@]}"; do
  read -r c p s <<< "$row"
  command -v "$c" >/dev/null 2>&1 && continue
  say "error: command '$c' not found: it comes from Debian package '$p' ($s suite): apt-get install $p"
  bad=1
done
[ $bad = 0 ] || die "commands missing (see above); mk/tools.mk lists what the build runs"

if [ $check_only = 1 ]; then
  [ -f "$stamp" ] || die "$tools not set up: run scripts/toolchain.sh (make does)"
  exit 0
fi

# Where the machine's Debian comes from: the site of its configured 'Debian'
# archive (not security/updates/backports), as apt itself resolved it.
find_mirror() {
  apt-get indextargets --format '$(SITE) $(LABEL) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
    awk '$2 == "Debian" && $3 !~ /-(security|updates|backports|proposed-updates)$/ {print $1; exit}'
}

need_fetch=0
[ -f "$stamp" ] && [ -f "$tools/versions.txt" ] || need_fetch=1
for p in "${unstable_pkgs[@]}"; do grep -q "^$p " "$tools/versions.txt" 2>/dev/null || need_fetch=1; done

if [ $need_fetch = 1 ]; then
  mirror=${CRK_DEBIAN_MIRROR:-$(find_mirror)}
  mirror=${mirror:-http://deb.debian.org/debian}
  mirror=${mirror%/}
  say "fetching unstable data packages from $mirror into $tools"
  apt_dir=$tools/apt
  rm -rf "$tools/root" "$apt_dir"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$tools/root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror unstable main" \
    > "$apt_dir/sources.list"
  : > "$apt_dir/status"
  # Only the lists, cache and status are private; the rest of apt's
  # configuration (proxies, retries) is the system's.
  apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
            -o "Dir::State::status=$apt_dir/status" -o APT::Architecture=amd64)
  # The private lists may sit where apt's sandbox user cannot write (/root).
  [ "$(id -u)" = 0 ] && apt_opts+=(-o APT::Sandbox::User=root)
  log=$apt_dir/apt.log
  apt-get "${apt_opts[@]}" update -q > "$log" 2>&1 && ! grep -qE '^(E|Err):' "$log" \
    || { apt_why "$log"
         grep -q 'is expired' "$log" && say "hint: unstable's Release file is dated; check the clock (date), or use a current mirror (CRK_DEBIAN_MIRROR=URL make); a deliberately frozen snapshot mirror needs Acquire::Check-Valid-Until \"false\" in /etc/apt/apt.conf.d/"
         die "cannot read Debian unstable package lists from $mirror (apt's lines above; another mirror: CRK_DEBIAN_MIRROR=URL make)"; }
  : > "$tools/versions.new"
  for p in "${unstable_pkgs[@]}"; do
    (cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" download "$p" > "$log" 2>&1) \
      || { apt_why "$log"; die "cannot download '$p' from Debian unstable at $mirror (apt's lines above)"; }
    deb=$(ls "$apt_dir"/debs/"${p}"_*.deb | head -1)
    dpkg -x "$deb" "$tools/root" || die "cannot unpack $deb"
    echo "$p $(dpkg-deb -f "$deb" Version) (unstable)" >> "$tools/versions.new"
  done
  rm -rf "$apt_dir/lists" "$apt_dir/cache"
  # Sanity: the files the build relies on.
  [ -f "$tools/root/usr/include/hip/hip_runtime.h" ] || die "libamdhip64-dev (unstable) lacks hip/hip_runtime.h"
  find "$tools/root" -name ocml.bc | grep -q . || die "rocm-device-libs-21 (unstable) lacks ocml.bc"
else
  grep ' (unstable)$' "$tools/versions.txt" > "$tools/versions.new"
fi

# System packages with the suite apt installed them from (policy's '***'
# line). apt-cache takes ~0.7 s a call: reuse the recorded lines while dpkg's
# database is older than them (no package changed since).
sys_versioned=(clang-22 lld-22 clang-tools-22 libamdhip64-dev)
origin() {
  apt-cache policy "$1" 2>/dev/null | awk '/^ \*\*\* /{getline; print $3; exit}' | sed 's,/.*,,'
}
if [ $need_fetch = 0 ] && [ "$tools/versions.txt" -nt /var/lib/dpkg/status ] &&
   [ "$(grep -vc ' (unstable)$' "$tools/versions.txt")" = ${#sys_versioned[@]} ]; then
  grep -v ' (unstable)$' "$tools/versions.txt" >> "$tools/versions.new"
else
  for p in "${sys_versioned[@]}"; do
    o=$(origin "$p"); echo "$p $(dpkg-query -W -f='${Version}' "$p") (${o:-${suite_of[$p]:-bookworm}})"
  done >> "$tools/versions.new"
fi
if cmp -s "$tools/versions.new" "$tools/versions.txt" && [ -f "$stamp" ]; then
  rm -f "$tools/versions.new"
else
  mv "$tools/versions.new" "$tools/versions.txt"
  cp "$tools/versions.txt" "$stamp"
  say "ready: $(tr '\n' ';' < "$tools/versions.txt")"
fi
