%% beamr_ctl_agent: what `beamr ctl` asks of a running runtime that only
%% Erlang code can answer. The control server (beamr-ctl's `agent`) spawns
%% a fresh process for each request, running one of these functions; the
%% process ends with exit({beamr_ctl_reply, Reply}), which the server reads.
%% Every reply is {ok, Value} or {error, Text} (Text a binary); a crash of
%% the request is caught and becomes {error, Text}.
-module(beamr_ctl_agent).
-export([eval/1, info/1, state/2, system/0, load/3, purge/1, stop/0,
         trace_start/5, node/0, flight_watch/0]).
%% The logger handler of flight_watch/0.
-export([log/2]).

-define(FIRST_MESSAGES, 10).
-define(FLIGHT_WATCH, beamr_flight_watch).
-define(FLIGHT_HANDLER, beamr_flight).

reply(Fun) ->
    Reply = try Fun()
            catch Class:Reason:Stack ->
                    {error, text("~p:~p~n~p", [Class, Reason, Stack])}
            end,
    exit({beamr_ctl_reply, Reply}).

text(Format, Args) ->
    unicode:characters_to_binary(io_lib:format(Format, Args)).

%% An expression evaluated by erl_eval, its value written with ~p, and
%% what it printed through io: {ok, {Output, Value}}. While it runs, its
%% group leader is a collector (collect/1); processes it spawned that
%% still have the collector as group leader get the runtime's back
%% afterwards, so what they print later goes where the program's output
%% goes.
eval(Expr) ->
    reply(fun() ->
                  User = group_leader(),
                  Collector = spawn(fun() -> collect([]) end),
                  group_leader(Collector, self()),
                  Result = try eval_text(unicode:characters_to_list(Expr))
                           catch Class:Reason:Stack ->
                                   {error, text("~p:~p~n~p", [Class, Reason, Stack])}
                           end,
                  group_leader(User, self()),
                  Output = collected(Collector, User),
                  case Result of
                      {ok, Value} -> {ok, {Output, Value}};
                      {error, Why} -> {error, <<Output/binary, Why/binary>>}
                  end
          end).

%% The collector's text; it hands its processes to User and ends.
collected(Collector, User) ->
    Ref = monitor(process, Collector),
    Collector ! {collected, self(), Ref, User},
    receive
        {Ref, Text} -> demonitor(Ref, [flush]), Text;
        {'DOWN', Ref, _, _, _} -> <<>>
    end.

%% A group leader that keeps what is written to it (the io protocol's
%% output requests; input requests see eof).
collect(Acc) ->
    receive
        {io_request, From, ReplyAs, Request} ->
            {Reply, Acc1} = io_request(Request, Acc),
            From ! {io_reply, ReplyAs, Reply},
            collect(Acc1);
        {collected, From, Ref, User} ->
            From ! {Ref, iolist_to_binary(lists:reverse(Acc))},
            Self = self(),
            [group_leader(User, P) || P <- processes(),
                                      process_info(P, group_leader) =:= {group_leader, Self}],
            forward(User)
    end.

%% Requests that reached the collector once it handed its processes back.
forward(User) ->
    receive
        {io_request, _, _, _} = Request ->
            User ! Request,
            forward(User)
    after 0 -> ok
    end.

io_request({put_chars, Encoding, Chars}, Acc) ->
    put_chars(Encoding, fun() -> Chars end, Acc);
io_request({put_chars, Encoding, M, F, A}, Acc) ->
    put_chars(Encoding, fun() -> apply(M, F, A) end, Acc);
io_request({put_chars, Chars}, Acc) ->
    put_chars(latin1, fun() -> Chars end, Acc);
io_request({put_chars, M, F, A}, Acc) ->
    put_chars(latin1, fun() -> apply(M, F, A) end, Acc);
io_request({requests, Requests}, Acc) ->
    lists:foldl(fun(R, {ok, A}) -> io_request(R, A);
                   (_, Error) -> Error
                end, {ok, Acc}, Requests);
io_request({get_chars, _, _}, Acc) -> {eof, Acc};
io_request({get_chars, _, _, _}, Acc) -> {eof, Acc};
io_request({get_line, _}, Acc) -> {eof, Acc};
io_request({get_line, _, _}, Acc) -> {eof, Acc};
io_request({get_until, _, _, _, _}, Acc) -> {eof, Acc};
io_request({get_until, _, _, _, _, _}, Acc) -> {eof, Acc};
io_request(getopts, Acc) -> {{ok, [{binary, false}, {encoding, unicode}]}, Acc};
io_request(_, Acc) -> {{error, enotsup}, Acc}.

put_chars(Encoding, Chars, Acc) ->
    try unicode:characters_to_binary(Chars(), Encoding, unicode) of
        Bin when is_binary(Bin) -> {ok, [Bin | Acc]};
        _ -> {{error, put_chars}, Acc}
    catch _:_ -> {{error, put_chars}, Acc}
    end.

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

%% erlang:node/0.
node() ->
    reply(fun() -> {ok, erlang:node()} end).

%% init:stop/0.
stop() ->
    reply(fun() -> {ok, init:stop()} end).

%% A client's trace session {Name, Id} (its weak handle, so that this
%% process does not hold it): each pattern {M, F, Arity | '_', SpecText}
%% set as trace:function/4 sets it with [local] (the module loaded first),
%% then Flags (binaries) on each of Pids (binaries: all, new, existing,
%% ..., a pid or a registered name) as trace:process/4 sets them. The
%% numbers of functions and processes.
trace_start(Name, Id, Pids, Flags, Patterns) ->
    reply(fun() ->
                  Session = {Name, Id},
                  try
                      Functions = lists:sum([set_pattern(Session, P) || P <- Patterns]),
                      Fs = [trace_flag(F) || F <- Flags],
                      Processes = lists:sum([erts_internal:trace(Session, pid_spec(P), true, Fs)
                                             || P <- Pids]),
                      {ok, {Processes, Functions}}
                  catch
                      throw:{refused, Text} -> {error, Text};
                      error:badarg:Stack ->
                          {error, text("erlang:trace/3 refused the flags ~p on ~p: ~p",
                                       [Flags, Pids, Stack])}
                  end
          end).

