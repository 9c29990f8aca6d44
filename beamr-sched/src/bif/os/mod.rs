//! The `os` module's BIFs: the environment, the OS process's pid, the OS
//! clocks (and `net_kernel:dflag_unicode_io/1`), and which OS signals are
//! told to `erl_signal_server` (`os:set_signal/2`).

pub(super) mod bifs;
pub mod set_signal;
