%% erlang:trace/3 on new processes with a separate tracer process
%% ({tracer, Pid}), timestamps, and sends to a dead process.
-module(trace_msg_tracer_new).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = trace_names:keeper(),
    0 = erlang:trace(new, true, [send, monotonic_timestamp, {tracer, Tracer}]),
    Dead = spawn(fun() -> ok end),
    DeadRef = monitor(process, Dead),
    receive {'DOWN', DeadRef, process, Dead, _} -> ok end,
    W = spawn(fun() ->
                  Dead ! hello_dead,
                  Self ! {from_w, self()}
              end),
    receive {from_w, W} -> ok end,
    0 = erlang:trace(new, false, [send]),
    U = spawn(fun() -> Self ! untraced end),
    receive untraced -> ok end,
    %% Every trace message about W is at the tracer before it is asked.
    Delivered = erlang:trace_delivered(all),
    receive {trace_delivered, all, Delivered} -> ok end,
    Msgs = trace_names:kept(Tracer),
    Names = #{Self => main, W => w, Dead => dead, U => u, Tracer => tracer},
    lists:foreach(
      fun(T) ->
              Ts = element(tuple_size(T), T),
              Shape = setelement(tuple_size(T), T, ts),
              io:format("~p ~p~n", [trace_names:name(Shape, Names), is_integer(Ts)])
      end,
      [T || T <- Msgs, element(2, T) =:= W]),
    io:format("from others: ~p~n", [length([T || T <- Msgs, element(2, T) =/= W])]).
