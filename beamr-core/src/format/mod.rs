//! Printing terms exactly as Erlang/OTP 25's `io:format` does with `~w`,
//! `~tw`, `~W` ([`write_w`], [`write_with`], [`display_w`]) and `~p`,
//! `~tp`, `~P` ([`write_p`], [`format_p`]).
//!
//! Used wherever beamr shows a term to a person: disassembled literals,
//! crash reports, the CLI, trace dumps. Output is text (Rust `str`s, so
//! UTF-8); `~w` of a latin1 character such as `é` gives that character,
//! exactly as the characters `io_lib:format/2` returns.
//!
//! Files, one role each:
//! - [`write`](self::write): the one-line writer of `~w`/`~tw`/`~W`.
//! - `pretty` and `layout`: `~p`; `pretty` turns a term into OTP's
//!   intermediate form (each part's text and length, strings recognised),
//!   `layout` breaks that form across lines as `io_lib_pretty` does.
//! - `printable`: which lists and binaries `~p` shows as strings.
//! - `chars`: atom quoting and the escapes of quoted text.
//! - `float`: floats in OTP's shortest round-trip form.
//! - `number`, `binary`, `ids`: integers, binary elements, and pids,
//!   ports, refs and funs.
//!
//! Maps are written in the order of `maps:next/1` ([`crate::map::Order::Next`]),
//! as OTP's `io_lib` iterates them.

mod binary;
mod chars;
mod erts;
mod float;
mod ids;
mod layout;
mod number;
mod pretty;
mod printable;
mod write;

pub use erts::display_erts;
pub use float::write_float;
pub use pretty::{format_p, write_p, PrettyOptions};
pub use write::{display_w, display_with, write_w, write_with, DisplayW, WriteOptions};

/// The encoding a format directive works in: `~w`/`~p` are latin1,
/// `~tw`/`~tp` unicode.
///
/// Under latin1, atom characters above 255 are written as `\x{HEX}` and
/// `~p` recognises only lists of latin1 characters as strings; under
/// unicode, atoms are written as they are and `~p` recognises UTF-8
/// binaries (as `<<"é"/utf8>>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// `~w`, `~p`.
    #[default]
    Latin1,
    /// `~tw`, `~tp`.
    Unicode,
}

/// The characters `~p` accepts in a string (`io:printable_range/0`, set
/// with `erl +pc`). The default is latin1, even under `~tp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum PrintableRange {
    /// Printable ASCII, latin1 160..=255 and the usual control escapes.
    #[default]
    Latin1,
    /// Any printable Unicode character (`erl +pc unicode`).
    Unicode,
}
