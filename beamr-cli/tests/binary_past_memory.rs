//! A binary bigger than the machine's memory (but within the size limit,
//! so that it is tried) raises a catchable `system_limit`, and the program
//! goes on. erl aborts the whole runtime here ("binary_alloc: Cannot
//! allocate 549755813888 bytes of memory"), so this is no differential
//! test: the rule is "as on erl or better, never an abort of the runtime"
//! (difffuzz found it: seed 41074 on OTP 25).

mod support;

/// 512 GiB: under beamr's limit of 2^43 bits, over any machine this runs on.
const MAIN: &str = r#"
-module(past_memory).
-export([main/0]).
main() ->
    Size = id(1 bsl 39),
    Small = binary:copy(<<1>>, 1 bsl 20),
    Tries = [fun() -> <<0:(Size * 8)>> end,
             fun() -> <<(id(<<"head">>))/binary, 0:(Size * 8)>> end,
             fun() -> <<Small/binary, 0:(Size * 8)>> end,
             fun() -> binary:copy(<<1>>, Size) end,
             fun() -> binary:copy(<<1, 2>>, Size div 2) end],
    [io:format("~p~n", [reason(catch F())]) || F <- Tries],
    io:format("~p~n", [byte_size(<<Small/binary, 0:(8 bsl 20)>>)]).
reason({'EXIT', {Reason, _Stack}}) -> Reason;
reason(Other) -> {returned, byte_size(Other)}.
id(X) -> X.
"#;

/// Whether the kernel refuses an allocation past its memory: with
/// `vm.overcommit_memory` at 1 it grants any, and the pages run out only
/// when written, which no runtime can turn into an exception.
fn kernel_refuses_huge_allocations() -> bool {
    std::fs::read_to_string("/proc/sys/vm/overcommit_memory")
        .map(|mode| mode.trim() != "1")
        .unwrap_or(false)
}

#[test]
fn a_binary_past_memory_raises_system_limit_and_the_program_goes_on() {
    if !kernel_refuses_huge_allocations() {
        eprintln!("skipped: this kernel grants any allocation (vm.overcommit_memory = 1)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("beamr-past-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    support::erlc(&dir, "past_memory", MAIN);
    for (native, stdout) in support::run_native_on_and_off(&dir, "past_memory") {
        let expected =
            "system_limit\nsystem_limit\nsystem_limit\nsystem_limit\nsystem_limit\n2097152\n";
        assert_eq!(stdout, expected, "native {native}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
