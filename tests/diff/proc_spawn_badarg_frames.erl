-module(proc_spawn_badarg_frames).
-export([main/0]).

%% The stack trace of a badarg from the spawn family, which OTP writes in
%% Erlang (erlang.erl) and beamr natively: called in tail position, the
%% caller's frame is gone, as after any Erlang tail call; a real BIF
%% (atom_to_list/1) keeps it. Called in body position, both keep it.
main() ->
    Tail = [fun() -> spawn(id(foo)) end,
            fun() -> spawn_link(id(foo)) end,
            fun() -> spawn_opt(id(foo), []) end,
            fun() -> spawn_monitor(id(foo)) end,
            fun() -> spawn_request(id(foo)) end,
            fun() -> atom_to_list(id(1)) end,
            fun() -> spawn(fun() -> ok end, bad) end],
    Body = [fun() -> _ = spawn(id(foo)), ok end,
            fun() -> _ = spawn_request(id(foo)), ok end,
            fun() -> _ = atom_to_list(id(1)), ok end],
    [io:format("~p~n", [catch F()]) || F <- Tail ++ Body],
    ok.

id(X) -> X.
