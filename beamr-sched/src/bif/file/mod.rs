//! Files: `prim_file`'s NIFs (under OTP's `file`, `filelib` and file io
//! servers), `prim_buffer` (its read-ahead buffers) and
//! `erl_prim_loader`'s file reading.

pub(super) mod erl_prim_loader;
pub(super) mod prim_buffer;
pub(super) mod prim_file;
