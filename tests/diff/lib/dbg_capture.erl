%% Shared by the dbg_* programs (not a program): an io device that keeps
%% what it is given, a dbg handler that prints through dbg's own dhandler
%% into it, a way to wait until the tracer has handled every trace message
%% sent so far, and pids in text replaced by names in order of appearance.
-module(dbg_capture).
-export([device/0, handler/1, sync/0, text/1, normalise/1, print/1, spawn_wide/3]).

%% spawn(M, F, A), with a pid whose text is <0.NNN.0> (three digits):
%% dbg's handler prints the pid before a term it lays out with ~p, so the
%% pid's width moves the term's line breaks, and releases start their
%% programs at different pid numbers (OTP 27 below 100, beamr above).
spawn_wide(M, F, A) ->
    case length(pid_to_list(spawn(fun() -> ok end))) < 9 of
        true -> spawn_wide(M, F, A);
        false -> spawn(M, F, A)
    end.

%% A process that answers the io protocol and keeps the characters.
device() ->
    spawn(fun() -> device_loop([]) end).

device_loop(Acc) ->
    receive
        {io_request, From, ReplyAs, Request} ->
            From ! {io_reply, ReplyAs, ok},
            device_loop([chars(Request) | Acc]);
        {text, From} ->
            From ! {text, lists:flatten(lists:reverse(Acc))},
            device_loop([])
    end.

chars({put_chars, _Enc, Chars}) -> unicode:characters_to_list(Chars);
chars({put_chars, _Enc, M, F, A}) -> chars({put_chars, unicode, apply(M, F, A)});
chars({put_chars, Chars}) -> chars({put_chars, unicode, Chars});
chars({put_chars, M, F, A}) -> chars({put_chars, unicode, apply(M, F, A)});
chars(_) -> [].

%% A dbg handler ({Fun, State}) that formats with dbg:dhandler/2 into
%% Device, and answers sync/0's marker (a message shaped as a trace
%% message, since dbg's tracer passes its handler nothing else).
handler(Device) ->
    {fun({trace, From, dbg_capture_sync}, D) -> From ! synced, D;
        (Msg, D) -> dbg:dhandler(Msg, D)
     end, Device}.

%% Waits until every trace message so far reached dbg's tracer process and
%% was handled.
sync() ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    {ok, Tracer} = dbg:get_tracer(),
    Tracer ! {trace, self(), dbg_capture_sync},
    receive synced -> ok after 5000 -> timeout end.

%% What Device was given since the last call.
text(Device) ->
    Device ! {text, self()},
    receive {text, T} -> T end.

%% Text with every pid replaced by p1, p2, ... in order of first
%% appearance.
normalise(Text) ->
    case re:run(Text, "<[0-9]+\\.[0-9]+\\.[0-9]+>", [global, {capture, first, list}]) of
        nomatch -> Text;
        {match, Found} ->
            Pids = unique([P || [P] <- Found], []),
            {_, Out} = lists:foldl(
                fun(P, {N, T}) ->
                    Name = "p" ++ integer_to_list(N),
                    {N + 1, string:replace(T, P, Name, all)}
                end, {1, Text}, Pids),
            lists:flatten(Out)
    end.

unique([], Acc) -> lists:reverse(Acc);
unique([P | T], Acc) ->
    case lists:member(P, Acc) of
        true -> unique(T, Acc);
        false -> unique(T, [P | Acc])
    end.

%% Prints Device's text, pids named.
print(Device) ->
    io:put_chars(normalise(text(Device))).
