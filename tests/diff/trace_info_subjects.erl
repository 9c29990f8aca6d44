%% erlang:trace_info/2 on processes (flags, tracer, a dead one), on new
%% processes, on functions (every item, unknown functions, wildcards) and
%% on the on_load pattern; and what it refuses.
-module(trace_info_subjects).
-export([main/0, f/1]).

f(X) -> X.

info(What, Item) ->
    R = try erlang:trace_info(What, Item) catch C:E -> {C, E} end,
    R.

main() ->
    Self = self(),
    W = spawn(fun Loop() -> receive {sync, From} -> From ! synced, Loop(); stop -> ok end end),
    Names = #{W => w, Self => main},
    Show = fun(Label, T) -> io:format("~s: ~p~n", [Label, trace_names:name(T, Names)]) end,
    Show("flags before", info(W, flags)),
    Show("tracer before", info(W, tracer)),
    erlang:trace(W, true, [call, return_to, arity, send, procs, {tracer, Self}]),
    %% The trace signal reaches W before this message (signals from one
    %% process keep their order): its answer says W has its flags.
    W ! {sync, Self},
    receive synced -> ok end,
    Show("flags after", info(W, flags)),
    Show("tracer after", info(W, tracer)),
    Show("own flags", info(Self, flags)),
    Show("meta of a process", info(W, meta)),
    Show("all of a process", info(W, all)),
    Show("new flags", info(new, flags)),
    Show("new tracer", info(new, tracer)),
    Show("all flags", info(all, flags)),
    Show("existing flags", info(existing, flags)),
    Show("bad subject", info(bad, flags)),
    Dead = spawn(fun() -> ok end),
    DeadRef = monitor(process, Dead),
    receive {'DOWN', DeadRef, process, Dead, _} -> ok end,
    Show("dead process", info(Dead, flags)),
    [Show(atom_to_list(I), info({?MODULE, f, 1}, I))
     || I <- [traced, match_spec, meta, meta_match_spec, call_count, all]],
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{return_trace}]}], [local]),
    [Show(atom_to_list(I), info({?MODULE, f, 1}, I)) || I <- [traced, match_spec, all]],
    Show("unknown function", info({?MODULE, g, 1}, all)),
    Show("unknown module", info({no_such_module, g, 1}, traced)),
    Show("wildcard", info({?MODULE, '_', 1}, traced)),
    Show("bad item", info({?MODULE, f, 1}, bad)),
    Show("on_load traced", info(on_load, traced)),
    Show("on_load all", info(on_load, all)),
    Show("set on_load", erlang:trace_pattern(on_load, true, [local])),
    Show("on_load all", info(on_load, all)),
    Show("on_load meta", erlang:trace_pattern(on_load, [{'_', [], [{return_trace}]}], [meta, call_count])),
    Show("on_load all", info(on_load, all)),
    Show("on_load off", erlang:trace_pattern(on_load, false, [local, meta, call_count])),
    Show("on_load all", info(on_load, all)),
    W ! stop.
