-module(proc_info_item_parts).
-export([main/0]).

%% process_info on a process that has every part an item can ask for
%% (queued messages, a dictionary, links, monitors both ways, catches on
%% its stack, off-heap binaries): each item alone, the cheap ones next to
%% the costly ones, and lists that repeat or mix them, of another process
%% and of the caller. The answers must not depend on what else the call
%% asks for.
main() ->
    Self = self(),
    Other = spawn(fun() -> holder(Self) end),
    receive {ready, Other} -> ok end,
    Watcher = spawn(fun() -> erlang:monitor(process, Other), Self ! watching, receive stop -> ok end end),
    receive watching -> ok end,
    [Other ! {queued, N} || N <- lists:seq(1, 5)],
    Items = [message_queue_len, messages, dictionary, links, monitors,
             monitored_by, catchlevel, current_function, trap_exit],
    Names = [{Self, main}, {Other, holder}, {Watcher, watcher}],
    Info = fun(I) -> named(erlang:process_info(Other, I), Names) end,
    [show(I, Info(I)) || I <- Items],
    show(pair, Info([message_queue_len, messages])),
    show(len_only, Info([message_queue_len, trap_exit])),
    show(repeated, Info([links, message_queue_len, links])),
    show(all, Info(Items)),
    {binary, Bins} = erlang:process_info(Other, binary),
    show(binaries, [Size || {_, Size, _} <- Bins]),
    show(mixed_bins, [element(1, T) || T <- element(2, hd(erlang:process_info(Other, [binary])))] =/= []),
    show(default_len, proplists:get_value(message_queue_len, erlang:process_info(Other))),
    self() ! one, self() ! two,
    show(self_len, erlang:process_info(Self, message_queue_len)),
    show(self_both, erlang:process_info(Self, [messages, message_queue_len])),
    receive one -> ok end, receive two -> ok end,
    Other ! stop,
    Watcher ! stop,
    ok.

holder(Parent) ->
    put(colour, blue),
    put(count, 3),
    link(Parent),
    Ref = erlang:monitor(process, Parent),
    Bin = binary:copy(<<"off heap">>, 20),
    catch begin
        try
            Parent ! {ready, self()},
            receive stop -> {Ref, byte_size(Bin)} end
        catch _:_ -> ok
        end
    end.

%% Pids replaced by the names in `Names`; the dictionary (in no set
%% order) sorted.
named({dictionary, Pairs}, _) ->
    {dictionary, lists:sort(Pairs)};
named(Term, Names) when is_pid(Term) ->
    proplists:get_value(Term, Names, other_pid);
named(Term, Names) when is_list(Term) ->
    [named(T, Names) || T <- Term];
named(Term, Names) when is_tuple(Term) ->
    list_to_tuple(named(tuple_to_list(Term), Names));
named(Term, _) ->
    Term.

show(What, Value) ->
    io:format("~p: ~p~n", [What, Value]).
