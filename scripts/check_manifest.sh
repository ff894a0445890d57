#!/usr/bin/env bash
# check_manifest.sh — hsaco/manifest.json agrees with the files and the registry:
# every listed file exists with its size and sha256, every registry kernel is
# listed once, every arch of the build has every module.
set -euo pipefail
m=hsaco/manifest.json
fail() { echo "check_manifest: $*" >&2; exit 1; }
[ -f "$m" ] || fail "$m missing (run make)"
n=0
while read -r path size sha; do
  [ -f "hsaco/$path" ] || fail "$path listed but missing"
  [ "$(stat -c %s "hsaco/$path")" = "$size" ] || fail "$path: size differs from the manifest"
  [ "$(sha256sum "hsaco/$path" | cut -d' ' -f1)" = "$sha" ] || fail "$path: sha256 differs from the manifest"
  n=$((n+1))
done < <(grep -o '"path": "[^"]*", "size": [0-9]*, "sha256": "[0-9a-f]*"' "$m" | sed -E 's/"path": "([^"]*)", "size": ([0-9]*), "sha256": "([0-9a-f]*)"/\1 \2 \3/')
listed=$(grep -o '^    {"name": "[^"]*", "family"' "$m" | sort -u | wc -l)
registry=$(build/crk list | wc -l)
[ "$listed" = "$registry" ] || fail "manifest lists $listed kernels, registry has $registry"
for a in "$@"; do
  for mod in $(build/crk-gen modules); do grep -q "\"path\": \"$a/$mod.hsaco\"" "$m" || fail "$a/$mod.hsaco not in the manifest"; done
done
echo "manifest: $n files verified (size, sha256), $listed kernels = registry"
