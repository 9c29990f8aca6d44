//! Compiling and matching with PCRE2 (the `pcre2` crate, which builds
//! PCRE2's own C sources): the engine family OTP's `re` uses.
//!
//! A pattern is compiled once per (source, compile options, match
//! variant) and kept in a process-wide cache, so `re:run` with a compiled
//! pattern, or the same text again, does not recompile. The cache is a
//! mutex around a map, held only to look up and insert; it is emptied
//! when it reaches [`CACHE_LIMIT`] entries.
//!
//! PCRE2 differences reconciled here: the match-time options that the
//! crate does not expose are pattern variants (see `translate`);
//! `firstline` is checked on the match found (PCRE2 finds the leftmost
//! start first, so a match starting past the first newline means there is
//! none before it).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pcre2::bytes::{CaptureLocations, Regex, RegexBuilder};

use super::translate::{translate, CompileOptions, MatchVariant, Newline};

/// Entries the cache holds before it is emptied.
const CACHE_LIMIT: usize = 1024;

/// PCRE2's `PCRE2_ERROR_MATCHLIMIT`.
const ERROR_MATCHLIMIT: i32 = -47;
/// PCRE2's `PCRE2_ERROR_DEPTHLIMIT`.
const ERROR_DEPTHLIMIT: i32 = -53;
/// PCRE2's `PCRE2_ERROR_HEAPLIMIT`.
const ERROR_HEAPLIMIT: i32 = -63;
/// PCRE2's `PCRE2_ERROR_RECURSELOOP`.
const ERROR_RECURSELOOP: i32 = -52;

/// A compile error: PCRE2's message and the byte offset in the pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CompileError {
    /// The message.
    pub message: String,
    /// Byte offset in the user's pattern.
    pub offset: usize,
}

/// A compiled pattern and what `re` reports about it.
pub(super) struct Compiled {
    regex: Regex,
    /// Number of capturing groups (group 0 not counted).
    pub groups: usize,
    /// Named groups, sorted by name then group number (PCRE's name table).
    pub names: Vec<(Vec<u8>, usize)>,
    /// The newline convention in force.
    pub newline: Newline,
    firstline: bool,
}

/// The outcome of one match attempt.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Each group's `(start, end)` up to the highest one set (PCRE's
    /// return count); unset groups in between are `None`.
    Match(Vec<Option<(usize, usize)>>),
    /// No match.
    NoMatch,
    /// The match limit was reached.
    MatchLimit,
    /// The depth (recursion) limit was reached.
    DepthLimit,
    /// Invalid UTF-8 in the subject, or a bad offset: `badarg`.
    BadArg,
}

/// The compiled patterns of one source, by options and variant.
type BySource = HashMap<(CompileOptions, MatchVariant), Arc<Compiled>>;

/// The cache: compiled patterns by source, then by options and variant,
/// so a lookup borrows the source and only an insert copies it.
#[derive(Default)]
struct Cache {
    by_source: HashMap<Vec<u8>, BySource>,
    /// Compiled patterns held, over all sources.
    entries: usize,
}

fn cache() -> &'static Mutex<Cache> {
    static CACHE: std::sync::OnceLock<Mutex<Cache>> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Cache::default()))
}

/// Compiles `source` under `opts` for the match options in `variant`.
pub(super) fn compile(
    source: &[u8],
    opts: &CompileOptions,
    variant: &MatchVariant,
) -> Result<Arc<Compiled>, CompileError> {
    let options = (opts.clone(), *variant);
    let found = cache().lock().ok().and_then(|c| {
        c.by_source
            .get(source)
            .and_then(|by_options| by_options.get(&options))
            .cloned()
    });
    if let Some(found) = found {
        return Ok(found);
    }
    let compiled = Arc::new(build(source, opts, variant)?);
    if let Ok(mut c) = cache().lock() {
        if c.entries >= CACHE_LIMIT {
            c.by_source.clear();
            c.entries = 0;
        }
        let by_options = match c.by_source.get_mut(source) {
            Some(by_options) => by_options,
            None => c.by_source.entry(source.to_vec()).or_default(),
        };
        if by_options.insert(options, Arc::clone(&compiled)).is_none() {
            c.entries += 1;
        }
    }
    Ok(compiled)
}

fn build(
    source: &[u8],
    opts: &CompileOptions,
    variant: &MatchVariant,
) -> Result<Compiled, CompileError> {
    let translated = translate(source, opts, variant).map_err(|e| CompileError {
        message: e.message,
        offset: e.offset,
    })?;
    let regex = RegexBuilder::new()
        .caseless(opts.caseless)
        .dotall(opts.dotall)
        .extended(opts.extended)
        .multi_line(opts.multiline)
        .utf(opts.unicode)
        .build(&translated.text)
        .map_err(|e| {
            let shown = e.to_string();
            // The crate shows "PCRE2: error compiling pattern at offset N: MSG".
            let message = shown
                .find(" at offset ")
                .and_then(|at| shown[at..].find(": ").map(|m| &shown[at + m + 2..]))
                .or_else(|| shown.split_once("pattern: ").map(|(_, m)| m))
                .unwrap_or(shown.as_str())
                .to_string();
            let offset = translated.original_offset(e.offset().unwrap_or(0));
            let (message, offset) = super::errors::as_release(message, offset, source);
            CompileError { message, offset }
        })?;
    let mut names: Vec<(Vec<u8>, usize)> = regex
        .capture_names()
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.as_ref().map(|n| (n.as_bytes().to_vec(), i)))
        .collect();
    names.sort();
    Ok(Compiled {
        groups: regex.captures_len().saturating_sub(1),
        regex,
        names,
        newline: translated.newline,
        firstline: opts.firstline,
    })
}

