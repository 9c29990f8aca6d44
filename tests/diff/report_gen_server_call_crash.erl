%% A gen_server crashing in handle_call while the caller waits: the
%% `** Generic server ... terminating` report ends with the client's stack
%% trace (process_info(Client, current_stacktrace)).
-module(report_gen_server_call_crash).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

main() ->
    process_flag(trap_exit, true),
    {ok, P} = gen_server:start_link(?MODULE, #{count => 1}, []),
    catch gen_server:call(P, crash),
    receive {'EXIT', P, _} -> logger_sync:wait(), io:format("call crash~n") end,
    io:format("done~n").

init(State) -> {ok, State}.

handle_call(crash, _From, State) -> {reply, 1 / (maps:get(count, State) - 1), State}.

handle_cast(_, State) -> {noreply, State}.
