%% diff-requires-otp: 26
%% call_memory trace patterns (OTP 26+): per process traced with call,
%% the calls of a function and the heap words it allocated itself (not in
%% the call_memory functions it called); pause, restart and false; what
%% trace_info answers (shape and relations only: the words are the
%% runtime's); the badargs.
-module(trace_call_memory).
-export([main/0, alloc/1, outer/1, noalloc/1]).

alloc(N) -> lists:seq(1, N).

noalloc(X) -> X.

%% Its own list, and alloc's, which is not counted here.
outer(N) -> length(alloc(N)) + length(lists:seq(1, N)).

main() ->
    Self = self(),
    Names = #{Self => main},
    [show(Names, erlang:trace_pattern({?MODULE, F, 1}, true, [call_memory]))
     || F <- [alloc, outer, noalloc]],
    %% No process is traced with call yet: nothing counted.
    ?MODULE:alloc(10),
    show(Names, erlang:trace_info({?MODULE, alloc, 1}, call_memory)),
    show(Names, erlang:trace_info({?MODULE, alloc, 1}, all)),
    1 = erlang:trace(self(), true, [call, set_on_spawn]),
    ?MODULE:alloc(100),
    ?MODULE:alloc(100),
    ?MODULE:outer(50),
    ?MODULE:noalloc(x),
    P = spawn(fun() -> ?MODULE:alloc(10), Self ! done end),
    receive done -> ok end,
    Names2 = Names#{P => p},
    {call_memory, Rows} = erlang:trace_info({?MODULE, alloc, 1}, call_memory),
    io:format("alloc:~n"),
    [io:format("  ~p ~p calls, ~p words at least, ~p~n",
               [trace_names:name(Pid, Names2), Calls, Least, Words >= Least])
     || {Pid, Calls, Words} <- lists:sort(Rows),
        Least <- [2 * (case Pid of Self -> 250; _ -> 10 end)]],
    {call_memory, [{Self, 1, Outer}]} = erlang:trace_info({?MODULE, outer, 1}, call_memory),
    io:format("outer: its own list only ~p~n", [Outer >= 100 andalso Outer < 150]),
    {call_memory, [{Self, 1, None}]} = erlang:trace_info({?MODULE, noalloc, 1}, call_memory),
    io:format("noalloc: next to nothing ~p~n", [None < 10]),
    {all, All} = erlang:trace_info({?MODULE, alloc, 1}, all),
    show(Names2, [{K, shape(V)} || {K, V} <- All]),
    %% pause keeps the counts; restart empties them; false removes them.
    show(Names2, erlang:trace_pattern({?MODULE, alloc, 1}, pause, [call_memory])),
    ?MODULE:alloc(100),
    {call_memory, Paused} = erlang:trace_info({?MODULE, alloc, 1}, call_memory),
    show(Names2, lists:sort(Paused) =:= lists:sort(Rows)),
    show(Names2, erlang:trace_pattern({?MODULE, alloc, 1}, restart, [call_memory])),
    show(Names2, erlang:trace_info({?MODULE, alloc, 1}, call_memory)),
    ?MODULE:alloc(5),
    {call_memory, [{Self, 1, Five}]} = erlang:trace_info({?MODULE, alloc, 1}, call_memory),
    show(Names2, Five >= 10),
    show(Names2, erlang:trace_pattern({?MODULE, '_', '_'}, false, [call_memory])),
    show(Names2, erlang:trace_info({?MODULE, alloc, 1}, call_memory)),
    show(Names2, erlang:trace_info({?MODULE, alloc, 1}, all)),
    show(Names2, erlang:trace_info(on_load, call_memory)),
    %% With call_time on the same function, each counts its own.
    show(Names2, erlang:trace_pattern({?MODULE, alloc, 1}, true, [call_memory, call_time])),
    ?MODULE:alloc(20),
    {call_memory, [{Self, 1, Twenty}]} = erlang:trace_info({?MODULE, alloc, 1}, call_memory),
    {call_time, [{Self, 1, _, _}]} = erlang:trace_info({?MODULE, alloc, 1}, call_time),
    show(Names2, Twenty >= 40),
    show(Names2, catch erlang:trace_pattern({?MODULE, alloc, 1}, [{'_', [], []}], [call_memory])),
    show(Names2, catch erlang:trace_pattern({?MODULE, alloc, 1}, true, [call_memory, global])),
    erlang:trace(self(), false, [call]).

shape(L) when is_list(L) -> [tuple_size(T) || T <- L];
shape(X) -> X.

show(Names, {'EXIT', {Reason, [{M, F, Args, Location} | _]}}) ->
    Info = proplists:get_value(error_info, Location, #{}),
    io:format("~p~n", [trace_names:name({Reason, {M, F, Args}, maps:get(cause, Info, none)},
                                        Names)]);
show(Names, T) -> io:format("~p~n", [trace_names:name(T, Names)]).
