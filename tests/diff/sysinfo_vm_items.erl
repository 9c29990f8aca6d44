%% erlang:system_info/1's items about the machine itself and its text
%% reports (info, loaded, procs, dist, allocator, c_compiler_used,
%% check_io, the clocks, scheduler_id, taints, compat_rel, emu_args,
%% cpu_topology): the shapes erl gives, printed as facts, since the
%% contents describe each runtime's own machinery.
-module(sysinfo_vm_items).
-export([main/0]).

p(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

has(Bin, Text) -> binary:match(Bin, list_to_binary(Text)) =/= nomatch.

is_proplist(L) -> is_list(L) andalso lists:all(fun({K, _}) -> is_atom(K); (_) -> false end, L).

topology_ok(undefined) ->
    ok;
topology_ok(Levels) when is_list(Levels) ->
    Ids = lists:sort(logical_ids(Levels)),
    Ids =:= lists:usort(Ids) andalso length(Ids) =:= erlang:system_info(logical_processors)
        andalso ok.

logical_ids({logical, Id}) -> [Id];
logical_ids({_Level, Sub}) -> logical_ids(Sub);
logical_ids({_Level, _Info, Sub}) -> logical_ids(Sub);
logical_ids(List) when is_list(List) -> lists:append([logical_ids(X) || X <- List]).

error_of(F) ->
    try F() of V -> {returned, V} catch Class:Reason -> {Class, Reason} end.

main() ->
    Info = erlang:system_info(info),
    p("info", {is_binary(Info), binary:part(Info, 0, 8), has(Info, "\ntotal: ")}),
    Loaded = erlang:system_info(loaded),
    p("loaded", {is_binary(Loaded), binary:part(Loaded, 0, 14), has(Loaded, "\nOld code: "),
                 has(Loaded, "\n" ++ atom_to_list(?MODULE) ++ " "),
                 has(Loaded, "\nlists ")}),
    Procs = erlang:system_info(procs),
    p("procs", {is_binary(Procs), binary:part(Procs, 0, 6),
                has(Procs, "=proc:" ++ pid_to_list(self()) ++ "\nState: Running\n"),
                has(Procs, "\nName: init\n"), has(Procs, "\nSpawned as: "),
                has(Procs, "\nMessage queue length: ")}),
    p("dist", erlang:system_info(dist)),
    {Alloc, Version, Features, Settings} = erlang:system_info(allocator),
    p("allocator", {is_atom(Alloc), is_list(Version), is_list(Features), is_list(Settings)}),
    p("allocator sys_alloc", [case erlang:system_info({K, A}) of
                                  false -> ok;
                                  L when is_list(L) -> ok
                              end || K <- [allocator, allocator_sizes],
                                     A <- [sys_alloc, binary_alloc, eheap_alloc]]),
    p("allocator bad", [element(1, error_of(fun() -> erlang:system_info({K, A}) end))
                        || K <- [allocator, allocator_sizes], A <- [no_such_alloc, 42]]),
    {Compiler, CVersion} = erlang:system_info(c_compiler_used),
    p("c_compiler_used", {is_atom(Compiler), is_tuple(CVersion) orelse CVersion =:= undefined}),
    CheckIo = erlang:system_info(check_io),
    p("check_io", {is_list(CheckIo), CheckIo =/= [], lists:all(fun is_proplist/1, CheckIo),
                   lists:all(fun(S) -> lists:keymember(max_fds, 1, S) end, CheckIo)}),
    Start = erlang:system_info(start_time),
    End = erlang:system_info(end_time),
    Now = erlang:monotonic_time(),
    p("start/end", {is_integer(Start), is_integer(End), Start =< Now, Now < End}),
    [begin
         Source = erlang:system_info(Clock),
         p(atom_to_list(Clock), {is_proplist(Source), proplists:get_value(function, Source),
                                 is_atom(proplists:get_value(clock_id, Source)),
                                 is_integer(proplists:get_value(resolution, Source)),
                                 is_integer(proplists:get_value(time, Source))})
     end || Clock <- [os_monotonic_time_source, os_system_time_source]],
    Id = erlang:system_info(scheduler_id),
    p("scheduler_id", {is_integer(Id), Id >= 1, Id =< erlang:system_info(schedulers)}),
    p("taints", is_list(erlang:system_info(taints))),
    p("compat_rel", erlang:system_info(compat_rel)
                    =:= list_to_integer(erlang:system_info(otp_release))),
    Args = erlang:system_info(emu_args),
    p("emu_args", {is_list(Args), Args =/= [], lists:all(fun io_lib:char_list/1, Args)}),
    %% erl run through chroot (OTP 27, 29 here) sees no /sys and answers
    %% undefined; where there is a topology its logical ids are the machine's.
    p("cpu_topology", [topology_ok(erlang:system_info(T))
                       || T <- [cpu_topology, {cpu_topology, detected}, {cpu_topology, used}]]),
    p("cpu_topology defined", erlang:system_info({cpu_topology, defined})),
    p("bad items", [error_of(fun() -> erlang:system_info(I) end)
                    || I <- [no_such_item, "info", {info}, {allocator, sys_alloc, x}]]).
