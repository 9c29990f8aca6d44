//! OTP's `re` module: regular expressions with PCRE semantics on PCRE2.
//!
//! `translate` turns a pattern and its options into PCRE2 pattern text,
//! `engine` compiles (with a cache) and matches, `options` reads option
//! lists, `capture` builds what a match reports, `global` is the
//! `global` loop, `pattern_term` the compiled-pattern term, and `run` the
//! BIFs themselves.

mod capture;
mod engine;
mod errors;
mod global;
mod latin1;
mod options;
mod pattern_term;
mod pcre8_syntax;
mod run;
mod translate;

pub(crate) use run::BIFS;
