-module(socket_nowait).
-export([main/0]).

%% The socket module's asynchronous calls: accept, connect, recv and send
%% with nowait or a select handle answer {select, SelectInfo}, the
%% caller gets {'$socket', Socket, select, Handle} when the socket is
%% ready, cancel/2 forgets a wait, and close/1 aborts another process's
%% wait with closed.

p(X) -> io:format("~p~n", [X]).

%% The select info with its handle told apart only by kind.
info({select, {select_info, Tag, Handle}}) when is_reference(Handle) ->
    {select, Tag};
info({select, {{select_info, Tag, Handle}, Data}}) when is_reference(Handle) ->
    {select, Tag, Data};
info(Other) -> Other.

select_msg(Sock, Handle) ->
    receive
        {'$socket', Sock, select, Handle} -> select
    after 5000 -> none
    end.

main() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    %% accept nowait: nothing waits yet.
    R1 = socket:accept(L, nowait),
    p(info(R1)),
    {select, {select_info, accept, H1}} = R1,
    %% connect with a handle of ours.
    {ok, C} = socket:open(inet, stream, tcp),
    H2 = make_ref(),
    R2 = socket:connect(C, Addr, H2),
    p(case R2 of ok -> ok; {select, {select_info, connect, H2}} -> select end),
    case R2 of
        ok -> ok;
        _ -> p(select_msg(C, H2)), p(socket:connect(C))
    end,
    p(select_msg(L, H1)),
    {ok, A} = socket:accept(L, nowait),
    %% recv nowait with nothing to read, then data arrives.
    R3 = socket:recv(A, 0, nowait),
    p(info(R3)),
    {select, {select_info, recv, H3}} = R3,
    ok = socket:send(C, <<"ping">>),
    p(select_msg(A, H3)),
    p(socket:recv(A, 0, nowait)),
    %% recv of a length with part of it there: the part, and a select.
    ok = socket:send(C, <<"abc">>),
    receive after 50 -> ok end,
    %% (OTP 27 leaves the part unread and answers a plain select.)
    R4 = socket:recv(A, 6, nowait),
    p(info(R4)),
    {H4, Rest} = case R4 of
                     {select, {{select_info, recv, H}, _}} -> {H, 3};
                     {select, {select_info, recv, H}} -> {H, 6}
                 end,
    ok = socket:send(C, <<"def">>),
    p(select_msg(A, H4)),
    p(socket:recv(A, Rest, nowait)),
    %% cancel a wait: no select message comes.
    R5 = socket:recv(A, 0, nowait),
    {select, SI5} = R5,
    p(socket:cancel(A, SI5)),
    ok = socket:send(C, <<"late">>),
    receive after 50 -> ok end,
    p(receive {'$socket', _, select, _} = M -> M after 100 -> no_message end),
    p(socket:recv(A, 0, nowait)),
    p(case socket:cancel(A, SI5) of
          {error, {invalid, {select_info, recv, R}}} when is_reference(R) -> invalid;
          Other -> Other
      end),
    %% a second accept in nowait, cancelled.
    {select, SI6} = socket:accept(L, nowait),
    p(socket:cancel(L, SI6)),
    %% close while another process waits in recv: it gets closed.
    Self = self(),
    W = spawn(fun() -> Self ! {waiter, socket:recv(A, 0, 5000)} end),
    receive after 100 -> ok end,
    p(socket:close(A)),
    p(receive {waiter, WR} -> WR after 5000 -> none end),
    p(is_process_alive(W)),
    %% recv on the peer of a closed socket.
    p(socket:recv(C, 0, 5000)),
    ok = socket:close(C),
    ok = socket:close(L),
    p(done).
