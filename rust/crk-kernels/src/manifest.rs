//! The manifest: every kernel with its Candle name, module and typed
//! parameter list. The data is generated from crk's op table
//! (gen/optable.c, `crk-gen rust` writes hsaco/manifest.rs); this file only
//! defines its types and lookups.

use crate::Id;

/// How a parameter is passed (libcrk's `crk_arg_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// A `size_t` by value (numel, num_dims).
    Size,
    /// A device pointer.
    Pointer,
    /// A scalar by value, of the parameter's C type.
    Scalar,
}

/// What a parameter is for (libcrk's `crk_param_role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Element count.
    Numel,
    /// Rank of the info buffer's layouts.
    NumDims,
    /// Candle's info buffer (`SlicePtrOrNull`): dims, then strides.
    Info,
    /// A read-only tensor (`index` numbers the inputs).
    Input,
    /// The written tensor.
    Output,
    /// A by-value scalar (`index` numbers the scalars).
    Scalar,
}

/// One kernel parameter, as in Candle's CUDA source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    /// C type as in Candle's source, e.g. `"const float *"`.
    pub ctype: &'static str,
    pub kind: ArgKind,
    /// Bytes in the kernel argument buffer.
    pub size: u8,
    pub role: Role,
    /// Which input or scalar this is (roles Input, Scalar), else 0.
    pub index: u8,
}

/// One kernel of the shipped code objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    /// The exact symbol, e.g. `"uexp_f32"`.
    pub name: &'static str,
    /// crk's family ("unary", "cmp", "const_set", ...); several may share a module.
    pub family: &'static str,
    /// The Candle module whose code object holds it.
    pub module: Id,
    /// The dtypes in the name (`DType::as_str`): unary `[T]`, cast `[S, D]`, where `[C, T]`.
    pub dtypes: &'static [&'static str],
    /// This exact name exists in Candle 0.11's CUDA kernels.
    pub upstream: bool,
    /// The other fp8 spelling of the same kernel (`uexp_f8e4m3` / `uexp_fp8_e4m3`).
    pub alias_of: Option<&'static str>,
    /// The info buffer holds dims plus `info_arrays - 1` stride sets.
    pub info_arrays: u8,
    pub params: &'static [Param],
}

mod generated {
    use super::{ArgKind, Id, Kernel, Param, Role};
    include!(concat!(env!("OUT_DIR"), "/manifest.rs"));
}
pub use generated::{ARCHS, BUILT_MODULES, CANDLE_VERSION, CODE_OBJECT_VERSION, KERNELS, MODULE_NAMES};

/// The kernel named `name` (exact Candle name), if this build ships it.
pub fn kernel(name: &str) -> Option<&'static Kernel> {
    KERNELS.iter().find(|k| k.name == name)
}
