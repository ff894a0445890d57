#!/usr/bin/env bash
# arch_order.sh — AMD targets on stdin (one a line) in the one arch order
# (crk show/archs/verify: cli_arch_cmp in cli/util.c): exact targets
# first, shorter names first, then alphabetical (gfx908 gfx90a gfx942 ...
# gfx1030 gfx1100 ...); then generic targets by family (gfx9-generic
# gfx10-1-generic gfx10-3-generic gfx11-generic gfx12-generic).
set -euo pipefail
names=$(cat)
grep -v -- '-generic' <<< "$names" | awk 'NF {print length($0), $0}' | sort -k1,1n -k2,2 | cut -d' ' -f2
grep -- '-generic' <<< "$names" | sort -V || true
