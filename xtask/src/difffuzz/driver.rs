//! The Erlang side of a batch: a driver module that runs each generated
//! program's `wrapper0/0` in a process of its own, under a time limit,
//! between markers; splitting a run's output back into programs; and
//! masking what may differ between two runs of the same program.

use std::collections::BTreeMap;

/// The driver module's name.
pub const MODULE: &str = "difffuzz_driver";

/// The environment variable holding each program's time limit (ms).
pub const TIMEOUT_VAR: &str = "DIFFFUZZ_TIMEOUT_MS";

/// The start of a program's marker line (`==difffuzz fz12==`).
const MARK: &str = "==difffuzz ";

/// The line after the last program. Every program's output is followed
/// by the newline that starts the next marker line, the last one's too:
/// without it, a program whose output ends without a newline would look
/// different when it is last in one run (erl's) and not in the other
/// (beamr's runs leave out what ran past the limit on erl).
const END: &str = "==difffuzz end==";

/// The source of a driver running `modules` in turn: each program's
/// output follows its marker line; a program that raises, exits or runs
/// past the limit gets a line saying so after its output.
pub fn source(modules: &[String]) -> String {
    let list = modules.join(", ");
    format!(
        "-module({MODULE}).\n\
         -export([main/0]).\n\
         main() ->\n    \
             T = list_to_integer(os:getenv(\"{TIMEOUT_VAR}\", \"10000\")),\n    \
             lists:foreach(fun(M) -> one(M, T) end, [{list}]),\n    \
             io:format(\"~n{END}~n\").\n\
         one(M, T) ->\n    \
             io:format(\"~n{MARK}~s==~n\", [M]),\n    \
             {{P, R}} = spawn_monitor(fun() -> M:wrapper0() end),\n    \
             receive\n        \
                 {{'DOWN', R, process, P, normal}} -> ok;\n        \
                 {{'DOWN', R, process, P, _}} -> io:format(\"~n==difffuzz crashed==~n\")\n    \
             after T ->\n        \
                 exit(P, kill),\n        \
                 receive {{'DOWN', R, process, P, _}} -> ok end,\n        \
                 io:format(\"~n==difffuzz timeout==~n\")\n    \
             end.\n"
    )
}

/// A run's output split into each program's (masked) output, by module.
/// Text before the first marker is dropped.
pub fn split(output: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in output.split_inclusive('\n') {
        let trimmed = line.trim_end_matches('\n');
        if trimmed == END {
            if let Some((module, text)) = current.take() {
                out.insert(module, mask(&text));
            }
        } else if let Some(name) = trimmed
            .strip_prefix(MARK)
            .and_then(|rest| rest.strip_suffix("=="))
            .filter(|name| name.starts_with("fz"))
        {
            if let Some((module, text)) = current.take() {
                out.insert(module, mask(&text));
            }
            current = Some((name.to_string(), String::new()));
        } else if let Some((_, text)) = current.as_mut() {
            text.push_str(line);
        }
    }
    if let Some((module, text)) = current {
        out.insert(module, mask(&text));
    }
    out
}

/// Whether a program's output says it ran past its time limit.
pub fn timed_out(output: &str) -> bool {
    output.ends_with("==difffuzz timeout==\n")
}

/// `text` with what differs from run to run replaced: `#Fun<...>` by
/// `Fun`, `#Ref<...>` by `Ref`, `#Port<...>` by `Port` and pids
/// (`<0.85.0>`) by `Pid`.
pub fn mask(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for (prefix, word) in [("#Fun<", "Fun"), ("#Ref<", "Ref"), ("#Port<", "Port")] {
            if let Some(after) = rest.strip_prefix(prefix) {
                if let Some(end) = after.find('>') {
                    out.push_str(word);
                    rest = &after[end + 1..];
                    continue 'outer;
                }
            }
        }
        if let Some(len) = pid_len(rest) {
            out.push_str("Pid");
            rest = &rest[len..];
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of the pid (`<N.N.N>`) at the start of `text`, if one is.
fn pid_len(text: &str) -> Option<usize> {
    let inner = text.strip_prefix('<')?;
    let end = inner.find('>')?;
    let parts: Vec<&str> = inner[..end].split('.').collect();
    let numeric = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (parts.len() == 3 && parts.iter().all(numeric)).then_some(end + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_funs_refs_ports_and_pids_only() {
        assert_eq!(
            mask("[#Fun<fz1.0.1234>, #Ref<0.1.2.3>, <0.85.0>, #Port<0.7>, <<\"<1.2>\">>]"),
            "[Fun, Ref, Pid, Port, <<\"<1.2>\">>]"
        );
        assert_eq!(mask("a < b > c <1.x.3>"), "a < b > c <1.x.3>");
    }

    #[test]
    fn splits_output_by_program() {
        let out = "boot noise\n\n==difffuzz fz1==\n'EXIT'\n==difffuzz fz2==\n#Fun<a.b>\n\
                   ==difffuzz timeout==\n";
        let parts = split(out);
        assert_eq!(parts["fz1"], "'EXIT'\n");
        assert_eq!(parts["fz2"], "Fun\n==difffuzz timeout==\n");
        assert!(timed_out(&parts["fz2"]));
        assert!(!timed_out(&parts["fz1"]));
    }

    #[test]
    fn the_last_program_ends_as_the_others_do() {
        let last = split("\n==difffuzz fz1==\nok\n==difffuzz end==\n");
        let not_last = split("\n==difffuzz fz1==\nok\n==difffuzz fz2==\n\n==difffuzz end==\n");
        assert_eq!(last["fz1"], "ok\n");
        assert_eq!(not_last["fz1"], last["fz1"]);
        assert_eq!(not_last["fz2"], "\n");
    }

    #[test]
    fn driver_names_every_module() {
        let text = source(&["fz1".into(), "fz2".into()]);
        assert!(text.starts_with("-module(difffuzz_driver)."));
        assert!(text.contains("[fz1, fz2]"));
    }
}
