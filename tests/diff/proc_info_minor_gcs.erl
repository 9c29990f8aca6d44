-module(proc_info_minor_gcs).
-export([main/0]).

%% minor_gcs counts the minor collections since the last full sweep:
%% some after allocating, none with fullsweep_after 0 (every collection
%% is a full sweep).
main() ->
    io:format("default: ~p~n", [run([])]),
    io:format("fullsweep_after 0: ~p~n", [run([{fullsweep_after, 0}])]),
    ok.

run(Opts) ->
    Me = self(),
    spawn_opt(fun() ->
                      Before = minor_gcs(),
                      Kept = churn(20000, []),
                      After = minor_gcs(),
                      Me ! {gcs, Before, After, length(Kept)}
              end, Opts),
    receive
        {gcs, Before, After, _} ->
            #{fresh => Before, after_churn => classify(After)}
    end.

classify(0) -> none;
classify(N) when N =< 3 -> few;
classify(_) -> many.

minor_gcs() ->
    {garbage_collection, GC} = process_info(self(), garbage_collection),
    proplists:get_value(minor_gcs, GC).

%% Keeps a growing list alive so that some data survives each collection.
churn(0, Acc) -> Acc;
churn(N, Acc) -> churn(N - 1, [{N, integer_to_list(N)} | Acc]).
