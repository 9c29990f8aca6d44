//! The code server: which modules are loaded (a current and an old version
//! of each), where to find modules not loaded yet, and which module an
//! instruction address belongs to.

pub mod embedded;
mod path;
mod registry;

pub use path::{otp_lib_dirs, CodePath};
pub use registry::{runs_code, CodeServer, DeleteOutcome, LoadFailure, LoadOutcome, Origin};
