%% port_control/3 and port_call/2,3 on spawn and spawn_executable ports
%% (an fd port on fd 0 makes OTP 27+ log that it steals it from the
%% terminal, so none here): erts's spawn, spawn_executable and fd drivers have no control or call
%% callback, so every call is badarg (raised from the BIF, with its
%% arguments), as is a bad port, operation or data; the port stays open.
-module(port_control_call).
-export([main/0]).

t(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:E:S -> {C, E, top(S)}
    end.

%% The BIF's own frame, its port or pid argument hidden.
top([{M, F, [P | Rest], Loc} | _]) when is_port(P) -> {M, F, [port | Rest], Loc};
top([{M, F, [P | Rest], Loc} | _]) when is_pid(P) -> {M, F, [pid | Rest], Loc};
top([Frame | _]) -> Frame.

main() ->
    Spawn = open_port({spawn, "cat"}, []),
    Exe = open_port({spawn_executable, "/bin/cat"}, []),
    [begin
         io:format("~p control: ~p~n", [Name, t(fun() -> erlang:port_control(P, 0, "") end)]),
         io:format("~p control data: ~p~n", [Name, t(fun() -> erlang:port_control(P, 1, <<"ab">>) end)]),
         io:format("~p call/3: ~p~n", [Name, t(fun() -> erlang:port_call(P, 0, foo) end)]),
         io:format("~p call/2: ~p~n", [Name, t(fun() -> erlang:port_call(P, 7) end)])
     end || {Name, P} <- [{spawn, Spawn}, {spawn_executable, Exe}]],
    Bad = [{not_port, fun() -> erlang:port_control(self(), 0, "") end},
           {atom_op, fun() -> erlang:port_control(Spawn, a, "") end},
           {atom_data, fun() -> erlang:port_control(Spawn, 0, a) end},
           {negative_op, fun() -> erlang:port_control(Spawn, -1, "") end},
           {big_op, fun() -> erlang:port_control(Spawn, 1 bsl 32, "") end},
           {bad_byte, fun() -> erlang:port_control(Spawn, 0, [256]) end},
           {call_not_port, fun() -> erlang:port_call(self(), 0, a) end},
           {call_atom_op, fun() -> erlang:port_call(Spawn, a, a) end},
           {unregistered_name, fun() -> erlang:port_control(no_such_port, 0, "") end}],
    [io:format("~p: ~p~n", [N, t(F)]) || {N, F} <- Bad],
    port_command(Spawn, "still open\n"),
    receive {Spawn, {data, D}} -> io:format("spawn port answers: ~p~n", [D]) after 5000 -> io:format("timeout~n") end,
    io:format("exe port alive: ~p~n", [erlang:port_info(Exe, name) =/= undefined]),
    port_close(Spawn),
    io:format("closed control: ~p~n", [t(fun() -> erlang:port_control(Spawn, 0, "") end)]),
    io:format("closed call: ~p~n", [t(fun() -> erlang:port_call(Spawn, 0, a) end)]),
    port_close(Exe),
    io:format("done~n").
