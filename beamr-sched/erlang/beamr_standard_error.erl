%% The `standard_error' process: serves the Erlang I/O protocol's output
%% requests for standard error, as erl's standard_error does
%% (io:format(standard_error, ...), the reports of `gleam run'). Writing is
%% native: beamr_io:put_error_chars/3. The device starts in standard
%% output's encoding (beamr_io:encoding/0); io:setopts/2 changes it. It
%% reads nothing: input requests get {error, enotsup}.
%%
%% Compiled into beamr_standard_error.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_standard_error.erl
-module(beamr_standard_error).
-export([start/0]).

%% beamr registers the process as `standard_error' before it first runs.
start() ->
    loop(beamr_io:encoding()).

loop(Device) ->
    receive
        {io_request, From, ReplyAs, Request} ->
            {Reply, Device1} = request(Request, Device),
            From ! {io_reply, ReplyAs, Reply},
            loop(Device1);
        _Other ->
            loop(Device)
    end.

%% As erl's standard_error answers: from OTP 26 on it is a terminal-like
%% device with more options, from OTP 28 on saying it is no terminal.
request(getopts, Device) ->
    Release = erlang:system_info(otp_release),
    Options = if
                  Release >= "28" -> [{onlcr, false}, {log, none}, {terminal, false}];
                  Release >= "26" -> [{onlcr, false}, {log, none}];
                  true -> []
              end,
    {[{encoding, Device} | Options], Device};
request({setopts, Opts}, Device) ->
    case encoding_opt(Opts, Device) of
        E when E =:= latin1; E =:= unicode; E =:= utf8 ->
            {ok, encoding(E)};
        _ ->
            {{error, enotsup}, Device}
    end;
request({get_geometry, columns}, Device) ->
    {geometry(beamr_io:error_columns()), Device};
request({get_geometry, rows}, Device) ->
    {geometry(beamr_io:error_rows()), Device};
request({requests, Requests}, Device) ->
    {requests(Requests, Device, ok), Device};
request(Request, Device) ->
    {request1(Request, Device), Device}.

%% The last `{encoding, E}' in the options (this module runs without OTP's
%% library too: no proplists).
encoding_opt([{encoding, E} | Rest], _) -> encoding_opt(Rest, E);
encoding_opt([_ | Rest], E) -> encoding_opt(Rest, E);
encoding_opt([], E) -> E.

%% The size itself on a terminal (io:columns/1 makes it {ok, N}).
geometry({ok, N}) -> N;
geometry(Error) -> Error.

encoding(utf8) -> unicode;
encoding(E) -> E.

%% Output requests (beamr_output), written natively in the device's
%% encoding: beamr_io:put_error_chars/3.
request1(Request, Device) ->
    Write = fun(Encoding, Chars) -> beamr_io:put_error_chars(Encoding, Chars, Device) end,
    case beamr_output:request(Request, Write) of
        {ok, Reply} -> Reply;
        not_output -> {error, enotsup}
    end.

requests([], _Device, Result) ->
    Result;
requests([R | Rs], Device, ok) ->
    requests(Rs, Device, request1(R, Device));
requests(_, _Device, Error) ->
    Error.
