-module(proc_info_catchlevel).
-export([main/0]).

%% catchlevel: the catches and trys active, for the caller and for a
%% process waiting inside them.
main() ->
    Me = self(),
    spawn(fun() ->
                  Me ! {levels, [process_info(self(), catchlevel),
                                 catch process_info(self(), catchlevel),
                                 try process_info(self(), catchlevel) catch _ -> x end,
                                 try process_info(self(), catchlevel) after ok end,
                                 (catch (catch process_info(self(), catchlevel))),
                                 try try process_info(self(), catchlevel) catch _ -> y end
                                 catch _ -> x end,
                                 nested(3)]}
          end),
    receive {levels, L} -> io:format("~p~n", [L]) end,
    Plain = spawn(fun() -> receive stop -> ok end end),
    InCatch = spawn(fun() -> catch (receive stop -> ok end), ok end),
    InTry = spawn(fun() -> try receive stop -> ok end catch _ -> ok end, ok end),
    InBoth = spawn(fun() -> try catch (receive stop -> ok end) catch _ -> ok end, ok end),
    Ps = [Plain, InCatch, InTry, InBoth],
    wait_waiting(Ps),
    io:format("~p~n", [[process_info(P, catchlevel) || P <- Ps]]),
    io:format("~p~n", [process_info(InBoth, [catchlevel, status])]),
    [P ! stop || P <- Ps],
    ok.

nested(0) -> element(2, process_info(self(), catchlevel));
nested(N) -> try nested(N - 1) of V -> V catch _ -> x end.

wait_waiting(Ps) ->
    case lists:all(fun(P) -> process_info(P, status) =:= {status, waiting} end, Ps) of
        true -> ok;
        false -> timer:sleep(5), wait_waiting(Ps)
    end.
