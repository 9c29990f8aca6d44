%% A server for beamr ctl's tests (beamr-cli/tests/ctl_*.rs): a request
%% loop behind a registered name, answering through ctl_answer (which a
%% test reloads) after a slow function, and a registered process whose
%% queue holds three messages it never reads, and a gen_server of its
%% callbacks below (registered ctl_counter, its state {counter, 42}). It prints its pid and its
%% atom limit once ready, and runs until stopped.
-module(ctl_server).
-export([main/0, ask/1]).
-behaviour(gen_server).
-export([init/1, handle_call/3, handle_cast/2]).

main() ->
    register(ctl_server, self()),
    Sink = spawn(fun() -> receive never_sent -> ok end end),
    register(ctl_sink, Sink),
    [Sink ! {queued, N} || N <- [1, 2, 3]],
    {ok, _} = gen_server:start({local, ctl_counter}, ?MODULE, 42, []),
    io:format("ready ~p ~p~n", [self(), erlang:system_info(atom_limit)]),
    loop().

loop() ->
    receive
        {ask, From, N} ->
            From ! {answer, ctl_answer:answer(slow(N))},
            loop()
    end.

%% A request to the server, as a client process makes it (a test's eval
%% calls this: beamr's erl_eval cannot evaluate a receive yet).
ask(N) ->
    ctl_server ! {ask, self(), N},
    receive {answer, A} -> A after 10000 -> timeout end.

%% The slow function behind every request.
slow(N) ->
    timer:sleep(N),
    N.

init(N) -> {ok, {counter, N}}.

handle_call(get, _From, State) -> {reply, State, State}.

handle_cast(_, State) -> {noreply, State}.
