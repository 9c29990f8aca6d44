%% Fixture: send, receive with patterns, after, and the receive marker optimization.
-module(disasm_receive).
-export([echo/0, wait/1, call/2, flush/0, sel/0]).

echo() ->
    receive
        {From, Msg} -> From ! Msg, echo();
        stop -> ok
    end.
wait(T) -> receive ok -> ok after T -> timeout end.
call(Pid, Req) ->
    Ref = make_ref(),
    Pid ! {self(), Ref, Req},
    receive {Ref, Reply} -> Reply after 5000 -> exit(timeout) end.
flush() -> receive _ -> flush() after 0 -> ok end.
sel() -> receive {a, X} when X > 1 -> X; {b, Y} -> Y end.
