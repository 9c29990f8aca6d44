%% Which error a binary construction raises when more than one segment is
%% wrong. erts first sizes every segment (a bad size is badarg, a size past
%% the limit system_limit, naming that segment; a utf32 value, and from
%% OTP 26 on a utf8 one, is checked here too), and only then checks the
%% other values, in segment order, as it writes them. So a size past the
%% limit in segment 2 wins over a bad integer, float, binary or utf16 in
%% segment 1 (found by difffuzz, seed 45169 on OTP 25). Each line prints
%% the reason and error_info's cause.
-module(bs_construct_error_order).
-export([main/0]).

main() ->
    E = <<>>,
    H = id(9223372036854775807),
    [show(catch F()) || F <- [
        fun() -> <<(id(18446744073709551615))/utf8, E:H/bytes>> end,
        fun() -> <<(id(foo))/utf8, E:H/bytes>> end,
        fun() -> <<(id(foo)):8, E:H/bytes>> end,
        fun() -> <<(id(1.0)):(id(7))/float, E:H/bytes>> end,
        fun() -> <<(id(foo))/binary, E:H/bytes>> end,
        fun() -> <<(id(<<1:3>>))/binary, E:H/bytes>> end,
        fun() -> <<E:(id(8))/bytes, E:H/bytes>> end,
        fun() -> <<(id(1)):(id(-1)), E:H/bytes>> end,
        fun() -> <<(id(1)):(id(foo)), E:H/bytes>> end,
        fun() -> <<E:H/bytes, (id(foo))/utf8>> end,
        fun() -> <<E:H/bytes, (id(foo)):8>> end,
        fun() -> <<(id(-1))/utf16, E:H/bytes>> end,
        fun() -> <<(id(foo))/utf32, E:H/bytes>> end,
        fun() -> <<(id(foo)):H, 1:H>> end,
        fun() -> <<(id(1)):H, (id(foo)):8>> end,
        fun() -> <<E:(id(1 bsl 60))/bytes>> end,
        fun() -> <<(id(16#110000))/utf8, (id(1.0)):(id(7))/float>> end,
        fun() -> <<(id(16#110000))/utf8, (id(foo)):8>> end,
        fun() -> <<(id(foo)):8, (id(16#110000))/utf8>> end,
        fun() -> <<(id(foo)):8, (id(16#D800))/utf32>> end,
        fun() -> <<(id(1.0)):(id(7))/float, (id(foo)):8>> end,
        fun() -> <<(id(1)):8, (id(2.5)):(id(32))/float, (id(<<1>>)):(id(2))/bytes>> end
    ]],
    ok.

show({'EXIT', {Reason, [{_, _, _, Info} | _]}}) ->
    Cause = maps:get(cause, proplists:get_value(error_info, Info, #{}), none),
    io:format("~p ~p~n", [Reason, Cause]);
show(Value) ->
    io:format("~p~n", [Value]).

id(X) -> X.
