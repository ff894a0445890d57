//! The module API matches candle-kernels 0.11: ids, order, indices, names.
use crk_kernels::*;

/// candle-kernels 0.11's `Id` order, by name.
const CANDLE_ORDER: [&str; 11] =
    ["affine", "binary", "cast", "conv", "fill", "indexing", "quantized", "reduce", "sort", "ternary", "unary"];

#[test]
fn indices_match_candle() {
    let consts = [AFFINE, BINARY, CAST, CONV, FILL, INDEXING, QUANTIZED, REDUCE, SORT, TERNARY, UNARY];
    for (i, m) in consts.iter().enumerate() {
        assert_eq!(m.index(), i);
        assert_eq!(ALL_IDS[i] as usize, i);
        assert_eq!(m.id(), ALL_IDS[i]);
        assert_eq!(ALL_IDS[i].module(), *m);
        assert_eq!(m.name(), CANDLE_ORDER[i]);
    }
    assert_eq!(MODULE_NAMES, CANDLE_ORDER);
    assert_eq!(Id::Unary as u32, 10);
    assert_eq!(Id::Affine as u32, 0);
}

#[test]
fn built_modules_have_code_and_kernels() {
    for id in ALL_IDS {
        let m = id.module();
        let built = BUILT_MODULES.contains(&id);
        assert_eq!(m.is_available(), built, "{}", m.name());
        assert_eq!(m.kernels().next().is_some(), built, "{}: kernels iff built", m.name());
        assert_eq!(m.code_object().is_empty(), !built, "{}", m.name());
        if !built {
            assert_eq!(m.code_object_for(ARCHS[0]), None);
        }
    }
    // the families shipped today, at least
    for m in [AFFINE, BINARY, CAST, FILL, TERNARY, UNARY] {
        assert!(m.is_available(), "{} must be built", m.name());
    }
}

#[test]
fn kernel_lookup_and_params() {
    let k = kernel("uexp_f32").expect("uexp_f32");
    assert_eq!((k.module, k.family, k.dtypes), (Id::Unary, "unary", &["f32"][..]));
    let names: Vec<_> = k.params.iter().map(|p| p.name).collect();
    assert_eq!(names, ["numel", "num_dims", "info", "inp", "out"]);
    assert_eq!(k.params[3].ctype, "const float *");
    assert_eq!((k.params[3].kind, k.params[3].role, k.params[3].size), (ArgKind::Pointer, Role::Input, 8));
    let w = kernel("where_u8_bf16").expect("where_u8_bf16");
    assert_eq!(w.module, Id::Ternary);
    assert_eq!(w.params.iter().filter(|p| p.role == Role::Input).map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2]);
    let a = kernel("affine_f16").expect("affine_f16");
    assert_eq!(a.params[5].ctype, "const __half");
    assert_eq!((a.params[5].role, a.params[5].size), (Role::Scalar, 2));
    assert_eq!(kernel("uexp_f8e4m3").unwrap().alias_of, Some("uexp_fp8_e4m3"));
    assert_eq!(kernel("copy2d_f32").unwrap().module, Id::Fill);
    assert_eq!(kernel("lt_bf16").unwrap().module, Id::Binary);
    assert!(kernel("uexp_f31").is_none());
}

#[test]
fn kernel_names_are_unique() {
    let mut names: Vec<_> = KERNELS.iter().map(|k| k.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), KERNELS.len());
}

/// The generated constants and manifest.json come from the same op table
/// and the same make run.
#[test]
fn agrees_with_manifest_json() {
    let path = std::path::Path::new(HSACO_DIR).join("manifest.json");
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {} (make writes it)", path.display(), e));
    assert_eq!(json.matches("\"alias_of\":").count(), KERNELS.len());
    for k in KERNELS.iter() {
        assert!(json.contains(&format!("{{\"name\": \"{}\", \"family\": \"{}\", \"module\": \"{}\"", k.name, k.family, k.module.module().name())), "{}", k.name);
    }
    let archs = ARCHS.iter().map(|a| format!("\"{}\"", a)).collect::<Vec<_>>().join(", ");
    assert!(json.contains(&format!("\"archs\": [{}]", archs)));
}
