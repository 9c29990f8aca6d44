%% The README's first example. hello.beam next to it is compiled from this
%% file and committed, so `beamr disasm` can be tried without Erlang:
%%
%%     erlc +deterministic -o examples/hello examples/hello/hello.erl
%%
%% On the BEAM: erl -noshell -pa examples/hello -s hello main -s init stop
-module(hello).
-export([main/0]).

main() ->
    io:format("Hello, world!~n").
