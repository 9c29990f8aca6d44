-module(proc_info_misc_items).
-export([main/0]).

%% The other items: parent, error_handler, last_calls, trace, suspending,
%% current_location, backtrace, binary, async_dist; a dead process; a list.
main() ->
    Me = self(),
    P = spawn(fun() -> loop() end),
    wait_waiting(P),
    io:format("parent is me: ~p~n", [process_info(P, parent) =:= {parent, Me}]),
    Child = spawn_child(P),
    io:format("grandchild's parent: ~p~n", [process_info(Child, parent) =:= {parent, P}]),
    io:format("init's parent: ~p~n", [process_info(whereis(init), parent)]),
    [io:format("~p~n", [process_info(P, I)])
     || I <- [error_handler, last_calls, trace, suspending, message_queue_data]],
    {current_location, {M, F, A, Loc}} = process_info(P, current_location),
    io:format("current_location: ~p ~p ~p ~p~n", [M, F, A, is_list(Loc)]),
    {current_location, {M1, F1, A1, _}} = process_info(self(), current_location),
    io:format("my location: ~p ~p ~p~n", [M1, F1, A1]),
    {backtrace, B} = process_info(P, backtrace),
    io:format("backtrace binary: ~p~n", [is_binary(B) andalso byte_size(B) > 0]),
    {binary, Bins} = process_info(P, binary),
    io:format("binary list: ~p~n", [is_list(Bins)]),
    io:format("list: ~p~n", [process_info(P, [error_handler, last_calls, suspending,
                                               min_heap_size, fullsweep_after])]),
    Release = list_to_integer(erlang:system_info(otp_release)),
    AsyncDist = (catch process_info(P, async_dist)),
    io:format("async_dist: ~p~n",
              [case Release >= 26 of
                   true -> AsyncDist =:= {async_dist, false};
                   false -> element(1, element(2, AsyncDist)) =:= badarg
               end]),
    Items = [garbage_collection, garbage_collection_info, min_heap_size,
             min_bin_vheap_size, max_heap_size, fullsweep_after, message_queue_data,
             catchlevel, error_handler, current_location, last_calls, parent, trace,
             suspending, binary, backtrace],
    P ! stop,
    Child ! stop,
    wait_dead(P),
    io:format("dead: ~p~n", [[process_info(P, I) || I <- Items]]),
    io:format("dead list: ~p~n", [process_info(P, Items)]),
    io:format("dead bad: ~p~n", [catch element(1, element(2, catch process_info(P, [parent, bogus])))]),
    ok.

loop() -> receive stop -> ok; {spawn, From} -> From ! {child, spawn(fun loop/0)}, loop() end.

spawn_child(P) -> P ! {spawn, self()}, receive {child, C} -> C end.

wait_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(5), wait_waiting(P)
    end.

wait_dead(P) ->
    case is_process_alive(P) of
        false -> ok;
        true -> timer:sleep(5), wait_dead(P)
    end.
