%% erlang:trace/3 with send: send_to_non_existing_process for a dead pid,
%% an unregistered {Name, Node} on this node and an inactive alias; a send
%% to a registered name reports the name as given.
-module(trace_msg_send_dead).
-export([main/0]).

main() ->
    Me = self(),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    Live = spawn(fun() -> receive stop -> ok end end),
    register(trace_msg_send_dead_live, Live),
    Alias = alias(),
    unalias(Alias),
    S = spawn(fun() ->
                      receive go -> ok end,
                      Dead ! to_dead,
                      {nobody_here, node()} ! to_nobody,
                      trace_msg_send_dead_live ! by_name,
                      {trace_msg_send_dead_live, node()} ! by_name_node,
                      Alias ! to_alias,
                      Me ! done
              end),
    1 = erlang:trace(S, true, [send]),
    S ! go,
    receive done -> ok end,
    Live ! stop,
    Names = #{S => s, Dead => dead, Live => live, Me => me},
    [io:format("~p~n", [trace_names:name(T, Names)]) || T <- trace_names:collect()],
    ok.
