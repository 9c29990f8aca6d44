%% erlang:trace/3 with exiting on a process whose exit work (an exit
%% signal per link, a 'DOWN' per monitor) is too long for one time slice:
%% it is scheduled out and in again while it exits (out_exiting,
%% in_exiting, each {trace, P, Tag, 0}), out_exited last; no in or out for
%% the exiting process, even with running. The counts are far from where
%% the number of slices changes (erts takes 3,845 links and monitors in
%% the first exit slice and 4,000 in each of the next).
-module(trace_exiting_slices).
-export([main/0]).

main() ->
    Link = fun(P) -> link(P) end,
    Monitor = fun(P) -> erlang:monitor(process, P) end,
    Go = fun(P) -> P ! go end,
    Kill = fun(P) -> exit(P, kill) end,
    Cases =
        [{links_6000, [{6000, Link}], Go, [exiting]},
         {links_6000_running, [{6000, Link}], Go, [running, exiting]},
         {links_6000_procs, [{6000, Link}], Go, [procs, exiting]},
         {links_6000_running_only, [{6000, Link}], Go, [running]},
         {monitors_6000, [{6000, Monitor}], Go, [exiting]},
         {mixed_10000_killed, [{5000, Link}, {5000, Monitor}], Kill, [running, exiting]},
         {links_2000, [{2000, Link}], Go, [running, exiting]}],
    [run(Case) || Case <- Cases],
    ok.

run({Name, Watchers, End, Flags}) ->
    Self = self(),
    P = spawn(fun() ->
                      process_flag(trap_exit, true),
                      register(exiting_slices, self()),
                      Self ! {ready, self()},
                      receive go -> ok end
              end),
    receive {ready, P} -> ok end,
    Others = [spawn(fun() -> Watch(P), Self ! {watching, self()}, receive stop -> ok end end)
              || {N, Watch} <- Watchers, _ <- lists:seq(1, N)],
    [receive {watching, O} -> ok end || O <- Others],
    waiting(P),
    1 = erlang:trace(P, true, [{tracer, Self} | Flags]),
    End(P),
    Events = until_exited(P, lists:member(exiting, Flags)),
    Tags = [element(3, E) || E <- Events],
    io:format("~p: first ~p, last ~p~n", [Name, hd(Tags), lists:last(Tags)]),
    io:format("  tags ~p~n", [Tags]),
    io:format("  out_exiting ~p, in_exiting ~p, alternating ~p~n",
              [count(out_exiting, Tags), count(in_exiting, Tags), alternating(Tags)]),
    io:format("  payloads ~p~n",
              [lists:usort([{element(3, E), element(4, E)} || E <- Events,
                                                              lists:member(element(3, E), [in_exiting, out_exiting, out_exited])])]),
    io:format("  no in/out after exit ~p~n", [no_running_after_exit(Tags)]),
    io:format("  name gone ~p, alive ~p~n", [whereis(exiting_slices), is_process_alive(P)]),
    [O ! stop || O <- Others],
    ok.

%% Until P waits in its receive (traced before, it would show an extra
%% in/out pair).
waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(5), waiting(P)
    end.

%% P's trace messages until out_exited (with the exiting flag) or, without
%% it, until P is gone and its trace messages have all arrived.
until_exited(P, true) ->
    receive
        {trace, P, out_exited, _} = T -> [T];
        {trace, P, _, _} = T -> [T | until_exited(P, true)];
        {trace, P, _, _, _} = T -> [T | until_exited(P, true)]
    end;
until_exited(P, false) ->
    M = monitor(process, P),
    receive {'DOWN', M, process, P, _} -> ok end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    trace_names:collect().

count(Tag, Tags) -> length([T || T <- Tags, T =:= Tag]).

%% out_exiting and in_exiting come in pairs, out first.
alternating(Tags) ->
    Exiting = [T || T <- Tags, T =:= out_exiting orelse T =:= in_exiting],
    pairs(Exiting).

pairs([]) -> true;
pairs([out_exiting, in_exiting | Rest]) -> pairs(Rest);
pairs(_) -> false.

%% No in or out once the exit work began (after the first exiting tag).
no_running_after_exit(Tags) ->
    After = lists:dropwhile(fun(T) -> not lists:member(T, [exit, out_exiting, out_exited]) end, Tags),
    not lists:any(fun(T) -> T =:= in orelse T =:= out end, After).
