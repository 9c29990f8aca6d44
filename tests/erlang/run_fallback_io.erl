-module(run_fallback_io).
-export([main/0]).

%% Formats that beamr's built-in io (used when no Erlang/OTP is installed)
%% must print exactly as OTP's io does.
main() ->
    io:format("plain text~n"),
    io:format("~w ~p ~s ~c~n", [{a, [1, 2], <<"b">>}, "str", "chars", $x]),
    io:format("~10s|~-10s|~.3s|~5c~n", ["right", "left", "truncate", $z]),
    io:format("~b ~.16b ~.2B ~8.16.0B ~#~n", [255, 255, 5, 48879, 255]),
    io:format("~x ~.16X~n", [255, "0x", 255, "0X"]),
    io:format("~f ~.2f ~10.3f|~-10.1f|~n", [3.14159, 2.5, 1.0, -7.25]),
    io:format("~e ~.3e~n", [12345.678, 0.000123]),
    io:format("~i~w~n", [ignored, shown]),
    io:format("~p~n", [[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]]),
    io:format("~P ~W~n", [[1, [2, [3, [4]]]], 3, {a, {b, {c, {d}}}}, 3]),
    io:format("~ts ~tp~n", [[104, 233], 'é']),
    io:format("~~ done~n", []),
    io:put_chars(["io", $:, <<"put_chars">>, "\n"]),
    io:nl(),
    io:write({written, 1}),
    io:nl().
