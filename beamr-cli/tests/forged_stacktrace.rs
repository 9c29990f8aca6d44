//! A raw stack trace (what a `catch` handler holds until it asks for the
//! frames, see `beamr-sched/src/interp/stacktrace.rs`) is a term, so a
//! program can forge one: BEAM assembly that passes any term as the trace
//! of its `raise` instruction. beamr reads a raw trace's addresses only if
//! each is an instruction of loaded code; a forged one is shown as the
//! term it is, in a handler's stack trace and in a `catch`'s `'EXIT'`.
//! (erl 25 itself dies of a segmentation fault on the first of these, so
//! this is no differential test.)

mod support;

use std::process::Command;

/// `forge:raise_with(Trace, Value)`: the `raise` instruction on its
/// arguments as they are.
const FORGE: &str = "\
{module, forge}.
{exports, [{module_info,0},{module_info,1},{raise_with,2}]}.
{attributes, []}.
{labels, 7}.

{function, raise_with, 2, 2}.
  {label,1}.
    {func_info,{atom,forge},{atom,raise_with},2}.
  {label,2}.
    {bif,raise,{f,0},[{x,0},{x,1}],{x,0}}.

{function, module_info, 0, 4}.
  {label,3}.
    {func_info,{atom,forge},{atom,module_info},0}.
  {label,4}.
    {move,{atom,forge},{x,0}}.
    {call_ext_only,1,{extfunc,erlang,get_module_info,1}}.

{function, module_info, 1, 6}.
  {label,5}.
    {func_info,{atom,forge},{atom,module_info},1}.
  {label,6}.
    {move,{x,0},{x,1}}.
    {move,{atom,forge},{x,0}}.
    {call_ext_only,2,{extfunc,erlang,get_module_info,2}}.
";

/// Raw traces forged with words that are no code (an address past the
/// heap, all ones), with no address at all, and in other shapes.
const MAIN: &str = r#"
-module(forge_main).
-export([main/0]).
main() ->
    Words = <<0:64, 16#deadbeef:64/native, 0:64, 0:64, 16#1000:64/native>>,
    Ones = <<-1:64, -1:64, -1:64, -1:64, -1:64>>,
    Null = <<1:64/native, 0:64, 0:64, 0:64>>,
    Ts = [{'$beamr_raw_stacktrace', Words, [], []},
          {'$beamr_raw_stacktrace', Ones, [], []},
          {'$beamr_raw_stacktrace', Null, [], []},
          {'$beamr_raw_stacktrace', <<1, 2, 3>>, [], []},
          {'$beamr_raw_stacktrace', Words}],
    [io:format("~w~n", [try forge:raise_with(T, v) catch C:R:S -> {C, R, S =:= T orelse S} end])
     || T <- Ts],
    [io:format("~w~n", [(catch forge:raise_with(T, v)) =:= {'EXIT', {v, T}}]) || T <- Ts],
    io:format("done~n").
"#;

#[test]
fn a_forged_raw_stack_trace_is_shown_as_the_term_it_is() {
    let dir = std::env::temp_dir().join(format!("beamr-forged-trace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("forge.S"), FORGE).unwrap();
    let status = Command::new("erlc")
        .arg("-o")
        .arg(&dir)
        .arg(dir.join("forge.S"))
        .status()
        .expect("erlc runs");
    assert!(status.success(), "erlc forge.S");
    support::erlc(&dir, "forge_main", MAIN);
    for (native, stdout) in support::run_native_on_and_off(&dir, "forge_main") {
        // The third holds no address at all (a null instruction, atom
        // indexes 0): it reads as a raw trace of one frame, named by the
        // atom at index 0, and so is no longer the term it was.
        let expected = "{error,v,true}\n{error,v,true}\n{error,v,[{false,false,[],[]}]}\n\
            {error,v,true}\n{error,v,true}\ntrue\ntrue\nfalse\ntrue\ntrue\ndone\n";
        assert_eq!(stdout, expected, "native {native}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
