%% The group leader of beamr's processes: serves the Erlang I/O protocol
%% for standard output, as OTP's `user' process does for `erl -noshell'
%% (a latin1 device, or from OTP 26 a unicode one in a UTF-8 locale:
%% beamr_io:encoding/0 says which). Writing is native: beamr_io:put_chars/2.
%%
%% Compiled into beamr_group_leader.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_group_leader.erl
%% (the test beamr-sched/tests/embedded_beams.rs checks the committed .beam is current).
-module(beamr_group_leader).
-export([start/0]).

start() ->
    loop().

loop() ->
    receive
        {io_request, From, ReplyAs, Request} ->
            Reply = request(Request),
            From ! {io_reply, ReplyAs, Reply},
            loop();
        _Other ->
            loop()
    end.

request({put_chars, Encoding, Chars}) ->
    put_chars(Encoding, Chars);
%% A failing formatter is reported as OTP's `user' does: {error, put_chars}.
request({put_chars, Encoding, Module, Function, Args}) ->
    try apply(Module, Function, Args) of
        Chars -> put_chars(Encoding, Chars)
    catch
        _:_ -> {error, put_chars}
    end;
request({put_chars, Chars}) ->
    put_chars(latin1, Chars);
request({put_chars, Module, Function, Args}) ->
    request({put_chars, latin1, Module, Function, Args});
request({requests, Requests}) ->
    requests(Requests, ok);
request(getopts) ->
    [{binary, false}, {encoding, beamr_io:encoding()}];
request({setopts, _Opts}) ->
    ok;
request({get_geometry, _}) ->
    {error, enotsup};
request({get_chars, _, _, _}) ->
    eof;
request({get_chars, _, _, _, _}) ->
    eof;
request({get_line, _, _}) ->
    eof;
request({get_line, _}) ->
    eof;
request({get_until, _, _, _, _, _}) ->
    eof;
request(_) ->
    {error, request}.

requests([], Result) ->
    Result;
requests([R | Rs], ok) ->
    requests(Rs, request(R));
requests(_, Error) ->
    Error.

%% Data that is not chardata is refused as OTP's `user' refuses it.
put_chars(Encoding, Chars) ->
    case beamr_io:put_chars(Encoding, Chars) of
        error -> {error, put_chars};
        Reply -> Reply
    end.
