%% gen_statem: a door lock with state_functions, timeouts, postponing.
-module(otp_gen_statem).
-behaviour(gen_statem).
-export([main/0]).
-export([init/1, callback_mode/0, locked/3, open/3, terminate/3]).

main() ->
    {ok, P} = gen_statem:start_link(?MODULE, [1, 2, 3], []),
    io:format("state: ~p~n", [gen_statem:call(P, state)]),
    [gen_statem:cast(P, {button, D}) || D <- [1, 2, 9]],
    io:format("wrong code: ~p~n", [gen_statem:call(P, state)]),
    [gen_statem:cast(P, {button, D}) || D <- [1, 2, 3]],
    io:format("right code: ~p~n", [gen_statem:call(P, state)]),
    %% In 'open', buttons are postponed until the door locks again.
    gen_statem:cast(P, {button, 7}),
    receive {locked_again, P} -> io:format("locked again by timeout~n") end,
    io:format("after lock: ~p~n", [gen_statem:call(P, state)]),
    io:format("buffer: ~p~n", [gen_statem:call(P, buffer)]),
    io:format("stop: ~p~n", [gen_statem:stop(P)]),
    io:format("done~n").

callback_mode() -> state_functions.

init(Code) ->
    {ok, locked, #{code => Code, buffer => [], owner => hd(get('$ancestors'))}}.

locked(cast, {button, D}, Data = #{code := Code, buffer := Buf}) ->
    NewBuf = lists:sublist(Buf ++ [D], max(0, length(Buf) + 1 - length(Code)) + 1, length(Code)),
    case NewBuf =:= Code of
        %% Long enough that the call right after the code finds the door
        %% open, however loaded the machine; the program waits it once.
        true -> {next_state, open, Data#{buffer := []}, [{state_timeout, 1000, lock}]};
        false -> {keep_state, Data#{buffer := NewBuf}}
    end;
locked({call, From}, state, _Data) ->
    {keep_state_and_data, [{reply, From, locked}]};
locked({call, From}, buffer, #{buffer := Buf}) ->
    {keep_state_and_data, [{reply, From, Buf}]}.

open(state_timeout, lock, Data = #{owner := Owner}) ->
    Owner ! {locked_again, self()},
    {next_state, locked, Data};
open({call, From}, state, _Data) ->
    {keep_state_and_data, [{reply, From, open}]};
open(cast, {button, _}, _Data) ->
    {keep_state_and_data, [postpone]}.

terminate(_Reason, _State, _Data) -> ok.
