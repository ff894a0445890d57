//! Every kernel of the manifest is a function in its module's code object,
//! for every shipped arch, and nothing else is (parsed here, no GPU).
use crk_kernels::*;
use std::collections::BTreeSet;

#[test]
fn bundles_hold_every_arch() {
    for &id in BUILT_MODULES {
        let m = id.module();
        let co = m.code_object();
        if m.is_compressed() {
            let h = bundle::ccob_header(co).expect("CCOB header");
            assert!(h.version >= 2 && h.method <= 1 && h.total_size == co.len() as u64, "{}: {:?}", m.name(), h);
            assert!(h.uncompressed_size > h.total_size, "{}: {:?}", m.name(), h);
            continue;
        }
        let es = bundle::entries(co).unwrap_or_else(|e| panic!("{}: {}", m.name(), e));
        let targets: Vec<_> = es.iter().filter_map(|e| e.target()).collect();
        assert_eq!(targets, ARCHS, "{}", m.name());
        assert!(es.iter().any(|e| e.id.starts_with("host-")), "{}: host entry", m.name());
    }
}

#[test]
fn every_kernel_resolves_for_every_arch() {
    let mut checked = 0;
    for &id in BUILT_MODULES {
        let m = id.module();
        let want: BTreeSet<&str> = m.kernels().map(|k| k.name).collect();
        for arch in ARCHS {
            let co = m.code_object_for(arch).unwrap_or_else(|| panic!("{}: no code object for {}", m.name(), arch));
            assert_eq!(elf::target(co), Ok(*arch), "{}/{}", arch, m.name());
            let have: BTreeSet<&str> = elf::kernel_symbols(co).unwrap_or_else(|e| panic!("{}/{}: {}", arch, m.name(), e)).into_iter().collect();
            let missing: Vec<_> = want.difference(&have).collect();
            let extra: Vec<_> = have.difference(&want).collect();
            assert!(missing.is_empty() && extra.is_empty(), "{}/{}: missing {:?}, not in the manifest {:?}", arch, m.name(), missing, extra);
            checked += want.len();
        }
    }
    assert_eq!(checked, KERNELS.len() * ARCHS.len());
}

#[test]
fn arch_accessor_takes_target_ids() {
    let a = ARCHS[0];
    let full = format!("{}:sramecc+:xnack-", a);
    assert_eq!(UNARY.code_object_for(&full), UNARY.code_object_for(a));
    assert!(UNARY.code_object_for("gfx000").is_none());
    assert_eq!(UNARY.code_object().as_ptr() as usize % 4096, 0);
}
