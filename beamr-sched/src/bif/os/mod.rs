//! The `os` module's BIFs: the environment, the OS process's pid, the OS
//! clocks (and `net_kernel:dflag_unicode_io/1`).

pub(super) mod bifs;
