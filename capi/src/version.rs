//! Version numbers and build features, in the header and at run time.
//!
//! The macros tell a C program which header it was compiled against; the functions tell it
//! which library it runs with. A program should check that `pn_abi_version()` equals
//! `PN_ABI_VERSION` before anything else.

use core::ffi::c_char;

use crate::boundary::guard_value;

/// Major version of the library (the crate's version).
pub const PN_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const PN_VERSION_MINOR: u32 = 1;
/// Patch version of the library.
pub const PN_VERSION_PATCH: u32 = 0;
/// `MAJOR * 10000 + MINOR * 100 + PATCH`, as `pn_version()` returns it.
pub const PN_VERSION_NUMBER: u32 =
    PN_VERSION_MAJOR * 10000 + PN_VERSION_MINOR * 100 + PN_VERSION_PATCH;
/// Version of the binary interface: bumped whenever a struct, a signature or a constant
/// changes incompatibly.
pub const PN_ABI_VERSION: u32 = 1;

/// `pn_features()` bit: built with the `std` feature.
pub const PN_FEATURE_STD: u32 = 1;
/// `pn_features()` bit: the parallel calls work (otherwise they return
/// `PN_STATUS_UNSUPPORTED`).
pub const PN_FEATURE_PARALLEL: u32 = 2;
/// `pn_features()` bit: the best-first engines `PN_ENGINE_PNS` and `PN_ENGINE_PN2` are built
/// in (the `pns` feature, a default one; bare-metal builds made with `--no-default-features`
/// leave them out unless they add it). Without it a config asking for them gives
/// `PN_STATUS_UNSUPPORTED`.
pub const PN_FEATURE_PNS: u32 = 4;
/// `pn_features()` bit: error messages name what was wrong (the `messages` feature, a default
/// one): `pn_solver_last_error` and `pn_config_error` say which field, argument or callback,
/// with its value. Without it they give each status's fixed description.
pub const PN_FEATURE_MESSAGES: u32 = 8;

/// The library's version as `MAJOR * 10000 + MINOR * 100 + PATCH`.
#[unsafe(no_mangle)]
pub extern "C" fn pn_version() -> u32 {
    PN_VERSION_NUMBER
}

/// The library's ABI version; compare with `PN_ABI_VERSION`.
#[unsafe(no_mangle)]
pub extern "C" fn pn_abi_version() -> u32 {
    PN_ABI_VERSION
}

/// The library's version as a static string, such as "0.1.0".
#[unsafe(no_mangle)]
pub extern "C" fn pn_version_string() -> *const c_char {
    guard_value(c"".as_ptr(), || VERSION_STRING.as_ptr())
}

/// The `PN_FEATURE_*` bits of this build.
#[unsafe(no_mangle)]
pub extern "C" fn pn_features() -> u32 {
    let std = if cfg!(feature = "std") {
        PN_FEATURE_STD
    } else {
        0
    };
    let parallel = if crate::parallel::AVAILABLE {
        PN_FEATURE_PARALLEL
    } else {
        0
    };
    let pns = if cfg!(feature = "pns") {
        PN_FEATURE_PNS
    } else {
        0
    };
    let messages = if cfg!(feature = "messages") {
        PN_FEATURE_MESSAGES
    } else {
        0
    };
    std | parallel | pns | messages
}

const VERSION_STRING: &core::ffi::CStr = c"0.1.0";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_follow_the_crate_version() {
        let version = env!("CARGO_PKG_VERSION");
        let expected = std::format!("{PN_VERSION_MAJOR}.{PN_VERSION_MINOR}.{PN_VERSION_PATCH}");
        assert_eq!(version, expected);
        assert_eq!(VERSION_STRING.to_str().unwrap(), version);
        assert_eq!(
            env!("CARGO_PKG_VERSION_MAJOR"),
            std::format!("{PN_VERSION_MAJOR}")
        );
        assert_eq!(pn_version(), 100);
    }
}
