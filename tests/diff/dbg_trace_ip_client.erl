%% dbg:trace_port(ip, ...) and dbg:trace_client(ip, ...): the trace port
%% listens on a port the OS picks, the client connects to it over loopback
%% with gen_tcp and hands each trace message to its handler.
-module(dbg_trace_ip_client).
-export([main/0, work/1]).
work(N) -> N * 2.
main() ->
    Self = self(),
    PortFun = dbg:trace_port(ip, {0, 50}),
    {ok, _} = dbg:tracer(port, PortFun),
    {ok, Port} = dbg:trace_port_control(node(), get_listen_port),
    dbg:p(self(), [call]),
    dbg:tpl(?MODULE, work, 1, []),
    [work(I) || I <- [1, 2, 3]],
    Handler = fun(Msg, Acc) -> Self ! {got, Msg}, Acc end,
    _Client = dbg:trace_client(ip, {"127.0.0.1", Port}, {Handler, []}),
    %% Each comes in milliseconds; the timeout only ends a run where one did
    %% not.
    Got = [receive {got, M} -> setelement(2, M, pid) after 30000 -> none end || _ <- [1, 2, 3]],
    io:format("~p~n", [Got]),
    dbg:stop(),
    ok.
