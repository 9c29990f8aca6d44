%% proc_lib and sys: start_link with init_ack, spawn_link, sys:get_state,
%% replace_state, suspend/resume, get_status's shape.
-module(otp_sys_proc_lib).
-behaviour(gen_server).
-export([main/0, init_it/1]).
-export([init/1, handle_call/3, handle_cast/2]).

main() ->
    %% proc_lib:start_link waits for init_ack.
    {ok, P} = proc_lib:start_link(?MODULE, init_it, [self()]),
    io:format("started: ~p~n", [is_pid(P)]),
    io:format("initial_call: ~p~n", [proc_lib:initial_call(P)]),
    io:format("translated: ~p~n", [proc_lib:translate_initial_call(P)]),
    P ! {ping, self()},
    receive pong -> io:format("pong~n") end,
    %% proc_lib:spawn_link sets '$ancestors'.
    Self = self(),
    proc_lib:spawn_link(fun() -> Self ! {ancestors, get('$ancestors') =:= [Self]} end),
    receive {ancestors, A} -> io:format("ancestors: ~p~n", [A]) end,
    %% sys on a gen_server.
    {ok, G} = gen_server:start_link(?MODULE, #{count => 1}, []),
    io:format("get_state: ~p~n", [sys:get_state(G)]),
    sys:replace_state(G, fun(S) -> S#{count := 99} end),
    io:format("replaced: ~p~n", [gen_server:call(G, get)]),
    ok = sys:suspend(G),
    gen_server:cast(G, inc),
    io:format("suspended: ~p~n", [sys:get_state(G)]),
    ok = sys:resume(G),
    io:format("resumed: ~p~n", [gen_server:call(G, get)]),
    {status, G, {module, gen_server}, _} = sys:get_status(G),
    io:format("status ok~n"),
    P ! stop,
    gen_server:stop(G),
    io:format("done~n").

init_it(Parent) ->
    proc_lib:init_ack(Parent, {ok, self()}),
    loop().

loop() ->
    receive
        {ping, From} -> From ! pong, loop();
        stop -> ok
    end.

init(S) -> {ok, S}.
handle_call(get, _From, S = #{count := C}) -> {reply, C, S}.
handle_cast(inc, S = #{count := C}) -> {noreply, S#{count := C + 1}}.
