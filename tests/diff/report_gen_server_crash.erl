%% A gen_server whose callback fails prints `** Generic server ...
%% terminating` (last message, state, reason) and a crash report
%% (report_gen_server_call_crash: a caller waiting on the crash).
-module(report_gen_server_crash).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

main() ->
    process_flag(trap_exit, true),
    {ok, P} = gen_server:start_link(?MODULE, #{count => 1}, []),
    gen_server:cast(P, crash),
    receive {'EXIT', P, _} -> logger_sync:wait(), io:format("cast crash~n") end,
    {ok, P2} = gen_server:start_link({local, rgsc_named}, ?MODULE, [state, list], []),
    gen_server:cast(P2, {stop, {shutdown, ok}}),
    receive {'EXIT', P2, R2} -> logger_sync:wait(), io:format("shutdown: ~p~n", [R2]) end,
    {ok, P3} = gen_server:start_link({local, rgsc_named}, ?MODULE, [], []),
    P3 ! unexpected_info,
    receive {'EXIT', P3, _} -> logger_sync:wait(), io:format("info crash~n") end,
    {ok, P4} = gen_server:start_link(?MODULE, [], []),
    gen_server:cast(P4, {stop, custom_reason}),
    receive {'EXIT', P4, R4} -> logger_sync:wait(), io:format("stop: ~p~n", [R4]) end,
    {error, {init_failed, _}} = gen_server:start_link(?MODULE, crash, []),
    %% OTP 26 on takes the 'EXIT' of a failed start out of the mailbox.
    receive {'EXIT', _, _} -> ok after 100 -> ok end,
    logger_sync:wait(),
    io:format("init crash~n"),
    io:format("done~n").

init(crash) -> error(init_failed);
init(State) -> {ok, State}.

handle_call(crash, _From, State) -> {reply, 1 / (maps:get(count, State) - 1), State}.

handle_cast(crash, State) -> {noreply, 1 / (maps:get(count, State) - 1)};
handle_cast({stop, Reason}, State) -> {stop, Reason, State}.

handle_info(Msg, State) -> {stop, {unexpected, Msg}, State}.
