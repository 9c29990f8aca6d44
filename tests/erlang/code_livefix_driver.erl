%% Drives the live fix of code_livefix (see code_livefix.erl): run/1 is
%% given the corrected version's .beam bytes and returns what it observed;
%% main/1 exits with {results, run(V2)} for beamr's test.
-module(code_livefix_driver).
-export([main/1, run/1]).

main(V2) ->
    exit({results, run(V2)}).

call(P, X) ->
    P ! {req, self(), X},
    receive {reply, P, V} -> V end.

count(P) ->
    P ! {count, self()},
    receive {count, P, N} -> N end.

run(V2) ->
    M = code_livefix,
    P = M:start(),
    R1 = call(P, 3),
    V1 = M:version(),
    %% A slow request is in progress inside version 1 ...
    P ! {gate, self(), 4},
    receive {entered, P} -> ok end,
    NoOld = {erlang:check_old_code(M), erlang:check_process_code(P, M)},
    %% ... when the fix is loaded.
    Load = code:load_binary(M, "code_livefix_v2.beam", V2),
    V2v = M:version(),
    During = {erlang:check_old_code(M), erlang:check_process_code(P, M), code:soft_purge(M)},
    P ! go,
    %% The request in progress finishes in version 1 (a local call) ...
    R2 = receive {reply, P, V} -> V end,
    %% ... and the next one runs version 2, in the same server process.
    R3 = call(P, 4),
    R4 = call(P, 5),
    After = {erlang:check_process_code(P, M), code:soft_purge(M), erlang:check_old_code(M)},
    State = {count(P), is_process_alive(P)},
    %% Processes parked in what becomes old code are killed by purge: the
    %% server too, as it waits in the receive of the version it last entered.
    Q = spawn(M, park, [self()]),
    MQ = monitor(process, Q),
    receive {parked, Q} -> ok end,
    Reload = erlang:load_module(M, V2),
    Parked = {erlang:check_process_code(Q, M), erlang:check_process_code(P, M),
              code:soft_purge(M), erlang:load_module(M, V2)},
    Purge = code:purge(M),
    %% The purge kills Q at once; the timeout only ends a run where it did
    %% not (timeout is then returned), long enough for a loaded machine.
    Down = receive {'DOWN', MQ, process, Q, Why} -> Why after 60000 -> timeout end,
    Gone = {is_process_alive(Q), is_process_alive(P), code:purge(M), erlang:check_old_code(M)},
    P2 = M:start(),
    R5 = call(P2, 6),
    %% Deleting makes the current code old; a fresh load brings it back.
    Del = {erlang:delete_module(M), erlang:module_loaded(M), try erlang:delete_module(M) catch error:Reason -> Reason end,
           erlang:check_old_code(M)},
    Back = {code:purge(M), is_process_alive(P2), erlang:module_loaded(M)},
    Reloaded = {erlang:load_module(M, V2), M:version(), erlang:check_old_code(M)},
    Bad = {code:load_binary(M, "x.beam", <<"not a beam file">>),
           code:load_binary(other_name, "x.beam", V2),
           erlang:load_module(M, <<1, 2, 3>>)},
    [R1, V1, NoOld, Load, V2v, During, R2, R3, R4, After, State, Reload, Parked, Purge,
     Down, Gone, R5, Del, Back, Reloaded, Bad].
