%% gen_server failures seen by callers: a crash in handle_call exits the
%% caller's call, a linked trapping caller gets the EXIT, a monitor sees the
%% reason; init crashing makes start_link return an error. The logger is
%% on: each failure's `** Generic server` and crash reports are written
%% (settle/0 waits for them) before the program prints what it saw.
-module(otp_gen_server_crash).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).

main() ->
    process_flag(trap_exit, true),
    {ok, P} = gen_server:start_link(?MODULE, ok, []),
    Ref = monitor(process, P),
    R = try gen_server:call(P, {exit, boom}) catch exit:{Reason, {gen_server, call, [P, {exit, boom}]}} -> {caught, Reason} end,
    settle(),
    io:format("call: ~p~n", [R]),
    receive {'DOWN', Ref, process, P, Why} -> io:format("down: ~p~n", [Why]) end,
    receive {'EXIT', P, Why2} -> io:format("exit: ~p~n", [Why2]) end,
    %% An error in a callback: the reason carries a stack trace.
    {ok, P2} = gen_server:start_link(?MODULE, ok, []),
    R2 = try gen_server:call(P2, badmatch) catch exit:{{{badmatch, 2}, Trace}, _} -> {badmatch, is_list(Trace)} end,
    settle(),
    io:format("call: ~p~n", [R2]),
    receive {'EXIT', P2, {{badmatch, 2}, _}} -> io:format("exit badmatch~n") end,
    %% A bad return value from a callback.
    {ok, P3} = gen_server:start_link(?MODULE, ok, []),
    gen_server:cast(P3, bad_return),
    receive {'EXIT', P3, W3} -> settle(), io:format("bad return: ~p~n", [W3]) end,
    %% init crashing.
    Procs = length(processes()),
    InitCrash = gen_server:start_link(?MODULE, crash, []),
    logger_sync:wait_processes(Procs),
    io:format("init crash: ~p~n", [InitCrash]),
    receive {'EXIT', _, W4} -> io:format("exit after init crash: ~p~n", [W4])
    after 2000 -> io:format("no exit after init crash~n")
    end,
    InitError = gen_server:start(?MODULE, error, []),
    logger_sync:wait_processes(Procs),
    io:format("init error: ~p~n", [element(1, InitError)]),
    io:format("done~n").

init(crash) -> exit(init_crashed);
init(error) -> error(init_error);
init(ok) -> {ok, state}.

handle_call({exit, R}, _From, _S) -> exit(R);
handle_call(badmatch, _From, S) -> 1 = two(), {reply, ok, S}.

handle_cast(bad_return, _S) -> what_is_this.

handle_info(_, S) -> {noreply, S}.

two() -> 2.

%% The reports of a process that ended are handed to the handler before
%% its end is seen: wait for the handler to write them.
settle() ->
    logger_sync:wait().
