-module(proc_info_spawn_opt_gc).
-export([main/0]).

%% spawn_opt's garbage-collection options, as process_info shows them,
%% and the options spawn_opt refuses.
main() ->
    Items = [min_heap_size, min_bin_vheap_size, fullsweep_after, message_queue_data],
    lists:foreach(
      fun(Opts) ->
              io:format("~p -> ~p~n", [Opts, spawned(Opts, Items)])
      end,
      [[],
       [{min_heap_size, 0}],
       [{min_heap_size, 300}],
       [{min_heap_size, 1000}],
       [{min_heap_size, 5000}, {fullsweep_after, 7}],
       [{fullsweep_after, 0}],
       [{fullsweep_after, 65535}],
       [{min_bin_vheap_size, 50000}],
       [{message_queue_data, off_heap}],
       [{message_queue_data, on_heap}],
       [{max_heap_size, 100000}],
       [{max_heap_size, #{size => 100000, kill => false, error_logger => false}}],
       [{min_heap_size, 1000}, {max_heap_size, 1000}],
       [{min_heap_size, -1}],
       [{min_heap_size, a}],
       [{min_bin_vheap_size, -1}],
       [{fullsweep_after, -1}],
       [{fullsweep_after, 1.0}],
       [{max_heap_size, -1}],
       [{max_heap_size, 10}],
       [{max_heap_size, #{}}],
       [{max_heap_size, #{kill => false}}],
       [{max_heap_size, #{size => 1000, bogus => 1}}],
       [{max_heap_size, #{size => 1000, kill => 1}}],
       [{min_heap_size, 2000}, {max_heap_size, 1000}],
       [{message_queue_data, mixed}],
       [{error_handler, foo}]]),
    ok.

spawned(Opts, Items) ->
    Me = self(),
    try spawn_opt(fun() -> Me ! {info, [element(2, process_info(self(), I)) || I <- Items] ++ [max_heap(self())]} end, Opts) of
        _ -> receive {info, Info} -> Info end
    catch
        error:Reason -> {error, Reason}
    end.

max_heap(P) ->
    {max_heap_size, M} = process_info(P, max_heap_size),
    maps:with([size, kill, error_logger], M).
