//! Raw declarations of the cuzk C ABI (`cuzk.h`, the core, and
//! `cuzk_filecoin.h`, Filecoin's PoRep C2, PoSt and SnapDeals), made at build
//! time by the `bindgen` program, and the link to `libcuzk.so` (found through
//! `pkg-config cuzk-capi`; see the build script). Everything here is
//! `unsafe` and follows the headers' contracts; the `cuzk` crate is the safe
//! API over it.
//!
//! The crate is written for the C ABI version [`ABI_VERSION`]: it does not
//! compile against a `cuzk.h` of another version. The library loaded at run
//! time may still differ; compare [`cuzk_abi_version`] with
//! [`ABI_VERSION`] before use (the `cuzk` crate does this).
#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case)]
#![allow(clippy::all)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// The C ABI version (`CUZK_ABI_VERSION`) these declarations are written for.
pub const ABI_VERSION: u32 = 2;

// A cuzk.h of another ABI version is refused at compile time.
const _: () = assert!(
    CUZK_ABI_VERSION == ABI_VERSION,
    "cuzk-sys is written for cuzk C ABI 2, but the cuzk.h found has another CUZK_ABI_VERSION: use the binding of your cuzk"
);
