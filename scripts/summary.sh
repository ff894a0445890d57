#!/usr/bin/env bash
# summary.sh START_EPOCH "ARCHS" "MODULES" "NV_FATBINS" — the end-of-build summary.
set -euo pipefail
start=$1 archs=$2 modules=$3 nv=$4
# Archs in one order everywhere (crk show/archs/verify too): scripts/arch_order.sh
archs=$(printf '%s\n' $archs | "$(dirname "$0")/arch_order.sh" | tr '\n' ' ' | sed 's/ $//')
kernels=$(($(wc -l < build/gen/kernels.tsv) - 1))
echo
echo "crk build summary"
echo "  kernels:   $kernels per code object set ($(awk -F'\t' 'NR>1{c[$2]++} END{for(k in c) printf "%s %d, ", k, c[k]}' build/gen/kernels.tsv | sed 's/, $//'))"
echo "  archs:     $(echo $archs | wc -w) ($archs) -> $((kernels * $(echo $archs | wc -w))) kernel instances"
for a in $archs; do
  printf '    %-8s %6s KiB  (%s)\n' "$a" "$(du -ck $(for m in $modules; do echo hsaco/$a/$m.hsaco; done) | tail -1 | cut -f1)" \
    "$(for m in $modules; do printf '%s %s  ' $m $(stat -c %s hsaco/$a/$m.hsaco); done)"
done
printf '  bundles:   %s KiB (hsaco/<module>.hsaco)\n' "$(du -ck $(for m in $modules; do echo hsaco/$m.hsaco; done) | tail -1 | cut -f1)"
if [ -n "$nv" ]; then printf '  nvidia:    %s KiB (%s)\n' "$(du -ck $nv | tail -1 | cut -f1)" "$nv"
else echo "  nvidia:    skipped: nvcc not found (CUDA 12/13; NVCC=/path/to/nvcc make builds hsaco/nvidia/)"; fi
so=$(realpath build/libcrk.so) small=$(realpath build/small/libcrk.so)
echo "  library:   build/libcrk.a, build/${so##*/} ($(du -k "$so" | cut -f1) KiB, every code object embedded);"
echo "             build/small/ (${small##*/}: $(du -k "$small" | cut -f1) KiB, none embedded: open with CRK_SOURCE_DIR/BUNDLE)"
echo "  CLI:       build/crk"
echo "  manifest:  hsaco/manifest.json"
echo "  toolchain: $(tr '\n' ';' < .toolchain/versions.txt | sed 's/;$//; s/;/; /g')"
now=$(date +%s) first=$(cat build/.first-make 2>/dev/null || echo "$start")
echo "  time:      $((now - start)) s this make; $((now - first)) s since the first make of this tree ($(date -d "@$first" '+%F %T'))"
