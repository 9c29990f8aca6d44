%% The Erlang side of process_ring: message passing and printing, which
%% the Gleam code reaches through `@external' (the project has no
%% dependencies).
-module(process_ring_ffi).
-export([send/2, receive_number/0, print/1]).

send(To, Number) ->
    To ! {number, Number},
    nil.

receive_number() ->
    receive
        {number, Number} -> Number
    end.

print(Line) ->
    io:put_chars([Line, $\n]),
    nil.
