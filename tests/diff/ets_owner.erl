%% ETS ownership: access rights, tables dying with their owner, heirs,
%% give_away, named tables, concurrent writers.
-module(ets_owner).
-export([main/0]).

main() ->
    Self = self(),
    Owner = spawn(fun() ->
                      ets:new(prot, [named_table, protected]),
                      ets:insert(prot, {k, 1}),
                      ets:new(priv, [named_table, private]),
                      ets:new(pub, [named_table, public]),
                      Self ! ready,
                      receive stop -> ok end
                  end),
    receive ready -> ok end,
    Try = fun(F) -> try F() catch C:R -> {C, R} end end,
    io:format("read protected ~p~n", [Try(fun() -> ets:lookup(prot, k) end)]),
    io:format("write protected ~p~n", [Try(fun() -> ets:insert(prot, {k, 2}) end)]),
    io:format("read private ~p~n", [Try(fun() -> ets:lookup(priv, k) end)]),
    io:format("write public ~p~n", [Try(fun() -> ets:insert(pub, {k, 3}) end)]),
    io:format("owner ~p~n", [ets:info(pub, owner) =:= Owner]),
    M = monitor(process, Owner),
    Owner ! stop,
    receive {'DOWN', M, process, Owner, normal} -> ok end,
    io:format("after owner exit ~p~n", [[ets:info(N) || N <- [prot, priv, pub]]]),
    %% Heir.
    Parent = self(),
    P = spawn(fun() ->
                  T = ets:new(kept, [named_table, {heir, Parent, {gift, 42}}]),
                  ets:insert(T, {data, [1, 2, 3]}),
                  Parent ! ready,
                  receive stop -> ok end
              end),
    receive ready -> ok end,
    P ! stop,
    receive {'ETS-TRANSFER', Tab, From, Data} ->
            io:format("transfer ~p ~p ~p~n", [Tab, From =:= P, Data])
    end,
    io:format("inherited ~p ~p~n", [ets:lookup(kept, data), ets:info(kept, owner) =:= self()]),
    %% give_away.
    Q = spawn(fun() -> receive {'ETS-TRANSFER', T2, _, Msg} -> Parent ! {got, Msg, ets:tab2list(T2)} end,
                       receive stop -> ok end end),
    true = ets:give_away(kept, Q, hello),
    receive {got, Msg, Contents} -> io:format("given ~p ~p~n", [Msg, Contents]) end,
    io:format("give back ~p~n", [Try(fun() -> ets:give_away(kept, Q, again) end)]),
    %% Concurrent writers on a public table.
    W = ets:new(work, [public, {write_concurrency, true}]),
    Pids = [spawn(fun() ->
                      [ets:update_counter(W, total, I, {total, 0}) || _ <- lists:seq(1, 200)],
                      ets:insert(W, {{done, I}}),
                      Parent ! {done, I}
                  end) || I <- lists:seq(1, 10)],
    [receive {done, I} -> ok end || I <- lists:seq(1, 10)],
    io:format("writers ~p total ~p size ~p~n", [length(Pids), ets:lookup(W, total), ets:info(W, size)]),
    io:format("whereis ~p ~p~n", [is_reference(ets:whereis(kept)), ets:whereis(nothing_here)]),
    ok.
