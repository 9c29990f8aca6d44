%% A message passed along three processes, for beamr-cli/tests/trace_otel.rs:
%% run with `--trace send,receive --trace-to otel`, every hop's PRODUCER and
%% CONSUMER spans must share one trace, as the runtime carries the context
%% with each message. Prints the pids in hop order.
-module(otel_chain).
-export([main/0, hop/0]).

main() ->
    B = spawn(?MODULE, hop, []),
    C = spawn(?MODULE, hop, []),
    B ! {pass, C, self()},
    receive {done, From} -> ok end,
    io:format("~p ~p ~p ~p~n", [self(), B, C, From]).

hop() ->
    receive
        {pass, Next, Origin} -> Next ! {last, Origin};
        {last, Origin} -> Origin ! {done, self()}
    end.
