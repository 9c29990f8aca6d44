%% The group leader of beamr's processes: serves the Erlang I/O protocol
%% for standard output and standard input, as OTP's `user' process does
%% for `erl -noshell' (a latin1 device, or from OTP 26 a unicode one in a
%% UTF-8 locale: beamr_io:encoding/0 says which). Writing is native:
%% beamr_io:put_chars/2. Reading goes through a port on file descriptor 0
%% ({fd, 0, 1}), opened at the first read: input arrives as the port's
%% messages and is kept until a request consumes it. Every read request
%% (get_line, get_chars, get_until, and so io:read and io:fread) runs the
%% io_lib continuation that OTP's `user' runs (collect_line, collect_chars,
%% get_until), fed with the input as it comes, then `eof' at its end: a
%% request at end of input with nothing left answers `eof'. Input the
%% port sent waits in the mailbox until a read needs it.
%%
%% Compiled into beamr_group_leader.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_group_leader.erl
%% (the test beamr-sched/tests/embedded_beams.rs checks the committed .beam is current).
-module(beamr_group_leader).
-export([start/0]).

start() ->
    loop(#{port => undefined, buffer => <<>>, eof => false, binary => false}).

%% Input the port sent stays in the mailbox until a read wants it, so a
%% program that reads part of its input never waits for the rest.
loop(In) ->
    Port = map_get(port, In),
    receive
        {io_request, From, ReplyAs, Request} ->
            {Reply, In1} = request(Request, In),
            From ! {io_reply, ReplyAs, Reply},
            loop(In1);
        Other when not is_tuple(Other); element(1, Other) =/= Port ->
            loop(In)
    end.

request({get_line, Encoding, Prompt}, In) ->
    read(Encoding, Prompt, io_lib, collect_line, [], In);
request({get_line, Prompt}, In) ->
    read(latin1, Prompt, io_lib, collect_line, [], In);
request({get_chars, Encoding, Prompt, N}, In) ->
    read(Encoding, Prompt, io_lib, collect_chars, N, In);
request({get_chars, Prompt, N}, In) when is_integer(N) ->
    read(latin1, Prompt, io_lib, collect_chars, N, In);
request({get_until, Encoding, Prompt, M, F, As}, In) ->
    read(Encoding, Prompt, io_lib, get_until, {M, F, As}, In);
request({get_until, Prompt, M, F, As}, In) ->
    read(latin1, Prompt, io_lib, get_until, {M, F, As}, In);
request({requests, Requests}, In) ->
    requests(Requests, ok, In);
request(getopts, In) ->
    {[{binary, map_get(binary, In)}, {encoding, beamr_io:encoding()}], In};
request({setopts, Opts}, In) when is_list(Opts) ->
    setopts(Opts, In);
request(Request, In) ->
    {request(Request), In}.

requests([], Result, In) ->
    {Result, In};
requests([R | Rs], ok, In) ->
    {Result, In1} = request(R, In),
    requests(Rs, Result, In1);
requests(_, Error, In) ->
    {Error, In}.

%% The options OTP 25's `user' takes: binary or list mode; an encoding
%% (accepted, the device's own stays); anything else is enotsup.
setopts([], In) ->
    {ok, In};
setopts([binary | Opts], In) ->
    setopts(Opts, In#{binary := true});
setopts([{binary, true} | Opts], In) ->
    setopts(Opts, In#{binary := true});
setopts([list | Opts], In) ->
    setopts(Opts, In#{binary := false});
setopts([{binary, false} | Opts], In) ->
    setopts(Opts, In#{binary := false});
setopts([{encoding, E} | Opts], In) when E =:= latin1; E =:= unicode; E =:= utf8 ->
    setopts(Opts, In);
setopts(_, In) ->
    {{error, enotsup}, In}.

%% One read request: the prompt, then the continuation M:F fed with the
%% input kept, and with more input as it arrives, until it stops. From
%% OTP 26 on, erl's `group' feeds the continuation one line at a time and
%% writes the prompt again before each further line a request needs
%% (io:fread/2 reading past an empty line, say); OTP 25's `user' feeds
%% what it has and prompts once. The input is kept as bytes of the
%% device's encoding and given to the continuation as a binary; what it
%% returns is a binary in binary mode, a list of characters else.
read(Encoding, Prompt, M, F, Xa, In) ->
    Bytes = io_lib:format_prompt(Prompt, Encoding),
    request({put_chars, unicode, Bytes}),
    Again = case erlang:system_info(otp_release) >= "26" of
                true -> Bytes;
                false -> false
            end,
    case In of
        #{buffer := <<>>, eof := true} ->
            {eof, In};
        _ ->
            collect(start, Encoding, M, F, Xa, In, Again)
    end.

collect(State, Encoding, M, F, Xa, In, Again) ->
    Device = beamr_io:encoding(),
    case next_data(In, Again =/= false) of
        wait ->
            collect(State, Encoding, M, F, Xa, more(In), Again);
        {Data, Left} ->
            case catch M:F(State, Data, Device, Xa) of
                {stop, Result, Rest} ->
                    Kept = join(rest(Rest, Device), Left),
                    {result(Result, Device, Encoding, In), In#{buffer := Kept}};
                {'EXIT', _} ->
                    {{error, {error, {M, F, Xa}}}, In#{buffer := <<>>}};
                _State1 when Data =:= eof ->
                    %% A continuation that wants more after end of input.
                    {eof, In#{buffer := <<>>}};
                State1 ->
                    Again =:= false orelse request({put_chars, unicode, Again}),
                    collect(State1, Encoding, M, F, Xa, In#{buffer := Left}, Again)
            end
    end.

%% The input the continuation gets next, and what is kept after it: all
%% of it, or (ByLine) its first line; `wait' until more has arrived.
next_data(#{buffer := <<>>, eof := Eof}, _ByLine) ->
    case Eof of
        true -> {eof, <<>>};
        false -> wait
    end;
next_data(#{buffer := Buffer}, false) ->
    {Buffer, <<>>};
next_data(#{buffer := Buffer, eof := Eof}, true) ->
    case binary:match(Buffer, <<"\n">>) of
        {At, 1} ->
            {binary:part(Buffer, 0, At + 1),
             binary:part(Buffer, At + 1, byte_size(Buffer) - At - 1)};
        nomatch when Eof -> {Buffer, <<>>};
        nomatch -> wait
    end.

%% What a continuation left, as bytes of the device's encoding.
rest(eof, _) -> <<>>;
rest(Rest, _) when is_binary(Rest) -> Rest;
rest(Rest, unicode) -> unicode:characters_to_binary(Rest);
rest(Rest, latin1) -> list_to_binary(Rest).

%% Two pieces of input, one after the other (without a copy when one is
%% empty, as it mostly is).
join(A, <<>>) -> A;
join(<<>>, B) -> B;
join(A, B) -> <<A/binary, B/binary>>.

%% A read's result: data read (a binary of the device's encoding) as
%% the mode and the request's encoding want it; anything else as it is.
result(Data, Device, Encoding, #{binary := true}) when is_binary(Data) ->
    case unicode:characters_to_binary(Data, Device, Encoding) of
        Bin when is_binary(Bin) -> Bin;
        _ -> Data
    end;
result(Data, Device, _, _) when is_binary(Data) ->
    case unicode:characters_to_list(Data, Device) of
        Chars when is_list(Chars) -> Chars;
        _ -> binary_to_list(Data)
    end;
result(Other, _, _, _) ->
    Other.

%% Waits for the next input from standard input (or its end).
more(#{eof := true} = In) ->
    In;
more(#{port := undefined} = In) ->
    Port = open_port({fd, 0, 1}, [in, binary, eof]),
    more(In#{port := Port});
more(#{port := Port} = In) ->
    receive
        {Port, _} = Input ->
            input(Input, In);
        %% Output from other processes is written while a read waits.
        {io_request, From, ReplyAs, Request} when element(1, Request) =:= put_chars ->
            From ! {io_reply, ReplyAs, request(Request)},
            more(In)
    end.

%% Input that arrived: kept after what is kept already.
input({_, {data, Bytes}}, #{buffer := Buffer} = In) ->
    In#{buffer := join(Buffer, Bytes)};
input({_, eof}, In) ->
    In#{eof := true};
input(_, In) ->
    In.

%% Output requests (beamr_output), written natively: beamr_io:put_chars/2.
%% Errors are answered as OTP 25's `user' or, from OTP 26 on, as its
%% `group' (which serves standard output there).
request(Request) ->
    Style = case erlang:system_info(otp_release) >= "26" of
                true -> group;
                false -> put_chars
            end,
    case beamr_output:request(Request, fun beamr_io:put_chars/2, Style) of
        {ok, Reply} -> Reply;
        not_output -> other_request(Request)
    end.

%% As erl's group answers: the number itself on a terminal (io:columns/0
%% turns it into {ok, N}), {error, enotsup} on anything else.
other_request({get_geometry, columns}) ->
    geometry(beamr_io:columns());
other_request({get_geometry, rows}) ->
    geometry(beamr_io:rows());
other_request({get_geometry, _}) ->
    {error, enotsup};
other_request(_) ->
    {error, request}.

geometry({ok, N}) -> N;
geometry(Error) -> Error.