refuse(Format, Args) ->
    throw({refused, text(Format, Args)}).

%% The server checked the names against erlang:trace/3's; the atom may
%% not exist yet (nothing has named it).
trace_flag(Bin) ->
    binary_to_atom(Bin, utf8).

pid_spec(Bin) ->
    Text = unicode:characters_to_list(Bin),
    Groups = [all, processes, ports, existing, existing_processes,
              existing_ports, new, new_processes, new_ports],
    case [G || G <- Groups, atom_to_list(G) =:= Text] of
        [Group] -> Group;
        [] ->
            case process_of(Text) of
                undefined -> refuse("no process ~ts", [Text]);
                Pid -> Pid
            end
    end.

set_pattern(Session, {M0, F0, A, SpecText}) ->
    M = binary_to_atom(M0, utf8),
    F = binary_to_atom(F0, utf8),
    case code:ensure_loaded(M) of
        {module, M} -> ok;
        {error, Why} -> refuse("cannot load ~ts: ~p", [M0, Why])
    end,
    Spec = match_spec(SpecText),
    try erts_internal:trace_pattern(Session, {M, F, A}, Spec, [local]) of
        0 -> refuse("~ts: no such function", [mfa_text(M, F, A)]);
        N -> N
    catch error:badarg ->
            refuse("~ts: a bad match specification: ~ts", [mfa_text(M, F, A), SpecText])
    end.

mfa_text(M, F, '_') -> text("~p:~p", [M, F]);
mfa_text(M, F, A) -> text("~p:~p/~p", [M, F, A]).

match_spec(Text) ->
    Full = unicode:characters_to_list(Text) ++ ".",
    case erl_scan:string(Full) of
        {ok, Tokens, _} ->
            case erl_parse:parse_term(Tokens) of
                {ok, Term} -> Term;
                {error, {_, Mod, Error}} ->
                    refuse("match specification ~ts: ~ts", [Text, Mod:format_error(Error)])
            end;
        {error, {_, Mod, Error}, _} ->
            refuse("match specification ~ts: ~ts", [Text, Mod:format_error(Error)])
    end.

%% The flight recorder's watch on supervisors (beamr-ctl's `flight'):
%% registered as beamr_flight_watch, this process adds the logger handler
%% below (once), then waits until a supervisor gives up; its reply is the
%% supervisor's name as ~p writes it, and the server dumps the recorder
%% and starts another watch. {error, Text} when no handler can be added.
flight_watch() ->
    reply(fun() ->
                  true = register(?FLIGHT_WATCH, self()),
                  case add_flight_handler(100) of
                      ok ->
                          receive
                              {supervisor_gave_up, Name} -> {ok, text("~p", [Name])}
                          end;
                      {error, Why} ->
                          {error, text("no logger handler: ~p", [Why])}
                  end
          end).

%% The logger server may still be starting: 100 tries, 50 ms apart.
add_flight_handler(Tries) ->
    Added = try logger:add_handler(?FLIGHT_HANDLER, ?MODULE, #{level => error})
            catch exit:Why -> {error, Why}
            end,
    case Added of
        ok -> ok;
        {error, {already_exist, _}} -> ok;
        {error, _} when Tries > 0 ->
            timer:sleep(50),
            add_flight_handler(Tries - 1);
        {error, Why2} -> {error, Why2}
    end.

%% logger's handler callback, run in the process that logs: a supervisor
%% report of a supervisor that reached its maximum restart intensity (the
%% one report it writes before it gives up) is told to the watch.
log(#{msg := {report, #{label := {supervisor, shutdown}, report := Report}}}, _Config)
  when is_list(Report) ->
    case lists:keyfind(reason, 1, Report) of
        {reason, reached_max_restart_intensity} ->
            Name = case lists:keyfind(supervisor, 1, Report) of
                       {supervisor, N} -> N;
                       false -> unknown
                   end,
            catch ?FLIGHT_WATCH ! {supervisor_gave_up, Name},
            ok;
        _ ->
            ok
    end;
log(_Event, _Config) ->
    ok.
