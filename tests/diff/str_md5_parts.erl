-module(str_md5_parts).
-export([main/0]).

%% erlang:md5_init/update/final (contexts are values) and
%% erlang:external_size/1,2.
main() ->
    C0 = erlang:md5_init(),
    io:format("context ~p~n", [is_binary(C0)]),
    C1 = erlang:md5_update(C0, "hello "),
    C2 = erlang:md5_update(C1, [<<"wor">>, $l | <<"d">>]),
    io:format("parts ~p~n", [erlang:md5_final(C2) =:= erlang:md5(<<"hello world">>)]),
    io:format("reuse ~p~n", [erlang:md5_final(erlang:md5_update(C1, <<"there">>))
                             =:= erlang:md5("hello there")]),
    io:format("empty ~p~n", [erlang:md5_final(C0)]),
    Big = erlang:md5_update(C0, binary:copy(<<"abc">>, 100000)),
    io:format("big ~p~n", [erlang:md5_final(Big) =:= erlang:md5(binary:copy(<<"abc">>, 100000))]),
    [io:format("~p~n", [reason(catch F())]) || F <- [fun() -> erlang:md5_update(<<1, 2>>, <<>>) end,
                                           fun() -> erlang:md5_final(<<1>>) end,
                                           fun() -> erlang:md5_update(C0, foo) end,
                                           fun() -> erlang:md5_final(foo) end]],
    Terms = [1, a, "abc", <<1, 2, 3>>, {a, b}, 1.5, 1 bsl 100, #{a => 1}, [1 | 2],
             "h\x{e9}llo", <<1:3>>, lists:seq(1, 300), binary:copy(<<1>>, 100),
             {<<1:5>>, x}, fun lists:map/2, 'h\x{e9}llo'],
    io:format("sizes ~p~n", [[erlang:external_size(T) =:= byte_size(term_to_binary(T))
                              || T <- Terms]]),
    io:format("minor 0 ~p~n", [[erlang:external_size(T, [{minor_version, 0}])
                                =:= byte_size(term_to_binary(T, [{minor_version, 0}]))
                                || T <- Terms]]),
    io:format("~p~n", [reason(catch erlang:external_size(a, [compressed]))]),
    io:format("~p~n", [reason(catch erlang:external_size(a, [{minor_version, 7}]))]).

reason({'EXIT', {Reason, _Stack}}) -> {'EXIT', Reason};
reason(Other) -> Other.
