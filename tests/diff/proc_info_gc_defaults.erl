-module(proc_info_gc_defaults).
-export([main/0]).

%% A fresh process's garbage-collection items: their shape, the
%% defaults, and process_info/1's default item list.
main() ->
    P = spawn(fun() -> receive stop -> ok end end),
    {garbage_collection, GC} = process_info(P, garbage_collection),
    io:format("gc keys: ~p~n", [[K || {K, _} <- GC]]),
    io:format("max_heap_size: ~p~n", [max_heap(proplists:get_value(max_heap_size, GC))]),
    io:format("min_bin_vheap_size: ~p~n", [proplists:get_value(min_bin_vheap_size, GC)]),
    io:format("min_heap_size: ~p~n", [proplists:get_value(min_heap_size, GC)]),
    io:format("fullsweep_after: ~p~n", [proplists:get_value(fullsweep_after, GC)]),
    io:format("minor_gcs integer: ~p~n", [is_integer(proplists:get_value(minor_gcs, GC))]),
    {garbage_collection_info, Info} = process_info(P, garbage_collection_info),
    io:format("gc info keys: ~p~n", [[K || {K, _} <- Info]]),
    io:format("gc info integers: ~p~n", [lists:all(fun({_, V}) -> is_integer(V) andalso V >= 0 end, Info)]),
    [io:format("~p: ~p~n", [I, process_info(P, I)])
     || I <- [min_heap_size, min_bin_vheap_size, fullsweep_after, message_queue_data]],
    {max_heap_size, M} = process_info(P, max_heap_size),
    io:format("max_heap_size item: ~p~n", [max_heap(M)]),
    io:format("same as system_info: ~p~n", [M =:= erlang:system_info(max_heap_size)]),
    io:format("process_info/1 keys: ~p~n", [[K || {K, _} <- process_info(P)]]),
    register(proc_info_gc_defaults_p, P),
    io:format("registered keys: ~p~n", [[K || {K, _} <- process_info(P)]]),
    {garbage_collection, GC1} = lists:keyfind(garbage_collection, 1, process_info(P)),
    io:format("process_info/1 gc keys: ~p~n", [[K || {K, _} <- GC1]]),
    P ! stop,
    ok.

%% The keys every release shows (OTP 27 added include_shared_binaries).
max_heap(M) ->
    maps:with([size, kill, error_logger], M).
