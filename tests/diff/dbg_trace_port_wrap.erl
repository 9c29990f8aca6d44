%% dbg:trace_port(file, {Name, wrap, Suffix, Size, Count}): erts's
%% wrapping trace files. Which files are left (the counter between the
%% name and the suffix, Count of them), the size of each, the messages in
%% them, and dbg:trace_client/3 reading the wrap set back in order.
-module(dbg_trace_port_wrap).
-export([main/0, loop/0]).

loop() ->
    receive
        {ping, N, From} -> From ! {pong, N}, loop();
        stop -> ok
    end.

main() ->
    Dir = "dbg_trace_port_wrap.d",
    file:make_dir(Dir),
    [file:delete(filename:join(Dir, X)) || {ok, Fs} <- [file:list_dir(Dir)], X <- Fs],
    Name = filename:join(Dir, "w"),
    Spec = {Name, wrap, ".trc", 200, 3},
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, Spec)),
    P = spawn(?MODULE, loop, []),
    {ok, _} = dbg:p(P, [s]),
    [begin P ! {ping, N, self()}, receive {pong, N} -> ok end end || N <- lists:seq(1, 20)],
    ok = dbg:flush_trace_port(),
    dbg:stop(),
    {ok, Files} = file:list_dir(Dir),
    [begin
         {ok, B} = file:read_file(filename:join(Dir, X)),
         io:format("~s ~p bytes, ~p messages~n", [X, byte_size(B), length(frames(B))])
     end || X <- lists:sort(Files)],
    Self = self(),
    dbg:trace_client(file, Spec, {fun(end_of_trace, Acc) -> Self ! {read, lists:reverse(Acc)}, Acc;
                                     ({trace, _, send, {pong, N}, _}, Acc) -> [N | Acc];
                                     (_, Acc) -> Acc end, []}),
    receive {read, Ns} -> io:format("client read ~w~n", [Ns]) after 5000 -> timeout end,
    dbg:stop_clear(),
    P ! stop.

frames(<<0, Size:32, T:Size/binary, Rest/binary>>) -> [binary_to_term(T) | frames(Rest)];
frames(<<>>) -> [].
