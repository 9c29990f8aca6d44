-module(os_set_signal).
-export([main/0]).

%% os:set_signal/2 for the signals OTP's shell asks for (prim_tty's
%% handler sets sigwinch and sigcont to handle from OTP 28 on), back to
%% default and ignore, sigterm's handle, and the bad arguments erl
%% refuses.
main() ->
    Calls = [{sigwinch, handle}, {sigcont, handle}, {sigwinch, default},
             {sigcont, ignore}, {sigwinch, ignore}, {sigcont, default},
             {sigterm, handle}, {bogus, handle}, {sigwinch, bogus},
             {"sigwinch", handle}, {sigwinch, "handle"}],
    [io:format("~p ~p~n", [C, try os:set_signal(S, O) catch E:R -> {E, R} end])
     || {S, O} = C <- Calls],
    ok.
