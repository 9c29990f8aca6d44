//! A program that fills the atom table (`beamr erl +t N`). erl's whole
//! node dies there ("no more index entries in atom_tab"); beamr's goes on:
//! the atom that does not fit raises `system_limit` in the process that
//! asked for it (`list_to_atom/1`, `binary_to_atom/1`; `binary_to_term/1`
//! of a new atom is `badarg`, as for any term it cannot build), atoms that
//! exist still resolve, modules already loaded still run, and the runtime
//! can still name what it answers, from the reserve it keeps for its own
//! names.

mod support;

use std::path::PathBuf;
use std::process::Command;

const PROGRAM: &str = r#"-module(fill_atoms).
-export([main/0]).
main() ->
    p(erlang:system_info(atom_limit)),
    {'EXIT', {Reason, _}} = (catch make(0)),
    p(Reason),
    p(erlang:system_info(atom_count) >= erlang:system_info(atom_limit)),
    p(reason(catch list_to_atom(name(one_more)))),
    p(reason(catch binary_to_atom(list_to_binary(name(another))))),
    p(reason(catch binary_to_term(<<131, 119, 4, (list_to_binary(name(x)))/binary>>))),
    p(list_to_existing_atom("atom_5")),
    p(binary_to_term(term_to_binary(atom_7))),
    Pid = spawn(fun() -> receive M -> exit({got, M}) end end),
    Ref = monitor(process, Pid),
    Pid ! hello,
    receive {'DOWN', Ref, process, Pid, Why} -> p(Why) end,
    p(lists:sort([x, y, atom_3])).
p(X) -> io:format("~p~n", [X]).
reason({'EXIT', {Reason, _Stack}}) -> Reason.
name(Prefix) -> atom_to_list(Prefix) ++ integer_to_list(erlang:unique_integer([positive])).
make(N) -> _ = list_to_atom("atom_" ++ integer_to_list(N)), make(N + 1).
"#;

#[test]
fn a_full_atom_table_is_system_limit_for_the_program_and_the_node_goes_on() {
    let dir = std::env::temp_dir().join(format!("beamr-atom-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    support::erlc(&dir, "fill_atoms", PROGRAM);
    let out = Command::new(PathBuf::from(env!("CARGO_BIN_EXE_beamr")))
        .current_dir(&dir)
        .args(["erl", "+t", "30000", "-noshell", "-pa", "."])
        .args(["-s", "fill_atoms", "main", "-s", "init", "stop"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let expected = [
        "30000",
        "system_limit",
        "true",
        "system_limit",
        "system_limit",
        "badarg",
        "atom_5",
        "atom_7",
        "{got,hello}",
        "[atom_3,x,y]",
    ];
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, expected, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
