%% diff-requires-otp: 29
-module(native_record_external).
%% Another module's records: built, read and updated from outside when it
%% exports them; {badrecord, {M, N}} while the module is not loaded or
%% does not export the record; novalue and badfield.
-export([main/0]).

ext(B) -> #native_record_defs:pub{b = B}.
get_a(R) -> R#native_record_defs:pub.a.
upd(R) -> R#native_record_defs:pub{a = 9}.
m(#native_record_defs:pub{a = A, b = B}) -> {A, B};
m(#_{z = Z}) -> {z, Z};
m(_) -> no.
t(R) when is_record(R, native_record_defs, pub) -> yes;
t(_) -> no.

main() ->
    io:format("~p~n", [[outcome:run(fun() -> ext(1) end), outcome:run(fun() -> #native_record_defs:priv{} end)]]),
    {module, _} = code:ensure_loaded(native_record_defs),
    R = ext(5),
    P = native_record_defs:priv(),
    io:format("~p~n", [[R, get_a(R), upd(R), m(R), m(P), m(x), t(R), t(P)]]),
    io:format("~p~n", [[outcome:run(fun() -> #native_record_defs:pub{} end),
                        outcome:run(fun() -> #native_record_defs:pub{b = 1, zz = 2} end),
                        outcome:run(fun() -> #native_record_defs:priv{} end),
                        outcome:run(fun() -> P#_.z end),
                        outcome:run(fun() -> P#native_record_defs:priv.z end),
                        outcome:run(fun() -> R#native_record_defs:pub{zz = 1} end),
                        outcome:run(fun() -> R#native_record_defs:pub.zz end),
                        outcome:run(fun() -> get_a(P) end),
                        outcome:run(fun() -> upd(P) end)]]),
    io:format("~p~n", [[records:is_exported(R), records:is_exported(P),
                        R =:= native_record_defs:mk(5), R == native_record_defs:mk(5.0)]]),
    ok.
