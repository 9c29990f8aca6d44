%% gen_server timeouts: init and callback timeouts, {timeout, ...} info,
%% hibernate, continue, and the caller trapping the server's exit.
-module(otp_gen_server_timeout).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, handle_continue/2, terminate/2]).

main() ->
    Self = self(),
    {ok, P} = gen_server:start_link(?MODULE, Self, []),
    receive {continued, first} -> io:format("handle_continue after init~n") end,
    receive {timed_out, 1} -> io:format("timeout from init~n") end,
    ok = gen_server:cast(P, {timeout_in, 10}),
    receive {timed_out, 2} -> io:format("timeout from cast~n") end,
    io:format("call with timeout: ~p~n", [gen_server:call(P, with_timeout)]),
    receive {timed_out, 3} -> io:format("timeout from call~n") end,
    io:format("hibernate: ~p~n", [gen_server:call(P, hibernate)]),
    io:format("after hibernate: ~p~n", [gen_server:call(P, count)]),
    io:format("continue: ~p~n", [gen_server:call(P, continue)]),
    receive {continued, second} -> io:format("continued from call~n") end,
    %% A message cancels the pending timeout. The server is suspended while
    %% both are sent, so that the poke is queued when the timeout starts,
    %% however long a loaded machine takes between the two sends.
    ok = sys:suspend(P),
    ok = gen_server:cast(P, {timeout_in, 200}),
    P ! poke,
    ok = sys:resume(P),
    receive {poked, _} -> io:format("poked~n") end,
    receive {timed_out, N} -> io:format("unexpected ~p~n", [N]) after 400 -> io:format("no timeout after poke~n") end,
    %% erlang:start_timer messages arrive as info.
    io:format("timer: ~p~n", [gen_server:call(P, {start_timer, 5})]),
    receive {timer_fired, ok} -> io:format("timer fired~n") end,
    %% The timeout only ends a stop that hangs: long, for a loaded machine.
    ok = gen_server:stop(P, {shutdown, bye}, 60000),
    receive {'EXIT', P, R} -> io:format("exit ~p~n", [R]) end,
    io:format("done~n").

init(Parent) -> {ok, #{parent => Parent, count => 0}, {continue, first}}.

handle_continue(Tag, S = #{parent := P, count := C}) ->
    P ! {continued, Tag},
    case Tag of
        first -> {noreply, S#{count := C + 1}, 10};
        _ -> {noreply, S}
    end.

handle_call(with_timeout, _From, S) -> {reply, ok, S, 10};
handle_call(hibernate, _From, S) -> {reply, ok, S, hibernate};
handle_call(count, _From, S = #{count := C}) -> {reply, C, S};
handle_call(continue, _From, S) -> {reply, ok, S, {continue, second}};
handle_call({start_timer, Ms}, _From, S) ->
    Ref = erlang:start_timer(Ms, self(), tick),
    {reply, is_reference(Ref), S#{timer => Ref}}.

handle_cast({timeout_in, Ms}, S) -> {noreply, S, Ms}.

handle_info(timeout, S = #{parent := P, count := C}) ->
    P ! {timed_out, C},
    {noreply, S#{count := C + 1}};
handle_info(poke, S = #{parent := P}) ->
    P ! {poked, self()},
    {noreply, S};
handle_info({timeout, Ref, tick}, S = #{parent := P, timer := Ref}) ->
    P ! {timer_fired, ok},
    {noreply, S}.

terminate(_Reason, _S) -> ok.