impl Compiled {
    /// Matches `subject` from byte `offset`.
    pub(super) fn exec(&self, subject: &[u8], offset: usize) -> Outcome {
        if offset > subject.len() {
            return Outcome::BadArg;
        }
        let mut locs: CaptureLocations = self.regex.capture_locations();
        match self.regex.captures_read_at(&mut locs, subject, offset) {
            Ok(Some(m)) => {
                if self.firstline && m.start() > first_newline(subject, offset, self.newline) {
                    return Outcome::NoMatch;
                }
                let mut groups: Vec<Option<(usize, usize)>> =
                    (0..locs.len()).map(|i| locs.get(i)).collect();
                while groups.len() > 1 && groups.last() == Some(&None) {
                    groups.pop();
                }
                Outcome::Match(groups)
            }
            Ok(None) => Outcome::NoMatch,
            Err(e) => match e.code() {
                ERROR_MATCHLIMIT => Outcome::MatchLimit,
                ERROR_DEPTHLIMIT => Outcome::DepthLimit,
                // As the BEAM: reported as no match, never as an error.
                ERROR_HEAPLIMIT | ERROR_RECURSELOOP => Outcome::NoMatch,
                _ => Outcome::BadArg,
            },
        }
    }

    /// The group numbers named `name`, in group order.
    pub(super) fn groups_named(&self, name: &[u8]) -> Vec<usize> {
        self.names
            .iter()
            .filter(|(n, _)| n == name)
            .map(|&(_, i)| i)
            .collect()
    }
}

/// The position of the first newline at or after `from` (the subject's
/// length if there is none): where a `firstline` match must start by.
fn first_newline(subject: &[u8], from: usize, newline: Newline) -> usize {
    let rest = &subject[from..];
    let found = match newline {
        Newline::Lf => rest.iter().position(|&b| b == b'\n'),
        Newline::Cr => rest.iter().position(|&b| b == b'\r'),
        Newline::Crlf => rest.windows(2).position(|w| w == b"\r\n"),
        Newline::Nul => rest.iter().position(|&b| b == 0),
        Newline::AnyCrlf | Newline::Any => rest.iter().position(|&b| b == b'\n' || b == b'\r'),
    };
    found.map_or(subject.len(), |p| from + p)
}

/// `re:version/0`: the PCRE release the BEAM of the OTP release beamr
/// runs was built with, as that BEAM reports it (OTP 25 to 27 bundle PCRE
/// 8, whose behaviour beamr follows on those releases; OTP 29 PCRE2
/// 10.47). On other releases, the linked PCRE2's own version.
pub(super) fn version() -> String {
    match crate::code::otp_release() {
        ..=25 => "8.44 2020-02-12".to_string(),
        26 | 27 => "8.45 2021-06-15".to_string(),
        29 => "10.47 2025-10-21".to_string(),
        _ => {
            let (major, minor) = pcre2::version();
            format!("{major}.{minor}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(p: &str, s: &str, variant: MatchVariant) -> Outcome {
        compile(p.as_bytes(), &CompileOptions::default(), &variant)
            .unwrap()
            .exec(s.as_bytes(), 0)
    }

    #[test]
    fn trailing_unset_groups_are_dropped() {
        assert_eq!(
            run("(a)(b)?", "ac", MatchVariant::default()),
            Outcome::Match(vec![Some((0, 1)), Some((0, 1))])
        );
    }

    #[test]
    fn compile_errors_carry_the_offset() {
        let e = compile(b"(", &CompileOptions::default(), &MatchVariant::default());
        assert_eq!(e.err().map(|e| e.offset), Some(1));
    }

    #[test]
    fn catastrophic_backtracking_hits_the_match_limit() {
        let v = MatchVariant {
            match_limit: Some(10_000),
            ..Default::default()
        };
        assert_eq!(
            run("(a+)+$", "aaaaaaaaaaaaaaaaaaaaaaaaab", v),
            Outcome::MatchLimit
        );
    }

    #[test]
    fn anchored_variant_matches_only_at_the_offset() {
        let v = MatchVariant {
            anchored: true,
            ..Default::default()
        };
        assert_eq!(run("b", "ab", v), Outcome::NoMatch);
    }

    #[test]
    fn invalid_utf8_subject_is_badarg() {
        let o = CompileOptions {
            unicode: true,
            ..Default::default()
        };
        let c = compile(b"a", &o, &MatchVariant::default()).unwrap();
        assert_eq!(c.exec(b"\xff", 0), Outcome::BadArg);
        assert_eq!(c.exec("é".as_bytes(), 1), Outcome::BadArg);
    }
}
