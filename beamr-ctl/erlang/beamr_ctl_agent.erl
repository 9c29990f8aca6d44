%% beamr_ctl_agent: what `beamr ctl` asks of a running runtime that only
%% Erlang code can answer. The control server (beamr-ctl's `agent`) spawns
%% a fresh process for each request, running one of these functions; the
%% process ends with exit({beamr_ctl_reply, Reply}), which the server reads.
%% Every reply is {ok, Value} or {error, Text} (Text a binary); a crash of
%% the request is caught and becomes {error, Text}.
-module(beamr_ctl_agent).
-export([eval/1, info/1, state/2, system/0, load/3, purge/1, stop/0]).

-define(FIRST_MESSAGES, 10).

reply(Fun) ->
    Reply = try Fun()
            catch Class:Reason:Stack ->
                    {error, text("~p:~p~n~p", [Class, Reason, Stack])}
            end,
    exit({beamr_ctl_reply, Reply}).

text(Format, Args) ->
    unicode:characters_to_binary(io_lib:format(Format, Args)).

%% An expression evaluated by erl_eval, its value written with ~p.
eval(Expr) ->
    reply(fun() -> eval_text(unicode:characters_to_list(Expr)) end).

eval_text(Text) ->
    Full = case lists:reverse(string:trim(Text)) of
               [$. | _] -> Text;
               _ -> Text ++ "."
           end,
    case erl_scan:string(Full) of
        {ok, Tokens, _} ->
            case erl_parse:parse_exprs(Tokens) of
                {ok, Exprs} ->
                    {value, Value, _} = erl_eval:exprs(Exprs, erl_eval:new_bindings()),
                    {ok, text("~p", [Value])};
                {error, {_, Mod, Error}} ->
                    {error, unicode:characters_to_binary(Mod:format_error(Error))}
            end;
        {error, {_, Mod, Error}, _} ->
            {error, unicode:characters_to_binary(Mod:format_error(Error))}
    end.

%% process_info/2's items for a pid (<0.N.0>) or a registered name, each
%% written with ~p, the first queued messages last.
info(Name) ->
    reply(fun() -> info_of(unicode:characters_to_list(Name)) end).

info_of(Name) ->
    case process_of(Name) of
        undefined ->
            {error, text("no process ~ts", [Name])};
        Pid ->
            Items = [registered_name, current_function, initial_call, status,
                     message_queue_len, links, monitors, monitored_by, trap_exit,
                     priority, group_leader, heap_size, total_heap_size,
                     stack_size, memory, reductions, dictionary,
                     current_stacktrace],
            case process_info(Pid, Items) of
                undefined ->
                    {error, text("no process ~ts", [Name])};
                Info ->
                    Messages = case process_info(Pid, messages) of
                                   {messages, Ms} -> lists:sublist(Ms, ?FIRST_MESSAGES);
                                   undefined -> []
                               end,
                    {ok, [{pid, text("~p", [Pid])}]
                         ++ [{K, text("~p", [V])} || {K, V} <- Info]
                         ++ [{first_messages, text("~p", [Messages])}]}
            end
    end.

%% sys:get_state/2 of a pid or registered name, written with ~p.
state(Name, Timeout) ->
    reply(fun() ->
                  Text = unicode:characters_to_list(Name),
                  case process_of(Text) of
                      undefined ->
                          {error, text("no process ~ts", [Text])};
                      Pid ->
                          try sys:get_state(Pid, Timeout) of
                              State -> {ok, text("~p", [State])}
                          catch exit:{timeout, _} ->
                                  {error, text("~ts gave no state within ~p ms (not a sys process, or busy)",
                                               [Text, Timeout])};
                                exit:{Reason, _} ->
                                  {error, text("~ts gave no state: ~p", [Text, Reason])}
                          end
                  end
          end).

process_of([$< | _] = Text) ->
    try list_to_pid(Text) catch error:badarg -> undefined end;
process_of(Text) ->
    try whereis(list_to_existing_atom(Text)) catch error:badarg -> undefined end.

%% The table counts and limits of erlang:system_info/1, and erlang:memory/0.
system() ->
    Keys = [process_count, process_limit, port_count, port_limit,
            atom_count, atom_limit, ets_count, ets_limit],
    reply(fun() ->
                  {ok, {[{K, erlang:system_info(K)} || K <- Keys], erlang:memory()}}
          end).

%% code:load_binary/3.
load(Module, File, Binary) ->
    reply(fun() ->
                  case code:load_binary(Module, File, Binary) of
                      {module, M} -> {ok, M};
                      {error, Why} -> {error, text("~p", [Why])}
                  end
          end).

%% code:purge/1 of a loaded module.
purge(Name) ->
    reply(fun() ->
                  try list_to_existing_atom(unicode:characters_to_list(Name)) of
                      Module -> {ok, code:purge(Module)}
                  catch error:badarg ->
                          {error, text("no module ~ts", [Name])}
                  end
          end).

%% init:stop/0.
stop() ->
    reply(fun() -> {ok, init:stop()} end).
