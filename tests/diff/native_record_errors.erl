%% diff-requires-otp: 29
-module(native_record_errors).
%% The exceptions of OTP 29's record instructions: reading a field of a
%% value that is not the record named, a field the record lacks, updating
%% the wrong record.
-export([main/0]).

-record #loc{k = 1, j}.
-record #pr{a = 1}.

loc_k(R) -> R#loc.k.
any_k(R) -> R#_.k.
upd(R, V) -> R#loc{k = V}.
anyupd(R) -> R#_{k = 5}.
upd_bad(R) -> R#_{zz = 5}.

main() ->
    R = #loc{j = 2},
    io:format("~p~n", [[outcome:run(fun() -> loc_k({a}) end), outcome:run(fun() -> loc_k(#pr{}) end),
                        outcome:run(fun() -> loc_k(R) end), outcome:run(fun() -> loc_k(7) end)]]),
    io:format("~p~n", [[outcome:run(fun() -> any_k(#pr{}) end), outcome:run(fun() -> any_k(R) end),
                        outcome:run(fun() -> any_k(<<"x">>) end)]]),
    io:format("~p~n", [[outcome:run(fun() -> upd(#pr{}, 1) end), outcome:run(fun() -> upd(R, 9) end),
                        outcome:run(fun() -> upd(x, 9) end)]]),
    io:format("~p~n", [[outcome:run(fun() -> anyupd(#pr{}) end), outcome:run(fun() -> anyupd(R) end),
                        outcome:run(fun() -> upd_bad(R) end), outcome:run(fun() -> anyupd([]) end)]]),
    io:format("~p~n", [[outcome:run(fun() -> #native_record_nomod:x{} end),
                        outcome:run(fun() -> #native_record_errors:loc{j = 1} end)]]),
    ok.
