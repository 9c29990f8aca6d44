%% A supervisor that gives up, for beamr-cli/tests/ctl_flight.rs: its one
%% child crashes as soon as it starts, so after one restart (intensity 1)
%% the supervisor reaches its maximum restart intensity and exits. main/0
%% traps that exit and goes on, so the runtime does not halt; it waits
%% (at most 30 s) for the flight recorder's dump, beamr-flight-OSPID.ring
%% in the current directory, says whether it came, and returns.
-module(flight_sup).
-behaviour(supervisor).
-export([main/0, init/1, start_child/0]).

main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, flight_sup}, ?MODULE, []),
    receive
        {'EXIT', Sup, Reason} -> io:format("supervisor ended: ~p~n", [Reason])
    after 30000 ->
        io:format("supervisor still running~n")
    end,
    File = "beamr-flight-" ++ os:getpid() ++ ".ring",
    io:format("~s~n", [wait_for(File, 600)]).

wait_for(_File, 0) ->
    "no dump";
wait_for(File, Tries) ->
    case filelib:is_file(File) of
        true -> "dumped";
        false ->
            timer:sleep(50),
            wait_for(File, Tries - 1)
    end.

init([]) ->
    Child = #{id => crasher, start => {?MODULE, start_child, []}, restart => permanent},
    {ok, {#{strategy => one_for_one, intensity => 1, period => 60}, [Child]}}.

start_child() ->
    {ok, spawn_link(fun() -> exit(flight_sup_boom) end)}.
