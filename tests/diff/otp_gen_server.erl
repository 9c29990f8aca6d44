%% gen_server: start_link, call, cast, info messages, state, stop.
-module(otp_gen_server).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2, code_change/3]).

main() ->
    {ok, Pid} = gen_server:start_link(?MODULE, 10, []),
    io:format("started: ~p~n", [is_pid(Pid)]),
    io:format("get: ~p~n", [gen_server:call(Pid, get)]),
    ok = gen_server:cast(Pid, {add, 5}),
    io:format("after cast: ~p~n", [gen_server:call(Pid, get)]),
    Pid ! {add, 100},
    io:format("after info: ~p~n", [gen_server:call(Pid, get)]),
    io:format("deferred reply: ~p~n", [gen_server:call(Pid, {deferred, 7})]),
    %% A timeout no loaded machine reaches: the reply comes at once.
    io:format("reply with timeout: ~p~n", [gen_server:call(Pid, get, 60000)]),
    io:format("unknown call: ~p~n", [gen_server:call(Pid, unknown)]),
    %% Registered locally.
    {ok, Named} = gen_server:start({local, counter}, ?MODULE, 0, []),
    gen_server:cast(counter, {add, 3}),
    io:format("named: ~p ~p~n", [gen_server:call(counter, get), whereis(counter) =:= Named]),
    io:format("already started: ~p~n",
              [element(1, gen_server:start({local, counter}, ?MODULE, 0, []))]),
    {error, {already_started, Named}} = gen_server:start({local, counter}, ?MODULE, 0, []),
    %% init returning ignore and {stop, Reason}.
    Procs = length(processes()),
    io:format("ignore: ~p~n", [gen_server:start(?MODULE, ignore_me, [])]),
    %% The ignoring server ends after start/3 has answered.
    logger_sync:wait_processes(Procs),
    StopInInit = gen_server:start(?MODULE, stop_me, []),
    %% Its crash report is logged after start/3 has answered: wait for it.
    logger_sync:wait_processes(Procs),
    io:format("stop in init: ~p~n", [StopInInit]),
    %% Stop with a reason: terminate/2 runs.
    io:format("stop: ~p~n", [gen_server:stop(counter)]),
    receive {terminated, normal, 3} -> io:format("terminate ran~n") end,
    io:format("whereis after stop: ~p~n", [whereis(counter)]),
    %% Server stopping itself from handle_call with a reply.
    io:format("stop reply: ~p~n", [gen_server:call(Pid, {stop_with_reply, {shutdown, done}})]),
    receive {terminated, {shutdown, done}, _} -> io:format("terminate ran again~n") end,
    receive {'EXIT', Pid, Why} -> io:format("exit: ~p~n", [Why]) end,
    %% Calling a dead server: exit noproc.
    R = try gen_server:call(Pid, get) catch exit:{noproc, {gen_server, call, _}} -> noproc end,
    io:format("call dead: ~p~n", [R]),
    R2 = try gen_server:call(no_such_server, get) catch exit:{noproc, _} -> noproc end,
    io:format("call unregistered: ~p~n", [R2]),
    %% Call timeout.
    {ok, Slow} = gen_server:start(?MODULE, 0, []),
    %% The server never answers this call, so it times out however long a
    %% loaded machine takes.
    R3 = try gen_server:call(Slow, no_reply, 20) catch exit:{timeout, _} -> timeout end,
    io:format("call timeout: ~p~n", [R3]),
    gen_server:stop(Slow),
    receive {terminated, normal, _} -> ok end,
    %% multi_call-free: abcast to a local name.
    io:format("done~n").

init(ignore_me) -> ignore;
init(stop_me) -> {stop, no_good};
init(N) -> {ok, #{n => N, owner => owner()}}.

owner() ->
    case get('$ancestors') of
        [Parent | _] -> Parent;
        _ -> undefined
    end.

handle_call(get, _From, S = #{n := N}) -> {reply, N, S};
handle_call({deferred, X}, From, S) ->
    spawn(fun() -> gen_server:reply(From, {later, X}) end),
    {noreply, S};
handle_call({stop_with_reply, Reason}, _From, S) -> {stop, Reason, stopping, S};
handle_call(no_reply, _From, S) -> {noreply, S};
handle_call(_Other, _From, S) -> {reply, {error, unknown}, S}.

handle_cast({add, K}, S = #{n := N}) -> {noreply, S#{n := N + K}}.

handle_info({add, K}, S = #{n := N}) -> {noreply, S#{n := N + K}};
handle_info(_, S) -> {noreply, S}.

terminate(Reason, #{n := N, owner := Owner}) ->
    Owner ! {terminated, Reason, N},
    ok.

code_change(_Old, S, _Extra) -> {ok, S}.
