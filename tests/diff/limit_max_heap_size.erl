%% max_heap_size enforced (issue 34): a process whose heap passes its limit
%% is killed (reason killed, which no catch stops; a linked trapping process
%% gets {'EXIT', P, killed}) and reported to the logger with erts's report
%% (only what does not depend on the heap's layout is printed: the format's
%% lines, the limit, kill, error_logger, the queue length, that the total
%% passed the limit, the GC Info keys); set by spawn_opt, by process_flag,
%% and as the default of new processes by erlang:system_flag; kill => false
%% lets the process go on (reported at each collection past the limit); include_shared_binaries (OTP 27+) counts
%% off-heap binaries.
-module(limit_max_heap_size).
-export([main/0, log/2]).

%% A logger handler that sends the test process each max_heap report.
log(#{msg := {Format, Args}}, #{config := #{to := To}}) when is_list(Format) ->
    case string:find(Format, "maximum heap size reached") of
        nomatch -> ok;
        _ -> To ! {report, Format, Args}
    end;
log(_, _) -> ok.

main() ->
    ok = logger:remove_handler(default),
    ok = logger:add_handler(cap, ?MODULE, #{config => #{to => self()}}),
    Limit = #{size => 100000, kill => true, error_logger => true},
    case_("spawn_opt, killed and reported", fun grow/0, [{max_heap_size, Limit}]),
    case_("no report", fun grow/0, [{max_heap_size, Limit#{error_logger => false}}]),
    case_("not killed", fun() -> grow(60000, []), done end,
          [{max_heap_size, Limit#{kill => false, error_logger => false}}]),
    case_("not killed, reported", fun() -> grow(60000, []), done end,
          [{max_heap_size, Limit#{kill => false}}]),
    case_("a catch does not stop it",
          fun() -> try grow() catch _:_ -> caught end end, [{max_heap_size, Limit}]),
    case_("process_flag",
          fun() -> process_flag(max_heap_size, Limit), grow() end, []),
    case_("a plain size", fun grow/0, [{max_heap_size, 100000}]),
    case_("size 0: no limit", fun() -> grow(60000, []), done end,
          [{max_heap_size, Limit#{size => 0}}]),
    %% A linked process that traps exits.
    process_flag(trap_exit, true),
    P = spawn_opt(fun grow/0, [link, {max_heap_size, Limit#{error_logger => false}}]),
    receive {'EXIT', P, Why} -> io:format("linked: ~p~n", [Why]) end,
    process_flag(trap_exit, false),
    %% The default of new processes.
    Old = erlang:system_flag(max_heap_size, Limit),
    io:format("system_flag old: ~p~n", [Old]),
    io:format("system_info: ~p~n", [erlang:system_info(max_heap_size)]),
    case_("the system default", fun grow/0, []),
    Q = spawn(fun() -> receive stop -> ok end end),
    io:format("process_info: ~p~n", [process_info(Q, max_heap_size)]),
    Q ! stop,
    io:format("restored: ~p~n", [erlang:system_flag(max_heap_size, Old)]),
    io:format("system_info: ~p~n", [erlang:system_info(max_heap_size)]),
    io:format("bad: ~p~n", [bad(-1)]),
    io:format("bad: ~p~n", [bad(#{kill => true})]),
    io:format("other keys: ~p~n", [bad(#{size => 1000, other => 1})]),
    io:format("restored: ~p~n", [erlang:system_flag(max_heap_size, Old)]),
    case_("no default", fun() -> grow(60000, []), done end, []),
    %% Off-heap binaries: 40 of 64 KiB each, about 330,000 words.
    Bins = fun() -> hold([binary:copy(<<1>>, 65536) || _ <- lists:seq(1, 40)]) end,
    case_("shared binaries counted", Bins,
          [{max_heap_size, Limit#{include_shared_binaries => true}}]),
    case_("shared binaries not counted", Bins, [{max_heap_size, Limit}]),
    io:format("done~n").

bad(Value) ->
    try erlang:system_flag(max_heap_size, Value) catch C:R -> {C, R} end.

%% Holds binaries across a collection, then ends.
hold(Bins) ->
    erlang:garbage_collect(),
    _ = [byte_size(B) || B <- Bins],
    erlang:garbage_collect(),
    length(Bins).

grow() -> grow(100000000, []).

grow(0, Acc) -> length(Acc);
grow(N, Acc) -> grow(N - 1, [N | Acc]).

case_(Name, Fun, Opts) ->
    {P, R} = spawn_opt(fun() -> exit({result, Fun()}) end, [monitor | Opts]),
    Why = receive {'DOWN', R, process, P, W} -> W end,
    io:format("~s: ~p~n", [Name, Why]),
    receive
        {report, Format, [P | Args]} ->
            Lines = string:split(Format, "~n", all),
            io:format("  report lines: ~p~n", [[string:trim(hd(string:split(L, ":"))) || L <- Lines]]),
            show(Args)
    after 1000 -> io:format("  no report~n")
    end,
    ok.

show([Max, Total, Kill, Logger, Queue, Info | Rest]) ->
    io:format("  max ~p, over ~p, kill ~p, error_logger ~p, queue ~p~n",
              [Max, Total > Max, Kill, Logger, Queue]),
    io:format("  gc info: ~p~n  more: ~p~n", [[K || {K, _} <- Info], length(Rest)]).

