-module(sys_memory).
-export([main/0]).

%% erlang:memory/0,1: every key, the relations erts documents, growth
%% where a program allocates, and badarg for what is not a memory type.
main() ->
    M = erlang:memory(),
    io:format("keys ~p~n", [[K || {K, _} <- M]]),
    io:format("all sizes ~p~n", [lists:all(fun({_, V}) -> is_integer(V) andalso V >= 0 end, M)]),
    V = fun(K) -> proplists:get_value(K, M) end,
    io:format("positive ~p~n", [[K || K <- [total, processes, system, atom, code], V(K) > 0]]),
    io:format("total = processes + system ~p~n", [V(total) =:= V(processes) + V(system)]),
    io:format("processes_used =< processes ~p~n", [V(processes_used) =< V(processes)]),
    io:format("atom_used =< atom ~p~n", [V(atom_used) =< V(atom)]),
    io:format("parts =< system ~p~n",
              [V(atom) + V(binary) + V(code) + V(ets) =< V(system)]),
    io:format("one key ~p~n", [is_integer(erlang:memory(total))]),
    io:format("list ~p~n", [[K || {K, N} <- erlang:memory([ets, binary, ets]), is_integer(N)]]),
    io:format("empty ~p~n", [erlang:memory([])]),
    [io:format("~p -> ~p~n", [Bad, catch erlang:memory(Bad)])
     || Bad <- [bad, maximum, "total", 42, [total, bad]]],
    binary_growth(),
    ets_growth(),
    process_growth(),
    code_growth().

binary_growth() ->
    B0 = erlang:memory(binary),
    Big = binary:copy(<<7>>, 4000000),
    B1 = erlang:memory(binary),
    %% Other processes may free binaries meanwhile (at most B0 bytes), so
    %% B1 - B0 can fall short of the new binary's size; B1 cannot.
    io:format("binary counted ~p~n", [B1 >= byte_size(Big) andalso B1 > B0]),
    io:format("size ~p~n", [byte_size(Big)]).

ets_growth() ->
    E0 = erlang:memory(ets),
    T = ets:new(t, []),
    [ets:insert(T, {N, lists:seq(1, 20)}) || N <- lists:seq(1, 20000)],
    E1 = erlang:memory(ets),
    io:format("ets grows ~p~n", [E1 - E0 > 20000 * 20 * 8]),
    ets:delete(T),
    E2 = erlang:memory(ets),
    io:format("ets shrinks ~p~n", [E1 - E2 > 20000 * 20 * 8]).

process_growth() ->
    P0 = erlang:memory(processes),
    Self = self(),
    Pids = [spawn(fun() -> L = lists:seq(1, 10000), Self ! {ready, self()},
                           receive stop -> length(L) end end)
            || _ <- lists:seq(1, 50)],
    [receive {ready, P} -> ok end || P <- Pids],
    P1 = erlang:memory(processes),
    io:format("processes grow ~p~n", [P1 - P0 > 50 * 10000 * 16]),
    [P ! stop || P <- Pids].

code_growth() ->
    C0 = erlang:memory(code),
    {module, _} = code:ensure_loaded(dict),
    {module, _} = code:ensure_loaded(sets),
    {module, _} = code:ensure_loaded(gb_trees),
    C1 = erlang:memory(code),
    io:format("code grows ~p~n", [C1 >= C0]).
