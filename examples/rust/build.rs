// Generates the Rust declarations of the cuzk C ABI at build time by running
// the `bindgen` program (Debian package `bindgen`) on capi/cuzk.h, and links
// libcuzk.so.
//
// Environment:
//   CUZK_LIB_DIR      the folder holding libcuzk.so (required; also put in the
//                     program's rpath so it runs without LD_LIBRARY_PATH)
//   CUZK_INCLUDE_DIR  the folder holding cuzk.h (default: ../../capi, i.e. the
//                     repository's capi/ folder)
//   BINDGEN           the bindgen program (default: `bindgen` on PATH)
//
// Only the standard library is used, so the crate builds with
// `cargo build --offline` and with Debian's rustc 1.63.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let include_dir = match env::var_os("CUZK_INCLUDE_DIR") {
        Some(d) => PathBuf::from(d),
        None => manifest_dir.join("..").join("..").join("capi"),
    };
    let header = include_dir.join("cuzk.h");
    if !header.is_file() {
        panic!(
            "cuzk-host: the C ABI header {} does not exist (set CUZK_INCLUDE_DIR to the folder holding cuzk.h)",
            header.display()
        );
    }
    println!("cargo:rerun-if-changed={}", header.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CUZK_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CUZK_INCLUDE_DIR");
    println!("cargo:rerun-if-env-changed=BINDGEN");

    // ---- bindings ------------------------------------------------------------
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("bindings.rs");
    let bindgen = env::var("BINDGEN").unwrap_or_else(|_| "bindgen".to_string());
    let result = Command::new(&bindgen)
        .arg(&header)
        .args(["--allowlist-function", "cuzk_.*"])
        .args(["--allowlist-type", "cuzk_.*"])
        .args(["--allowlist-type", "CUZK_.*"])
        .args(["--allowlist-var", "CUZK_.*"])
        .arg("--no-layout-tests")
        .arg("--no-prepend-enum-name") // CUZK_OK, not cuzk_status_code_CUZK_OK
        .arg("-o")
        .arg(&out)
        .arg("--")
        .arg("-std=c99")
        .arg(format!("-I{}", include_dir.display()))
        .status();
    match result {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("cuzk-host: `{} {}` failed ({})", bindgen, header.display(), s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "cuzk-host: the `{}` program was not found: install the Debian package `bindgen` \
             (scripts/setup.sh installs it) or set BINDGEN to its path",
            bindgen
        ),
        Err(e) => panic!("cuzk-host: could not run `{}`: {}", bindgen, e),
    }

    // ---- linking -------------------------------------------------------------
    let lib_dir = match env::var("CUZK_LIB_DIR") {
        Ok(d) if !d.is_empty() => PathBuf::from(d),
        _ => panic!(
            "cuzk-host: set CUZK_LIB_DIR to the folder holding libcuzk.so \
             (<build>/capi after `cmake --build <build> --target cuzk_capi`)"
        ),
    };
    if !lib_dir.join("libcuzk.so").exists() {
        println!(
            "cargo:warning=cuzk-host: {} does not hold libcuzk.so; linking will fail",
            lib_dir.display()
        );
    }
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=dylib=cuzk");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib_dir.display());
}
