%% ETS tables and processes: ownership, tables deleted with their owner,
%% access rights from other processes, give_away, heir.
-module(proc_ets_owner).
-export([main/0]).

main() ->
    Self = self(),
    %% A table owned by another process dies with it.
    Owner = spawn(fun() ->
                          T = ets:new(owned, [named_table, public]),
                          ets:insert(T, {a, 1}),
                          Self ! ready,
                          receive stop -> ok end
                  end),
    receive ready -> ok end,
    io:format("lookup from other: ~p~n", [ets:lookup(owned, a)]),
    ets:insert(owned, {b, 2}),
    io:format("public insert: ~p~n", [lists:sort(ets:tab2list(owned))]),
    io:format("owner: ~p~n", [ets:info(owned, owner) =:= Owner]),
    Ref = monitor(process, Owner),
    Owner ! stop,
    receive {'DOWN', Ref, process, Owner, normal} -> ok end,
    io:format("after owner exit: ~p~n", [ets:info(owned)]),
    io:format("lookup: ~p~n", [try ets:lookup(owned, a) catch error:badarg -> badarg end]),
    %% protected: others read, only the owner writes.
    P = spawn(fun() ->
                      ets:new(prot, [named_table, protected]),
                      ets:insert(prot, {k, v}),
                      Self ! ready,
                      receive stop -> ok end
              end),
    receive ready -> ok end,
    io:format("protected read: ~p~n", [ets:lookup(prot, k)]),
    io:format("protected write: ~p~n", [try ets:insert(prot, {x, y}) catch error:badarg -> badarg end]),
    P ! stop,
    %% private: others cannot read.
    Q = spawn(fun() ->
                      ets:new(priv, [named_table, private]),
                      Self ! ready,
                      receive stop -> ok end
              end),
    receive ready -> ok end,
    io:format("private read: ~p~n", [try ets:lookup(priv, k) catch error:badarg -> badarg end]),
    Q ! stop,
    %% give_away: the new owner gets an ETS-TRANSFER message.
    T2 = ets:new(given, [public]),
    Receiver = spawn(fun() ->
                             receive {'ETS-TRANSFER', Tab, From, Data} ->
                                     Self ! {transferred, Tab =:= T2, From =:= Self, Data}
                             end,
                             receive stop -> ok end
                     end),
    true = ets:give_away(T2, Receiver, gift),
    receive {transferred, A, B, C} -> io:format("transfer: ~p ~p ~p~n", [A, B, C]) end,
    io:format("new owner: ~p~n", [ets:info(T2, owner) =:= Receiver]),
    %% heir: when the owner dies, the heir inherits the table.
    Heir = self(),
    Dying = spawn(fun() ->
                          T3 = ets:new(inherited, [named_table, public, {heir, Heir, heir_data}]),
                          ets:insert(T3, {x, 1}),
                          Self ! ready,
                          receive stop -> ok end
                  end),
    receive ready -> ok end,
    Dying ! stop,
    receive {'ETS-TRANSFER', _, Dying, HD} -> io:format("inherited with ~p~n", [HD]) end,
    io:format("heir owns: ~p ~p~n", [ets:info(inherited, owner) =:= self(), ets:lookup(inherited, x)]),
    Receiver ! stop,
    io:format("done~n").
