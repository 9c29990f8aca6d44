-module(proc_spawn_request).
-export([main/0, child/1, stop/1]).

%% erlang:spawn_request/1..5 on one node: the reply messages (tag, kind),
%% monitor and link options, aliases on the monitor, bad options (a
%% request that fails with badopt) against bad arguments (badarg), another
%% node (noconnection: this node is not alive), spawn_request_abandon/1;
%% and what OTP builds on it: erpc and rpc calls to this node.
%% Pids and references are masked; messages are printed as they arrive.

child(Parent) -> Parent ! {child_ran, self()}.
stop(Reason) -> exit(Reason).

main() ->
    process_flag(trap_exit, true),
    Self = self(),
    lists:foreach(fun({Name, F}) ->
        R = try F() catch Class:Reason -> {Class, Reason} end,
        io:format("~s: ~p ~p~n", [Name, mask(R), [mask(M) || M <- flush()]])
    end, [
        {"fun", fun() -> spawn_request(fun() -> Self ! ran end) end},
        {"mfa with tag and monitor", fun() -> spawn_request(?MODULE, child, [Self], [{reply_tag, mine}, monitor]) end},
        {"error_only", fun() -> spawn_request(?MODULE, child, [Self], [{reply, error_only}]) end},
        {"success_only, link", fun() -> spawn_request(node(), ?MODULE, stop, [boom], [link, {reply, success_only}]) end},
        {"no reply", fun() -> spawn_request(fun() -> ok end, [{reply, no}]) end},
        {"no reply, monitor", fun() -> spawn_request(fun() -> ok end, [monitor, {reply, no}]) end},
        {"monitor with alias", fun() -> spawn_request(fun() -> ok end, [{monitor, [{alias, demonitor}]}]) end},
        {"empty monitor options", fun() -> spawn_request(fun() -> ok end, [{monitor, []}]) end},
        {"spawn options", fun() -> spawn_request(fun() -> ok end, [{priority, high}, {min_heap_size, 100}, {fullsweep_after, 5}, monitor, {reply, no}]) end},
        {"link, no reply", fun() -> spawn_request(fun() -> exit(x) end, [link, {reply, no}]) end},
        {"options twice", fun() -> spawn_request(?MODULE, child, [Self], [{reply_tag, x}, {reply_tag, y}, link, link]) end},
        {"export fun", fun() -> spawn_request(fun erlang:node/0) end},
        {"node and fun", fun() -> spawn_request(node(), fun() -> ok end) end},
        {"node, fun, options", fun() -> spawn_request(node(), fun() -> ok end, [{reply_tag, t}]) end},
        {"node and mfa", fun() -> spawn_request(node(), ?MODULE, child, [Self]) end},
        {"bad option", fun() -> spawn_request(fun() -> ok end, [bogus]) end},
        {"bad reply", fun() -> spawn_request(fun() -> ok end, [{reply, perhaps}]) end},
        {"bad priority", fun() -> spawn_request(fun() -> ok end, [{priority, bad}]) end},
        {"bad monitor options", fun() -> spawn_request(fun() -> ok end, [{monitor, bad}]) end},
        {"bad option, tag after", fun() -> spawn_request(?MODULE, child, [Self], [bogus, {reply_tag, x}]) end},
        {"bad option, error_only", fun() -> spawn_request(?MODULE, child, [Self], [{reply, error_only}, bogus]) end},
        {"bad option, success_only", fun() -> spawn_request(?MODULE, child, [Self], [{reply, success_only}, bogus]) end},
        {"bad option, no reply", fun() -> spawn_request(?MODULE, child, [Self], [{reply, no}, bogus]) end},
        {"not a fun", fun() -> spawn_request(foo) end},
        {"fun of arity 1", fun() -> spawn_request(fun(_) -> ok end) end},
        {"export fun of arity 1", fun() -> spawn_request(fun erlang:node/1) end},
        {"options not a list", fun() -> spawn_request(fun() -> ok end, notalist) end},
        {"improper options", fun() -> spawn_request(node(), ?MODULE, child, [], [a|b]) end},
        {"improper arguments", fun() -> spawn_request(?MODULE, child, [a|b]) end},
        {"bad module", fun() -> spawn_request(1, f, []) end},
        {"bad function", fun() -> spawn_request(?MODULE, 1, []) end},
        {"bad node", fun() -> spawn_request("str", m, f, [], []) end},
        {"two numbers", fun() -> spawn_request(1, 2) end},
        {"five numbers", fun() -> spawn_request(1, 2, 3, 4, 5) end},
        {"other node", fun() -> spawn_request(other@host, fun() -> ok end) end},
        {"other node, mfa", fun() -> spawn_request(other@host, m, f, []) end},
        {"other node, tag", fun() -> spawn_request(other@host, fun() -> ok end, [{reply_tag, t}, monitor, link]) end},
        {"other node, no reply", fun() -> spawn_request(other@host, fun() -> ok end, [{reply, no}]) end},
        {"other node, success_only", fun() -> spawn_request(other@host, fun() -> ok end, [{reply, success_only}]) end},
        {"other node, bad option", fun() -> spawn_request(other@host, fun() -> ok end, [bogus]) end},
        {"other node, options not a list", fun() -> spawn_request(other@host, fun() -> ok end, bogus) end},
        {"abandon after the reply", fun() -> R = spawn_request(fun() -> ok end), receive {spawn_reply, R, ok, _} -> ok end, spawn_request_abandon(R) end},
        {"abandon twice", fun() -> R = spawn_request(fun() -> ok end, [{reply, no}]), {spawn_request_abandon(R), spawn_request_abandon(R)} end},
        {"abandon any ref", fun() -> spawn_request_abandon(make_ref()) end},
        {"abandon not a ref", fun() -> spawn_request_abandon(foo) end},
        {"erpc call", fun() -> erpc:call(node(), lists, sum, [[1, 2, 3]]) end},
        {"erpc call fun", fun() -> erpc:call(node(), fun() -> 42 end) end},
        {"erpc call error", fun() -> erpc:call(node(), erlang, error, [oops]) end},
        {"erpc call exit", fun() -> erpc:call(node(), erlang, exit, [bye]) end},
        {"erpc call throw", fun() -> erpc:call(node(), erlang, throw, [ball]) end},
        {"erpc call timeout", fun() -> erpc:call(node(), timer, sleep, [2000], 50) end},
        {"erpc multicall", fun() -> erpc:multicall([node()], erlang, abs, [-3]) end},
        {"erpc send_request", fun() -> erpc:receive_response(erpc:send_request(node(), erlang, node, [])) end},
        {"erpc cast", fun() -> erpc:cast(node(), erlang, send, [Self, cast_done]) end},
        {"rpc call", fun() -> rpc:call(node(), erlang, '+', [1, 2]) end},
        {"rpc call error", fun() -> rpc:call(node(), erlang, error, [x]) end},
        {"rpc pmap", fun() -> rpc:pmap({lists, nth}, [[a, b, c]], [1, 2, 3]) end}
    ]).

%% Messages that arrive within a moment, in order.
flush() -> receive M -> [M | flush()] after 200 -> [] end.

mask(T) when is_pid(T) -> pid;
mask(T) when is_reference(T) -> ref;
mask(T) when is_function(T) -> 'fun';
mask(T) when is_tuple(T) -> list_to_tuple(mask(tuple_to_list(T)));
mask([H | T]) -> [mask(H) | mask(T)];
mask(T) -> T.
