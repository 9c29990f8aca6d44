%% beamr's stand-in for kernel's top supervisor (`kernel_sup'), to which
%% OTP's library adds servers it starts on demand (timer:send_interval/3
%% starts `timer_server' with supervisor:start_child(kernel_sup, Spec)).
%% It starts children and answers which_children/count_children; it does
%% not restart them.
%%
%% Compiled into beamr_kernel_sup.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_kernel_sup.erl
-module(beamr_kernel_sup).
-export([start/0, start_child/1]).

%% beamr registers the process as `kernel_sup' before it first runs.
start() ->
    process_flag(trap_exit, true),
    loop([]).

%% What beamr's boot runs to start one of kernel's own servers under
%% kernel_sup: exits `normal' once it runs, else `{not_started, Reason}'
%% (Reason may itself be `normal'), which the boot reports (kernel's boot
%% fails the same way).
start_child(Spec) ->
    case supervisor:start_child(kernel_sup, Spec) of
        {ok, _Pid} -> ok;
        {ok, _Pid, _Info} -> ok;
        {error, Reason} -> exit({not_started, Reason})
    end.

loop(Children) ->
    receive
        {'$gen_call', From, Request} ->
            {Reply, Children1} = request(Request, Children),
            reply(From, Reply),
            loop(Children1);
        {'EXIT', Pid, _Reason} ->
            loop(lists:keydelete(Pid, 2, Children));
        _Other ->
            loop(Children)
    end.

request({start_child, Spec}, Children) ->
    case spec(Spec) of
        {ok, Id, {M, F, A}, Type} ->
            case lists:keyfind(Id, 1, Children) of
                {Id, Pid, _} ->
                    {{error, {already_started, Pid}}, Children};
                false ->
                    case catch apply(M, F, A) of
                        {ok, Pid} when is_pid(Pid) ->
                            {{ok, Pid}, [{Id, Pid, Type} | Children]};
                        {ok, Pid, Info} when is_pid(Pid) ->
                            {{ok, Pid, Info}, [{Id, Pid, Type} | Children]};
                        ignore ->
                            {{ok, undefined}, Children};
                        {error, _} = Error ->
                            {Error, Children};
                        Other ->
                            {{error, Other}, Children}
                    end
            end;
        error ->
            {{error, {invalid_child_spec, Spec}}, Children}
    end;
request(which_children, Children) ->
    {[{Id, Pid, Type, dynamic} || {Id, Pid, Type} <- Children], Children};
request(count_children, Children) ->
    Workers = length([x || {_, _, worker} <- Children]),
    Supervisors = length(Children) - Workers,
    {[{specs, length(Children)}, {active, length(Children)},
      {supervisors, Supervisors}, {workers, Workers}], Children};
request(_Request, Children) ->
    {{error, not_supported}, Children}.

spec(#{id := Id, start := {M, F, A}} = Spec) ->
    {ok, Id, {M, F, A}, maps:get(type, Spec, worker)};
spec({Id, {M, F, A}, _Restart, _Shutdown, Type, _Modules}) ->
    {ok, Id, {M, F, A}, Type};
spec(_) ->
    error.

reply({_Pid, [alias | Alias] = Tag}, Reply) when is_reference(Alias) ->
    Alias ! {Tag, Reply};
reply({Pid, Tag}, Reply) ->
    Pid ! {Tag, Reply}.
