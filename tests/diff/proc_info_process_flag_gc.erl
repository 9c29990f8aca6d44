-module(proc_info_process_flag_gc).
-export([main/0]).

%% process_flag/2 on the garbage-collection flags, error_handler and
%% message_queue_data: the old value back, the new one in process_info,
%% badarg for bad values. Run in a fresh process each.
main() ->
    run([{min_heap_size, X} || X <- [0, 1, 233, 234, 500, 1000, 100000]]),
    run([{min_bin_vheap_size, X} || X <- [0, 46422, 46423, 100000]]),
    run([{fullsweep_after, X} || X <- [0, 1, 100, 65535, 65536, 1 bsl 40]]),
    %% A small limit neither kills nor logs: erl would act on it.
    run([{max_heap_size, X} || X <- [0, 232, 10000000,
                                      #{size => 233, kill => false, error_logger => false},
                                      #{size => 0},
                                      #{size => 10000, kill => false, error_logger => false},
                                      (1 bsl 59) - 1, 1 bsl 59, 1 bsl 40, 0]]),
    Quiet = fun(N) -> #{size => N, kill => false, error_logger => false} end,
    run([{min_heap_size, 1000}, {max_heap_size, Quiet(500)}, {max_heap_size, Quiet(2000)},
         {min_heap_size, 3000}, {max_heap_size, 0}]),
    run([{message_queue_data, off_heap}, {message_queue_data, on_heap},
         {message_queue_data, mixed}]),
    run([{error_handler, foo}, {error_handler, 'Foo'}, {error_handler, "x"},
         {error_handler, error_handler}]),
    run([{min_heap_size, -1}, {min_heap_size, a}, {min_bin_vheap_size, -1},
         {fullsweep_after, -1}, {max_heap_size, -1}, {max_heap_size, #{size => -1}},
         {max_heap_size, #{foo => 1}}, {max_heap_size, #{size => 1000, kill => 1}},
         {max_heap_size, #{}}, {max_heap_size, [1]}, {bogus_flag, 1}]),
    ok.

run(Flags) ->
    Me = self(),
    spawn(fun() -> Me ! {done, [flag(F, V) || {F, V} <- Flags]} end),
    receive {done, Results} -> [io:format("~p~n", [R]) || R <- Results] end.

flag(F, V) ->
    try process_flag(F, V) of
        Old -> {F, show(Old), show(now_is(F))}
    catch
        error:badarg -> {F, V, badarg}
    end.

now_is(bogus_flag) -> none;
now_is(F) -> element(2, process_info(self(), F)).

show(M) when is_map(M) -> maps:with([size, kill, error_logger], M);
show(V) -> V.
