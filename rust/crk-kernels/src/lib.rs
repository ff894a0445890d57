//! crk's precompiled AMD GPU kernels for Candle, shaped like `candle-kernels`
//! 0.11: the same `Id`, `ALL_IDS` and module constants (`UNARY`, ...), where
//! Candle's `ptx()` becomes [`Module::code_object`], the module's clang
//! offload bundle with a code object for every shipped arch
//! (`hipModuleLoadData` picks the device's). Kernels inside have Candle's
//! names and parameter lists; [`KERNELS`] lists them all.
//!
//! ```
//! let co: &'static [u8] = crk_kernels::UNARY.code_object(); // was: UNARY.ptx()
//! assert_eq!(crk_kernels::UNARY.index(), crk_kernels::Id::Unary as usize);
//! assert!(crk_kernels::kernel("uexp_f32").is_some() && !co.is_empty());
//! ```
//!
//! Modules crk does not build yet (see [`BUILT_MODULES`]) have an empty
//! code object and no kernels: [`Module::is_available`] says which.

pub mod bundle;
pub mod elf;
mod manifest;

pub use manifest::{kernel, ArgKind, Kernel, Param, Role};
pub use manifest::{ARCHS, BUILT_MODULES, CANDLE_VERSION, CODE_OBJECT_VERSION, KERNELS, MODULE_NAMES};

/// Candle's kernel modules, in Candle's order (`candle_kernels::Id`).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Id {
    Affine,
    Binary,
    Cast,
    Conv,
    Fill,
    Indexing,
    Quantized,
    Reduce,
    Sort,
    Ternary,
    Unary,
}

pub const ALL_IDS: [Id; 11] = [
    Id::Affine,
    Id::Binary,
    Id::Cast,
    Id::Conv,
    Id::Fill,
    Id::Indexing,
    Id::Quantized,
    Id::Reduce,
    Id::Sort,
    Id::Ternary,
    Id::Unary,
];

/// Bytes aligned for a code object loader (ELF wants at least 8; a page is safe).
#[repr(C, align(4096))]
#[doc(hidden)]
pub struct Aligned<B: ?Sized>(pub B);

mod artifacts {
    use super::Aligned;
    include!(concat!(env!("OUT_DIR"), "/artifacts.rs"));
}
/// The directory the code objects were embedded from (build time).
pub use artifacts::HSACO_DIR;

/// One Candle module: one code object per arch, bundled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Module {
    index: usize,
}

impl Module {
    /// Position in [`ALL_IDS`], as Candle's `Module::index`.
    pub fn index(&self) -> usize {
        self.index
    }

    pub fn id(&self) -> Id {
        ALL_IDS[self.index]
    }

    /// Candle's module name: "unary", "cast", ...
    pub fn name(&self) -> &'static str {
        MODULE_NAMES[self.index]
    }

    fn bundle(&self) -> Option<&'static (&'static str, bool, &'static Aligned<[u8]>)> {
        artifacts::BUNDLES.iter().find(|b| b.0 == self.name())
    }

    /// The module's offload bundle, every shipped arch in one image: pass it
    /// to `hipModuleLoadData` in place of Candle's `ptx()`. Compressed (CCOB)
    /// when CRK_HSACO_DIR names a tree installed with `make COMPRESS=1
    /// install`; HIP loads both. Empty when this build has no kernels in the
    /// module ([`Module::is_available`]).
    pub fn code_object(&self) -> &'static [u8] {
        self.bundle().map_or(&[], |b| &b.2 .0)
    }

    /// Whether this build ships kernels for the module.
    pub fn is_available(&self) -> bool {
        self.bundle().is_some()
    }

    /// Whether [`Module::code_object`] is a compressed bundle (CCOB).
    pub fn is_compressed(&self) -> bool {
        self.bundle().map_or(false, |b| b.1)
    }

    /// The raw AMDGPU code object (ELF) for one arch: `"gfx90a"` or a full
    /// target ID (`"gfx90a:sramecc+:xnack-"`, matched on its processor).
    /// None if the module or the arch is not shipped.
    pub fn code_object_for(&self, arch: &str) -> Option<&'static [u8]> {
        let proc_ = arch.split(':').next().unwrap_or(arch);
        let (_, compressed, b) = self.bundle()?;
        if !*compressed {
            return bundle::find(&b.0, proc_);
        }
        let e = artifacts::PER_ARCH.iter().find(|e| e.0 == self.name() && e.1 == proc_)?;
        Some(&e.2 .0)
    }

    /// The module's kernels (empty when it is not available).
    pub fn kernels(&self) -> impl Iterator<Item = &'static Kernel> {
        let id = self.id();
        KERNELS.iter().filter(move |k| k.module == id)
    }
}

const fn module_index(id: Id) -> usize {
    let mut i = 0;
    while i < ALL_IDS.len() {
        if ALL_IDS[i] as u32 == id as u32 {
            return i;
        }
        i += 1;
    }
    panic!("id not found")
}

macro_rules! mdl {
    ($cst:ident, $id:ident) => {
        pub const $cst: Module = Module { index: module_index(Id::$id) };
    };
}

mdl!(AFFINE, Affine);
mdl!(BINARY, Binary);
mdl!(CAST, Cast);
mdl!(CONV, Conv);
mdl!(FILL, Fill);
mdl!(INDEXING, Indexing);
mdl!(QUANTIZED, Quantized);
mdl!(REDUCE, Reduce);
mdl!(SORT, Sort);
mdl!(TERNARY, Ternary);
mdl!(UNARY, Unary);

impl Id {
    /// The module constant of this id (`Id::Unary.module() == UNARY`).
    pub const fn module(self) -> Module {
        Module { index: module_index(self) }
    }
}
