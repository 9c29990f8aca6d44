//! The `code` module's functions beamr runs natively (it has no
//! `code_server` process) over `crate::code`'s code server: hot code
//! loading and purging with the `erlang` BIFs under it (`loading`),
//! `ensure_loaded` and `where_is_file` (`ensure_loaded`), a module's MD5
//! (`md5`), and `erlang:load_nif/2` (`load_nif`).

pub(super) mod ensure_loaded;
pub(super) mod load_nif;
pub(super) mod loading;
pub(super) mod md5;
