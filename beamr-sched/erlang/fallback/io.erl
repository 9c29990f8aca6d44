%% A stand-in for OTP's `io' module, embedded in beamr and loaded only when
%% no Erlang/OTP installation provides the real one, so that programs such
%% as examples/hello run on a machine without Erlang. Formatting is native
%% (beamr_io:format/2) and covers the common control sequences; the real
%% `io' runs whenever OTP is installed.
%%
%% Rebuild: erlc +deterministic -o beamr-sched/erlang/fallback beamr-sched/erlang/fallback/io.erl
-module(io).
-export([format/1, format/2, format/3, fwrite/1, fwrite/2, fwrite/3,
         put_chars/1, put_chars/2, nl/0, nl/1, write/1, write/2,
         setopts/1, setopts/2, getopts/0, getopts/1]).

format(Format) -> format(Format, []).
format(Format, Args) -> format(standard_io, Format, Args).
format(Device, Format, Args) ->
    request(Device, {put_chars, unicode, beamr_io, format, [Format, Args]}).

fwrite(Format) -> format(Format).
fwrite(Format, Args) -> format(Format, Args).
fwrite(Device, Format, Args) -> format(Device, Format, Args).

put_chars(Chars) -> put_chars(standard_io, Chars).
put_chars(Device, Chars) -> request(Device, {put_chars, unicode, Chars}).

nl() -> nl(standard_io).
nl(Device) -> put_chars(Device, "\n").

write(Term) -> write(standard_io, Term).
write(Device, Term) -> format(Device, "~w", [Term]).

setopts(Opts) -> setopts(standard_io, Opts).
setopts(Device, Opts) -> request(Device, {setopts, Opts}).

getopts() -> getopts(standard_io).
getopts(Device) -> request(Device, getopts).

request(Device, Request) ->
    Pid = device(Device),
    Ref = erlang:monitor(process, Pid),
    Pid ! {io_request, self(), Ref, Request},
    receive
        {io_reply, Ref, {error, Reason}} ->
            erlang:demonitor(Ref, [flush]),
            erlang:error(Reason);
        {io_reply, Ref, Reply} ->
            erlang:demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, _, _, _} ->
            erlang:error(terminated)
    end.

device(standard_io) -> group_leader();
device(user) -> group_leader();
device(Pid) when is_pid(Pid) -> Pid;
device(Name) when is_atom(Name) ->
    case whereis(Name) of
        undefined -> erlang:error(badarg);
        Pid -> Pid
    end.
