%% dbg's trace file port with call trace messages: tpl with `x` (calls
%% with their arguments, return_from with the value, exception_from),
%% return_to, and the timestamp flag; every message as erts's
%% trace_file_drv writes it (Op 0, a 32-bit size, the external format,
%% as term_to_binary/1 writes it), decoded, pids named and timestamps
%% replaced by their shape.
-module(dbg_trace_port_calls).
-export([main/0, run/0, add/2, fail/1]).

add(A, B) -> {sum, [A, B], A + 1}.

fail(X) -> error({bad, X}).

run() ->
    receive
        go ->
            _ = add(1, {two, [3]}),
            _ = add(1 bsl 70, 2),
            try fail(<<"bin">>) catch error:_ -> ok end,
            receive stop -> ok end
    end.

main() ->
    F = "dbg_trace_port_calls.trace",
    file:delete(F),
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, F)),
    P = spawn(?MODULE, run, []),
    {ok, _} = dbg:p(P, [c, return_to, timestamp]),
    {ok, _} = dbg:tpl(?MODULE, add, 2, x),
    {ok, _} = dbg:tpl(?MODULE, fail, 1, x),
    %% Until P has made its calls and ended, and its trace messages are at
    %% the port.
    Ref = monitor(process, P),
    P ! go,
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end,
    Delivered = erlang:trace_delivered(P),
    receive {trace_delivered, P, Delivered} -> ok end,
    io:format("flush: ~p~n", [dbg:flush_trace_port()]),
    dbg:stop(),
    {ok, Bin} = file:read_file(F),
    Names = #{P => p},
    [io:format("~p ~p~n", [Size =:= byte_size(term_to_binary(T)), shape(trace_names:name(T, Names))])
     || {Size, T} <- frames(Bin)],
    file:delete(F).

%% A trace_ts message's timestamp as its shape.
shape(T) when element(1, T) =:= trace_ts ->
    {Mega, Sec, Micro} = element(tuple_size(T), T),
    Ok = is_integer(Mega) andalso is_integer(Sec) andalso is_integer(Micro),
    setelement(tuple_size(T), T, {timestamp, Ok});
shape(T) -> T.

frames(<<0, Size:32, T:Size/binary, Rest/binary>>) ->
    [{Size, binary_to_term(T)} | frames(Rest)];
frames(<<>>) -> [];
frames(Other) -> [{bad, Other}].
