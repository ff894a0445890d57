#!/usr/bin/env bash
# scripts/artifact_sizes.sh "ARCHS" "MODULES" CCOB_VERSION — bytes of every
# shipped artifact: per arch and module, the bundles plain and compressed
# (build/compressed/, make compressed), the NVIDIA build. make sizes runs it.
set -euo pipefail
read -ra archs <<< "$1"
read -ra modules <<< "$2"
ccob=$3
size() { [ -f "$1" ] && stat -c %s "$1" || echo 0; }
row() { printf '%-12s' "$1"; shift; printf ' %12s' "$@"; printf '\n'; }

echo "Code objects, bytes (hsaco/<arch>/<module>.hsaco):"
row arch "${modules[@]}" total
declare -A col
for a in "${archs[@]}"; do
  vals=() t=0
  for m in "${modules[@]}"; do
    s=$(size "hsaco/$a/$m.hsaco"); vals+=("$s"); t=$((t + s)); col[$m]=$(( ${col[$m]:-0} + s ))
  done
  row "$a" "${vals[@]}" "$t"
done
vals=() t=0
for m in "${modules[@]}"; do vals+=("${col[$m]}"); t=$((t + col[$m])); done
row "all archs" "${vals[@]}" "$t"

echo
echo "Bundles, bytes (hsaco/<module>.hsaco vs build/compressed/<module>.hsaco, CCOB v$ccob zstd):"
row module plain compressed saved ratio
tp=0 tc=0
for m in "${modules[@]}"; do
  p=$(size "hsaco/$m.hsaco") c=$(size "build/compressed/$m.hsaco")
  tp=$((tp + p)) tc=$((tc + c))
  row "$m" "$p" "$c" "$((p - c))" "$([ "$c" -gt 0 ] && awk "BEGIN{printf \"%.1fx\", $p/$c}" || echo -)"
done
row total "$tp" "$tc" "$((tp - tc))" "$([ "$tc" -gt 0 ] && awk "BEGIN{printf \"%.1fx\", $tp/$tc}" || echo -)"

if ls hsaco/nvidia/*.fatbin > /dev/null 2>&1; then
  echo
  echo "NVIDIA build, bytes (hsaco/nvidia/<module>.fatbin):"
  t=0
  for m in "${modules[@]}"; do s=$(size "hsaco/nvidia/$m.fatbin"); t=$((t + s)); row "$m" "$s"; done
  row total "$t"
fi
