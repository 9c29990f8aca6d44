-module(fmt_erlang_display).
-export([main/0]).

%% erlang:display/1: the runtime's own printer, straight to standard output
%% (not mixed with io:format, whose output erl writes asynchronously).
main() ->
    erlang:display({1.5, -0.25, 1.0e100, #{a => 1, "k" => [1, 2]}, "text\twith \"quotes\"\n"}),
    erlang:display([<<"ascii">>, <<1, 2>>, <<>>, <<1:3>>, [200, 201], [1, 2 | 3], 'Quoted atom', 'ok']),
    erlang:display({1 bsl 80, -(1 bsl 64), fun lists:map/2, {}, [], "", [$a, 0]}),
    ok.
