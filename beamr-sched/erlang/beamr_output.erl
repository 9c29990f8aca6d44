%% The output requests of the Erlang I/O protocol (the `put_chars' forms),
%% served the same way by beamr's two output devices: the group leader
%% (standard output) and `standard_error'. Each gives the function that
%% writes characters on its own stream.
%%
%% Compiled into beamr_output.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_output.erl
-module(beamr_output).
-export([request/2, request/3]).

%% {ok, Reply} for an output request, written with Write(Encoding, Chars)
%% (which answers ok, or error for data that is not chardata);
%% `not_output' for any other request. Errors are answered as OTP 25's
%% `user' and every release's `standard_error' answer them.
request(Request, Write) ->
    request(Request, Write, put_chars).

%% The same, with the errors answered in one of two styles:
%% `put_chars' ({error, put_chars}, as above) or `group' (OTP 26's group
%% leader: {error, F} when the formatter M:F(A...) fails, {error, Request}
%% for data that is not chardata).
request({put_chars, Encoding, Chars} = Request, Write, Style) ->
    {ok, put_chars(Write, Encoding, Chars, failed(Style, Request))};
request({put_chars, Encoding, Module, Function, Args}, Write, Style) ->
    try apply(Module, Function, Args) of
        Chars ->
            Request = {put_chars, Encoding, Chars},
            {ok, put_chars(Write, Encoding, Chars, failed(Style, Request))}
    catch
        _:_ -> {ok, {error, failed(Style, Function)}}
    end;
request({put_chars, Chars}, Write, Style) ->
    request({put_chars, latin1, Chars}, Write, Style);
request({put_chars, Module, Function, Args}, Write, Style) ->
    request({put_chars, latin1, Module, Function, Args}, Write, Style);
request(_, _Write, _Style) ->
    not_output.

%% What an error names in each style.
failed(put_chars, _What) -> put_chars;
failed(group, What) -> What.

%% Data that is not chardata is refused as OTP's `user' refuses it.
put_chars(Write, Encoding, Chars, Failed) ->
    case Write(Encoding, Chars) of
        error -> {error, Failed};
        Reply -> Reply
    end.
