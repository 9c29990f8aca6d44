//! Ports: OS programs (and the runtime's own file descriptors) that
//! processes talk to through messages.
//!
//! - [`options`]: `open_port/2`'s arguments.
//! - [`open`](mod@open): starting the program, the writer thread, the port table entry.
//! - [`reader`]: the thread turning the program's output into messages.
//! - [`framing`]: `stream`, `{line, N}` and `{packet, N}`.
//! - [`fd`]: the descriptors of an `{fd, In, Out}` port, and
//!   [`fd_writer`], its output, written as it is given.
//! - [`errno`]: the atoms of OS errors, for ports and `prim_file`.
//! - [`builtin`]: ports whose other side is a driver built into the
//!   runtime: [`trace_file`] and [`trace_ip`], erts's trace port drivers,
//!   [`ram_file`], its RAM file driver, and [`tty_sl`], its terminal
//!   driver for the interactive shell.
//! - [`terminal`]: the terminal's raw mode and size, for `tty_sl` and the
//!   prim_tty NIF.
//!
//! The port's state (owner, links, monitors) is `runtime::PortTable`'s;
//! its messages and exit signals go through `signals::port`, like every
//! signal.

pub mod builtin;
pub mod errno;
pub mod fd;
pub mod fd_writer;
pub mod framing;
pub mod inet;
pub mod open;
pub mod options;
pub mod ram_file;
pub mod reader;
pub mod terminal;
pub mod trace_file;
pub mod trace_ip;
pub mod tty_sl;

pub use errno::errno_name;
pub use open::open;
pub use options::{parse, PortName, PortOptions};
