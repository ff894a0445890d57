//! Finds the artifacts `make` built (or an installed share/crk/hsaco/) and
//! writes $OUT_DIR/artifacts.rs: the bundles embedded with include_bytes!,
//! and, where the bundles are compressed (CCOB), the per-arch code objects too
//! (the crate cannot decompress without external crates).
//!
//! CRK_HSACO_DIR overrides the default, the repository's hsaco/.

use std::env;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=CRK_HSACO_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = match env::var_os("CRK_HSACO_DIR") {
        Some(d) => PathBuf::from(d),
        None => manifest_dir.join("../../hsaco"),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    let generated = dir.join("manifest.rs");
    let text = fs::read_to_string(&generated).unwrap_or_else(|e| {
        fail(&format!(
            "cannot read {} ({}).\n  Run `make` in the crk repository root (it builds the code objects and \
             hsaco/manifest.rs),\n  or set CRK_HSACO_DIR to a directory holding them (an installed one is \
             PREFIX/share/crk/hsaco).",
            generated.display(),
            e
        ))
    });
    println!("cargo:rerun-if-changed={}", generated.display());
    let modules = comment_list(&text, "// crk-modules:");
    let archs = comment_list(&text, "// crk-archs:");

    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    fs::copy(&generated, out.join("manifest.rs")).expect("copying manifest.rs to OUT_DIR");
    let mut code = format!("/// Where these artifacts were taken from at build time.\npub const HSACO_DIR: &str = {:?};\n\n", dir.display().to_string());
    let mut bundles = String::new();
    let mut per_arch = String::new();
    for m in &modules {
        let path = dir.join(format!("{}.hsaco", m));
        let compressed = match magic(&path) {
            Some(b) if &b == b"CCOB" => true,
            Some(b) if &b == b"__CL" => false,
            Some(_) => fail(&format!("{} is neither an offload bundle nor a CCOB; rebuild it with `make`", path.display())),
            None => fail(&format!(
                "{} is missing, but the op table has kernels in module '{}'.\n  Run `make` in the crk repository root.",
                path.display(),
                m
            )),
        };
        println!("cargo:rerun-if-changed={}", path.display());
        bundles.push_str(&format!("    ({:?}, {}, &Aligned(*include_bytes!({:?}))),\n", m, compressed, path.display().to_string()));
        if !compressed {
            continue; // raw code objects are slices of the plain bundle
        }
        for a in &archs {
            let p = dir.join(a).join(format!("{}.hsaco", m));
            if !p.is_file() {
                fail(&format!("{} is missing; run `make`", p.display()));
            }
            println!("cargo:rerun-if-changed={}", p.display());
            per_arch.push_str(&format!("    ({:?}, {:?}, &Aligned(*include_bytes!({:?}))),\n", m, a, p.display().to_string()));
        }
    }
    code.push_str("/// (module, compressed, bundle) for every built module.\n");
    code.push_str(&format!("pub static BUNDLES: &[(&str, bool, &Aligned<[u8]>)] = &[\n{}];\n", bundles));
    code.push_str("/// (module, arch, code object), only where the bundles are compressed.\n");
    code.push_str(&format!("pub static PER_ARCH: &[(&str, &str, &Aligned<[u8]>)] = &[\n{}];\n", per_arch));
    fs::write(out.join("artifacts.rs"), code).expect("writing artifacts.rs");
}

/// The words after `key` on its line of the generated file.
fn comment_list(text: &str, key: &str) -> Vec<String> {
    match text.lines().find(|l| l.starts_with(key)) {
        Some(l) => l[key.len()..].split_whitespace().map(String::from).collect(),
        None => fail(&format!("manifest.rs has no '{}' line: it predates this crate; run `make`", key)),
    }
}

fn magic(path: &Path) -> Option<[u8; 4]> {
    let mut b = [0u8; 4];
    fs::File::open(path).ok()?.read_exact(&mut b).ok()?;
    Some(b)
}

fn fail(msg: &str) -> ! {
    eprintln!("error: crk-kernels: {}", msg);
    panic!("crk-kernels: {}", msg);
}
