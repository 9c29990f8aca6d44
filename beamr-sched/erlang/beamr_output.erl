%% The output requests of the Erlang I/O protocol (the `put_chars' forms),
%% served the same way by beamr's two output devices: the group leader
%% (standard output) and `standard_error'. Each gives the function that
%% writes characters on its own stream.
%%
%% Compiled into beamr_output.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_output.erl
-module(beamr_output).
-export([request/2]).

%% {ok, Reply} for an output request, written with Write(Encoding, Chars)
%% (which answers ok, or error for data that is not chardata);
%% `not_output' for any other request.
request({put_chars, Encoding, Chars}, Write) ->
    {ok, put_chars(Write, Encoding, Chars)};
%% A failing formatter is reported as OTP's `user' does: {error, put_chars}.
request({put_chars, Encoding, Module, Function, Args}, Write) ->
    try apply(Module, Function, Args) of
        Chars -> {ok, put_chars(Write, Encoding, Chars)}
    catch
        _:_ -> {ok, {error, put_chars}}
    end;
request({put_chars, Chars}, Write) ->
    request({put_chars, latin1, Chars}, Write);
request({put_chars, Module, Function, Args}, Write) ->
    request({put_chars, latin1, Module, Function, Args}, Write);
request(_, _Write) ->
    not_output.

%% Data that is not chardata is refused as OTP's `user' refuses it.
put_chars(Write, Encoding, Chars) ->
    case Write(Encoding, Chars) of
        error -> {error, put_chars};
        Reply -> Reply
    end.
