-module(sys_info_items).
-export([main/0]).

%% erlang:system_info/1: the items OTP's tools ask for, printed where the
%% value is fixed for a release, as relations where it depends on the
%% machine or the moment.
main() ->
    Fixed = [otp_release, version, machine, wordsize, {wordsize, internal},
             {wordsize, external}, build_type, emu_type, emu_flavor, heap_type,
             kernel_poll, smp_support, threads, thread_pool_size,
             dirty_io_schedulers, multi_scheduling, multi_scheduling_blockers,
             dynamic_trace, dynamic_trace_probes, context_reductions,
             process_limit, atom_limit, ets_limit, dist_buf_busy_limit,
             min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size,
             garbage_collection, message_queue_data, scheduler_bind_type,
             cpu_quota, update_cpu_info, break_ignored, lock_counting,
             lock_checking, debug_compiled, port_parallelism,
             outstanding_system_requests_limit, delayed_node_table_gc,
             ets_always_compress, eager_check_io, nif_version, driver_version,
             system_architecture, creation, dist_ctrl],
    [io:format("~p: ~p~n", [I, erlang:system_info(I)]) || I <- Fixed],
    Release = erlang:system_info(otp_release),
    Version = erlang:system_info(version),
    SysVersion = erlang:system_info(system_version),
    Prefix = "Erlang/OTP " ++ Release ++ " [erts-" ++ Version ++ "]",
    io:format("system_version ~p ~p~n",
              [lists:prefix(Prefix, SysVersion), lists:last(SysVersion)]),
    S = erlang:system_info(schedulers),
    io:format("schedulers ~p~n",
              [{S >= 1, S =:= erlang:system_info(schedulers_online),
                erlang:system_info(logical_processors) >= 1,
                erlang:system_info(dirty_cpu_schedulers) =:= S}]),
    io:format("process_count ~p~n",
              [erlang:system_info(process_count) =:= length(processes())]),
    P0 = erlang:system_info(port_count),
    Port = open_port({spawn, "cat"}, []),
    P1 = erlang:system_info(port_count),
    io:format("port_count ~p~n", [{P1 - P0, P1 =:= length(erlang:ports()),
                                   erlang:system_info(port_limit) > P1}]),
    port_close(Port),
    A0 = erlang:system_info(atom_count),
    _ = list_to_atom("sys_info_items_" ++ integer_to_list(erlang:phash2(make_ref()))),
    A1 = erlang:system_info(atom_count),
    io:format("atom_count ~p~n", [A1 - A0]),
    E0 = erlang:system_info(ets_count),
    T = ets:new(t, []),
    E1 = erlang:system_info(ets_count),
    io:format("ets_count ~p~n", [{E1 - E0, E1 =:= length(ets:all())}]),
    ets:delete(T),
    %% The BEAM frees a deleted table (and lowers the count) after its
    %% schedulers pass a thread-progress point, so wait for it.
    %% Polled up to 6000 times (30 s or more): it takes milliseconds.
    io:format("ets_count after delete ~p~n", [ets_count_back(E0, 6000)]),
    Bad = [bad_item, "version", 42, {wordsize, bad}, {bad, internal}, instruction_counts],
    [io:format("~p: ~p~n", [B, catch erlang:system_info(B)]) || B <- Bad],
    ok.

ets_count_back(E0, 0) -> erlang:system_info(ets_count) - E0;
ets_count_back(E0, N) ->
    case erlang:system_info(ets_count) of
        E0 -> 0;
        _ -> timer:sleep(5), ets_count_back(E0, N - 1)
    end.
