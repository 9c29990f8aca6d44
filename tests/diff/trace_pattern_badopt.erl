%% The error_info cause erlang:trace_pattern/3 and erlang:trace/3 give a
%% bad argument: badopt for a bad flag or flag list, match_spec for a bad
%% match specification, none for a bad function or a flag list given with
%% send/'receive'.
-module(trace_pattern_badopt).
-export([main/0, f/0]).

f() -> ok.

cause(F) ->
    try F() of
        V -> {returned, V}
    catch
        error:R:St ->
            Info = case St of
                       [{_, _, _, I} | _] -> proplists:get_value(error_info, I);
                       _ -> none
                   end,
            {R, Info}
    end.

main() ->
    Cases = [{bad_flag, fun() -> erlang:trace_pattern({?MODULE, f, 0}, true, [bad]) end},
             {not_a_list, fun() -> erlang:trace_pattern({?MODULE, f, 0}, true, bad) end},
             {bad_meta, fun() -> erlang:trace_pattern({?MODULE, f, 0}, true, [{meta, bad}]) end},
             {bad_tuple, fun() -> erlang:trace_pattern({?MODULE, f, 0}, true, [{a, b, c, d}]) end},
             {global_local, fun() -> erlang:trace_pattern({?MODULE, f, 0}, true, [global, local]) end},
             {bad_ms, fun() -> erlang:trace_pattern({?MODULE, f, 0}, bad, []) end},
             {bad_action, fun() -> erlang:trace_pattern({?MODULE, f, 0}, [{'_', [], [{bad}]}], []) end},
             {bad_mfa, fun() -> erlang:trace_pattern(bad, true, []) end},
             {send_flags, fun() -> erlang:trace_pattern(send, true, [local]) end},
             {trace_bad_flag, fun() -> erlang:trace(self(), true, [bad]) end},
             {trace_bad_spec, fun() -> erlang:trace(bad, true, [send]) end},
             {trace_bad_how, fun() -> erlang:trace(self(), perhaps, [send]) end}],
    [io:format("~p: ~p~n", [Name, cause(F)]) || {Name, F} <- Cases],
    ok.
