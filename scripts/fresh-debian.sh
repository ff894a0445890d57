#!/usr/bin/env bash
# fresh-debian.sh [WORKDIR] — a new user's first hour, replayed: a minimal
# Debian 12 root (debootstrap --variant=minbase bookworm), then inside it, as
# the README says and nothing else: its prerequisite block (the README's first
# ```sh block), a git clone of this repository's HEAD, and its two commands
# (the second ```sh block), each line timed. Ends with one line:
#   fresh-debian: PASS (...) | fresh-debian: FAIL at STEP (...)
# Needs root and mount (installs debootstrap if missing); about 30 minutes on
# 2 cores, so it is not part of every CI run: run it before closing any work
# on the toolchain, the Makefile or the README's commands.
# WORKDIR (default /var/tmp/crk-fresh) is wiped first; the transcript is
# WORKDIR/transcript.log. Env: CRK_FRESH_MIRROR (default: the host's Debian mirror).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/var/tmp/crk-fresh}
root=$work/root
log=$work/transcript.log
t_all=$(date +%s)

say() { printf 'fresh-debian: %s\n' "$*" | tee -a "$log" >&2; }
[ "$(id -u)" = 0 ] || { echo "fresh-debian: needs root (debootstrap, chroot, mount)" >&2; exit 2; }

unmount_all() {
  for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"; done
  return 0
}
trap unmount_all EXIT
unmount_all
rm -rf "$work"
mkdir -p "$work"
: > "$log"

# The README's first two ```sh blocks: prerequisites, then the two commands.
awk '/^```sh$/{n++; inb=1; next} /^```$/{inb=0} inb && n==1' "$top/README.md" > "$work/prereq.sh"
awk '/^```sh$/{n++; inb=1; next} /^```$/{inb=0} inb && n==2' "$top/README.md" > "$work/commands.sh"
[ -s "$work/prereq.sh" ] && [ "$(grep -c . "$work/commands.sh")" = 2 ] \
  || { say "FAIL at reading README.md: want a prerequisite \`\`\`sh block, then one with two commands"; exit 1; }

command -v debootstrap >/dev/null || { apt-get update -q && apt-get install -y -q debootstrap; } >> "$log" 2>&1
mirror=${CRK_FRESH_MIRROR:-$(apt-get indextargets --format '$(SITE) $(LABEL) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
  awk '$2 == "Debian" && $3 !~ /-(security|updates|backports)$/ {print $1; exit}')}
mirror=${mirror:-http://deb.debian.org/debian}

# step NAME CMD...: runs and times one step, its output into the transcript.
steps=""
step() {
  local name=$1; shift
  local t0; t0=$(date +%s)
  say "== $name"
  if "$@" >> "$log" 2>&1; then
    local dt=$(( $(date +%s) - t0 ))
    steps="$steps; $name ${dt}s"
    say "   ok, ${dt} s"
  else
    local rc=$? dt=$(( $(date +%s) - t0 ))
    tail -n 40 "$log" >&2
    say "FAIL at '$name' (exit $rc after ${dt} s; transcript: $log)"
    exit 1
  fi
}
# in_root CMD: a login-like shell in the root, with a clean environment.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}

step "debootstrap --variant=minbase bookworm ($mirror)" \
  debootstrap --variant=minbase bookworm "$root" "$mirror"
# The network's settings, as any machine on this network has them: name
# servers, and apt's proxy and date-check options (a frozen snapshot mirror
# has an expired unstable Release file, accepted only where apt is told so).
cp /etc/resolv.conf "$root/etc/resolv.conf"
apt-config dump 2>/dev/null | grep -E '^Acquire::(https?::Proxy|Check-Valid-Until|Check-Date) ' \
  > "$root/etc/apt/apt.conf.d/99host-network" || true
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
# The user's copy of the repository: a clone of HEAD, as from a git server.
git -C "$top" rev-parse HEAD > "$work/head"
git clone -q --bare "$top" "$root/srv/crk.git"
step "minimal root has no make, gcc or git" in_root '! command -v make && ! command -v gcc && ! command -v git'

cp "$work/prereq.sh" "$root/root/prereq.sh"
step "README prerequisites" in_root 'set -ex; . /root/prereq.sh'
step "git clone" in_root 'git clone -q /srv/crk.git /root/crk'
n=0
while IFS= read -r cmd; do
  [ -n "$cmd" ] || continue
  n=$((n + 1))
  printf '%s\n' "$cmd" > "$root/root/cmd$n.sh"
  step "README command $n: ${cmd%%#*}" in_root "set -e -o pipefail; cd /root/crk; . /root/cmd$n.sh"
done < "$work/commands.sh"

total=$(( $(date +%s) - t_all ))
say "transcript's last lines:"
grep -E '^(check:|CPU reference|  time:|  toolchain:|  kernels:|  library:)' "$log" | tail -n 8 | tee -a "$log" >&2
say "PASS at $(cut -c1-12 "$work/head") in ${total} s${steps}"
