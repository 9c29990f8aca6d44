//! The option list of `re:compile/2` and `re:run/3`, read as the BEAM's
//! `parse_options` reads it: compile options, match options, and which
//! kinds were present (a compiled pattern refuses compile options,
//! `re:compile` refuses match options).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::translate::{Bsr, CompileOptions, MatchVariant, Newline};

/// A parsed option list.
#[derive(Clone, Debug, Default)]
pub(super) struct Options {
    /// The compile options.
    pub compile: CompileOptions,
    /// The match options expressed as a pattern variant.
    pub variant: MatchVariant,
    /// A compile-only option was given (`caseless`, `unicode`, ...).
    pub has_compile_opt: bool,
    /// A match-only option was given (`global`, `{offset, N}`, ...).
    pub has_exec_opt: bool,
    /// `{offset, N}`.
    pub offset: usize,
    /// `{capture, Values}` or `{capture, Values, Type}` (Type `index` if
    /// not given).
    pub capture: Option<(Term, Term)>,
    /// `global`.
    pub global: bool,
    /// `report_errors`.
    pub report_errors: bool,
}

fn non_neg_int(t: Term) -> Option<u32> {
    t.as_small()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n <= i32::MAX as u32)
}

/// Parses `list`; `None` for anything the BEAM rejects (`badopt`).
pub(super) fn parse(list: Term) -> Option<Options> {
    let mut o = Options::default();
    let mut rest = list;
    while let Some((item, tail)) = rest.as_cons() {
        rest = tail;
        if let Some(t) = item.as_tuple() {
            let tag = t.first().and_then(|a| a.as_atom()).map(Atom::name);
            match (t.len(), tag) {
                (3, Some("capture")) => {
                    o.capture = Some((t[1], t[2]));
                    o.has_exec_opt = true;
                }
                (2, Some("capture")) => {
                    o.capture = Some((t[1], Term::atom(Atom::new("index").ok()?)));
                    o.has_exec_opt = true;
                }
                (2, Some("offset")) => {
                    o.offset = non_neg_int(t[1])? as usize;
                    o.has_exec_opt = true;
                }
                (2, Some("match_limit")) => {
                    o.variant.match_limit = Some(non_neg_int(t[1])?);
                    o.has_exec_opt = true;
                }
                (2, Some("match_limit_recursion")) => {
                    o.variant.depth_limit = Some(non_neg_int(t[1])?);
                    o.has_exec_opt = true;
                }
                (2, Some("newline")) => {
                    o.compile.newline = Some(match t[1].as_atom().map(Atom::name)? {
                        "cr" => Newline::Cr,
                        "lf" => Newline::Lf,
                        "crlf" => Newline::Crlf,
                        "anycrlf" => Newline::AnyCrlf,
                        "any" => Newline::Any,
                        "nul" => Newline::Nul,
                        _ => return None,
                    });
                }
                _ => return None,
            }
            continue;
        }
        let c = &mut o.compile;
        let v = &mut o.variant;
        let mut compile = true;
        match item.as_atom().map(Atom::name)? {
            "anchored" => {
                c.anchored = true;
                v.anchored = true;
                continue;
            }
            "bsr_anycrlf" => {
                c.bsr = Some(Bsr::AnyCrlf);
                continue;
            }
            "bsr_unicode" => {
                c.bsr = Some(Bsr::Unicode);
                continue;
            }
            "notempty" => v.notempty = true,
            "notempty_atstart" => v.notempty_atstart = true,
            "notbol" => v.notbol = true,
            "noteol" => v.noteol = true,
            "report_errors" => o.report_errors = true,
            "global" => o.global = true,
            "no_start_optimize" => c.no_start_optimize = true,
            "caseless" => c.caseless = true,
            "dollar_endonly" => c.dollar_endonly = true,
            "dotall" => c.dotall = true,
            "extended" => c.extended = true,
            "firstline" => c.firstline = true,
            "multiline" => c.multiline = true,
            "no_auto_capture" => c.no_auto_capture = true,
            "dupnames" => c.dupnames = true,
            "ungreedy" => c.ungreedy = true,
            "ucp" => c.ucp = true,
            "never_utf" => c.never_utf = true,
            "unicode" => c.unicode = true,
            _ => return None,
        }
        let exec = matches!(
            item.as_atom().map(Atom::name),
            Some(
                "notempty" | "notempty_atstart" | "notbol" | "noteol" | "report_errors" | "global"
            )
        );
        if exec {
            compile = false;
            o.has_exec_opt = true;
        }
        if compile {
            o.has_compile_opt = true;
        }
    }
    rest.is_nil().then_some(o)
}
