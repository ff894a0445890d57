#!/usr/bin/env bash
# scripts/install.sh install|uninstall — copies what `make` built into a
# tree (make install, make dist) or removes exactly those files again.
# Everything comes from the environment (mk/install.mk sets it):
#   ROOT      DESTDIR, prepended to every path below
#   LIBDIR INCLUDEDIR BINDIR MANDIR CRKDATA    absolute install paths
#   SOMAJOR SOVERSION    libcrk.so.$SOMAJOR -> libcrk.so.$SOVERSION
#   PER_ARCH  hsaco/<arch>/<module>.hsaco files; NV  hsaco/nvidia/*.fatbin
#   BUNDLES   <module>.hsaco bundles (from hsaco/ or build/compressed/)
#   PREFIX    for messages; PC_PREFIX PC_LIBDIR PC_INCLUDEDIR PC_HSACODIR: crk.pc's
#             variables (absolute, or '${pcfiledir}/../..' based for a relocatable tree)
#   RUST      the crk-kernels crate's sources (rust/crk-kernels/...), installed as
#             CRKDATA/rust/crk-kernels: its build script finds ../../hsaco by default
#   GEN COV ARCHS VERSIONS   crk-gen, to write the installed manifest.json
set -euo pipefail
mode=$1
D=${ROOT:-}
data=$D$CRKDATA/hsaco
files=(
  "$D$LIBDIR/libcrk.so.$SOVERSION" "$D$LIBDIR/libcrk.so.$SOMAJOR" "$D$LIBDIR/libcrk.so" "$D$LIBDIR/libcrk.a"
  "$D$LIBDIR/pkgconfig/crk.pc" "$D$INCLUDEDIR/crk.h" "$D$INCLUDEDIR/crk_libmoe.h" "$D$BINDIR/crk" "$D$MANDIR/man1/crk.1"
  "$data/manifest.json" "$data/manifest.rs"
)
for f in $PER_ARCH $NV; do files+=("$data/${f#hsaco/}"); done
for f in $BUNDLES; do files+=("$data/${f##*/}"); done
for f in $RUST; do files+=("$D$CRKDATA/${f}"); done

if [ "$mode" = uninstall ]; then
  rm -f "${files[@]}"
  # directories crk alone uses, if empty now
  for d in "$data"/gfx* "$data/nvidia" "$data" "$D$CRKDATA"/rust/crk-kernels/* "$D$CRKDATA"/rust/crk-kernels \
    "$D$CRKDATA/rust" "$D$CRKDATA"; do [ ! -d "$d" ] || rmdir --ignore-fail-on-non-empty "$d"; done
  echo "  UNINSTALL  ${#files[@]} files under $D$PREFIX"
  exit 0
fi

install -d "$D$LIBDIR/pkgconfig" "$D$INCLUDEDIR" "$D$BINDIR" "$D$MANDIR/man1" "$data"
install -m 644 "build/libcrk.so.$SOVERSION" build/libcrk.a "$D$LIBDIR/"
ln -sf "libcrk.so.$SOVERSION" "$D$LIBDIR/libcrk.so.$SOMAJOR"
ln -sf "libcrk.so.$SOMAJOR" "$D$LIBDIR/libcrk.so"
install -m 644 include/crk.h include/crk_libmoe.h "$D$INCLUDEDIR/"
install -m 755 build/crk "$D$BINDIR/"
install -m 644 docs/crk.1 "$D$MANDIR/man1/"
for f in $PER_ARCH $NV; do install -D -m 644 "$f" "$data/${f#hsaco/}"; done
for f in $BUNDLES; do install -m 644 "$f" "$data/"; done
install -m 644 hsaco/manifest.rs "$data/"
for f in $RUST; do install -D -m 644 "$f" "$D$CRKDATA/$f"; done
# The manifest describes the files installed (compressed bundles included).
# shellcheck disable=SC2086
"$GEN" manifest "$data" "$VERSIONS" "$COV" "$data/manifest.json" $ARCHS
cat > "$D$LIBDIR/pkgconfig/crk.pc" <<EOF
prefix=$PC_PREFIX
libdir=$PC_LIBDIR
includedir=$PC_INCLUDEDIR
# the code objects and manifest (crk_options.path; CRK_HSACO_DIR of the Rust crate)
hsacodir=$PC_HSACODIR

Name: crk
Description: Candle-compatible ROCm kernels: the libcrk loader and launcher
Version: $SOVERSION
Libs: -L\${libdir} -lcrk
Libs.private: -lzstd -lz -ldl -lpthread -lm
Cflags: -I\${includedir}
EOF
echo "  INSTALL  ${#files[@]} files under $D$PREFIX"
