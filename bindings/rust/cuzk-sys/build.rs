// Generates the Rust declarations of the cuzk C ABI at build time by running
// the `bindgen` program (Debian package `bindgen`) on its two headers, cuzk.h
// (the core) and cuzk_filecoin.h (Filecoin's PoRep C2, PoSt and SnapDeals),
// through a wrapper header that includes both, and links libcuzk.so. Both are
// found through `pkg-config cuzk-capi` (the installed cuzk-capi.pc, or a
// build tree's cuzk-capi-uninstalled.pc: put its <build>/pkgconfig in
// PKG_CONFIG_PATH).
//
// Environment (each overrides what pkg-config says):
//   CUZK_INCLUDE_DIR  the folder holding cuzk.h and cuzk_filecoin.h
//   CUZK_LIB_DIR      the folder holding libcuzk.so
//   BINDGEN           the bindgen program (default: `bindgen` on PATH)
//   PKG_CONFIG        the pkg-config program (default: `pkg-config`)
//
// Only the standard library is used, so the crate builds with
// `cargo build --offline` and with Debian's rustc 1.63. The library is not
// given an rpath (a build script's link arguments do not reach the crates
// that depend on it): with a library outside the loader's path, run with
// LD_LIBRARY_PATH or build with RUSTFLAGS="-C link-arg=-Wl,-rpath,<libdir>".
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn pkg_config(args: &[&str]) -> Option<String> {
    let prog = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    match Command::new(&prog).args(args).arg("cuzk-capi").output() {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).trim().to_string()),
        Ok(out) => {
            println!(
                "cargo:warning=cuzk-sys: `{} {} cuzk-capi` failed: {}",
                prog,
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            );
            None
        }
        Err(e) => {
            println!("cargo:warning=cuzk-sys: could not run `{}` ({}): install the Debian package pkg-config", prog, e);
            None
        }
    }
}

fn main() {
    for v in ["CUZK_LIB_DIR", "CUZK_INCLUDE_DIR", "BINDGEN", "PKG_CONFIG", "PKG_CONFIG_PATH"] {
        println!("cargo:rerun-if-env-changed={}", v);
    }
    println!("cargo:rerun-if-changed=build.rs");

    // ---- where the headers and libcuzk.so are -----------------------------------
    let (mut include_dirs, mut lib_dirs, mut libs) = (Vec::new(), Vec::new(), Vec::new());
    match env::var_os("CUZK_INCLUDE_DIR") {
        Some(d) => include_dirs.push(PathBuf::from(d)),
        None => {
            if let Some(flags) = pkg_config(&["--cflags-only-I"]) {
                include_dirs.extend(flags.split_whitespace().filter_map(|f| f.strip_prefix("-I")).map(PathBuf::from));
            }
        }
    }
    match env::var_os("CUZK_LIB_DIR") {
        Some(d) => {
            lib_dirs.push(PathBuf::from(d));
            libs.push("cuzk".to_string());
        }
        None => {
            if let Some(flags) = pkg_config(&["--libs"]) {
                for f in flags.split_whitespace() {
                    if let Some(d) = f.strip_prefix("-L") {
                        lib_dirs.push(PathBuf::from(d));
                    } else if let Some(l) = f.strip_prefix("-l") {
                        libs.push(l.to_string());
                    } // other flags (an uninstalled .pc's rpath) cannot reach the dependents
                }
            }
        }
    }
    let find_header = |name: &str| {
        include_dirs.iter().map(|d| d.join(name)).find(|h| h.is_file()).unwrap_or_else(|| {
            panic!(
                "cuzk-sys: {} not found (include folders {:?}): install cuzk and its cuzk-capi.pc \
                 (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig or <build>/pkgconfig), or set CUZK_INCLUDE_DIR and CUZK_LIB_DIR",
                name, include_dirs
            )
        })
    };
    let header = find_header("cuzk.h");
    let header_filecoin = find_header("cuzk_filecoin.h");
    if libs.is_empty() {
        panic!("cuzk-sys: no library to link: pkg-config cuzk-capi gave no -l flag; set CUZK_LIB_DIR to the folder of libcuzk.so");
    }
    println!("cargo:rerun-if-changed={}", header.display());
    println!("cargo:rerun-if-changed={}", header_filecoin.display());

    // ---- bindings -----------------------------------------------------------------
    // One bindgen input: a wrapper that includes both headers (as found).
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let wrapper = out_dir.join("cuzk_sys_wrapper.h");
    let wrapper_text = format!(
        "/* Written by cuzk-sys's build script: the C ABI's two headers, for bindgen. */\n\
         #include \"{}\"\n#include \"{}\"\n",
        header.display(),
        header_filecoin.display()
    );
    std::fs::write(&wrapper, wrapper_text)
        .unwrap_or_else(|e| panic!("cuzk-sys: could not write {}: {}", wrapper.display(), e));
    let out = out_dir.join("bindings.rs");
    let bindgen = env::var("BINDGEN").unwrap_or_else(|_| "bindgen".to_string());
    let mut cmd = Command::new(&bindgen);
    cmd.arg(&wrapper)
        .args(["--allowlist-function", "cuzk_.*"])
        .args(["--allowlist-type", "cuzk_.*"])
        .args(["--allowlist-type", "CUZK_.*"])
        .args(["--allowlist-var", "CUZK_.*"])
        .arg("--no-layout-tests")
        .arg("--no-prepend-enum-name") // CUZK_OK, not cuzk_status_code_CUZK_OK
        .arg("-o")
        .arg(&out)
        .arg("--")
        .arg("-std=c99");
    for d in &include_dirs {
        cmd.arg(format!("-I{}", d.display()));
    }
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("cuzk-sys: `{} {}` failed ({})", bindgen, wrapper.display(), s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "cuzk-sys: the `{}` program was not found: install the Debian package `bindgen` \
             (scripts/setup.sh installs it) or set BINDGEN to its path",
            bindgen
        ),
        Err(e) => panic!("cuzk-sys: could not run `{}`: {}", bindgen, e),
    }

    // ---- linking (propagates to every crate that depends on this one) ----------
    for d in &lib_dirs {
        println!("cargo:rustc-link-search=native={}", d.display());
    }
    for l in &libs {
        println!("cargo:rustc-link-lib=dylib={}", l);
    }
    // For dependents' build scripts: DEP_CUZK_INCLUDE, DEP_CUZK_LIBDIR.
    if let Some(d) = header.parent() {
        println!("cargo:include={}", d.display());
    }
    if let Some(d) = lib_dirs.first() {
        println!("cargo:libdir={}", d.display());
    }
}
