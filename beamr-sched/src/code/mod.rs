//! Loaded code: the code server (which modules are loaded, a current and an
//! old version of each, where to find modules not loaded yet, which module
//! an instruction address belongs to) and the call resolver (what a call of
//! `M:F/A` runs).

pub mod embedded;
mod path;
mod preloaded;
mod registry;
pub mod resolve;

pub use path::{
    erts_version, otp_lib_dirs, otp_release, otp_root, CodePath, DEFAULT_ERTS_VERSION,
    DEFAULT_OTP_RELEASE,
};
pub use preloaded::{is_preloaded, preloaded};
pub use registry::{
    runs_code, BadfileCause, CodeServer, DeleteOutcome, LoadFailure, LoadOutcome, Origin,
};
pub use resolve::Callee;
