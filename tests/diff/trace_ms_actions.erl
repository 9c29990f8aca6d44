%% Actions of tracing match specifications: return_trace and
%% exception_trace per call, caller/0, silent/1, enable_trace and
%% disable_trace, trace/2, get_tcw/set_tcw, process_dump (a binary), and
%% message(false) with return_trace still reporting the return.
-module(trace_ms_actions).
-export([main/0, f/1, fail/1, quiet/0, loud/0, sender/1]).

f(X) -> X * 2.
fail(X) -> erlang:error({bad, X}).
quiet() -> ok.
loud() -> ok.
sender(To) -> To ! from_sender, ok.

main() ->
    Self = self(),
    Names = fun(W) -> #{W => w, Self => main} end,
    Run = fun(Pattern, Body) ->
                  W = spawn(fun() -> receive go -> ok end, Body(), Self ! done end),
                  1 = erlang:trace(W, true, [call]),
                  [erlang:trace_pattern(MFA, Ms, []) || {MFA, Ms} <- Pattern],
                  W ! go,
                  receive done -> ok end,
                  trace_names:print(Names(W)),
                  erlang:trace_pattern({?MODULE, '_', '_'}, false, [])
          end,
    io:format("return_trace only for 2:~n"),
    Run([{{?MODULE, f, 1}, [{[2], [], [{return_trace}]}, {'_', [], []}]}],
        fun() -> ?MODULE:f(1), ?MODULE:f(2) end),
    io:format("exception_trace:~n"),
    Run([{{?MODULE, fail, 1}, [{'_', [], [{exception_trace}]}]}],
        fun() -> catch ?MODULE:fail(1) end),
    io:format("caller:~n"),
    Run([{{?MODULE, f, 1}, [{'_', [], [{message, {caller}}]}]}],
        fun() -> ?MODULE:f(1), ?MODULE:f(2), ok end),
    io:format("message(false) and return_trace:~n"),
    Run([{{?MODULE, f, 1}, [{'_', [], [{message, false}, {return_trace}]}]}],
        fun() -> ?MODULE:f(3) end),
    io:format("silent:~n"),
    Run([{{?MODULE, quiet, 0}, [{'_', [], [{silent, true}]}]},
         {{?MODULE, loud, 0}, [{'_', [], [{silent, false}]}]},
         {{?MODULE, f, 1}, true}],
        fun() -> ?MODULE:f(1), ?MODULE:quiet(), ?MODULE:f(2), ?MODULE:loud(), ?MODULE:f(3) end),
    io:format("enable_trace and disable_trace:~n"),
    Run([{{?MODULE, sender, 1}, [{'_', [], [{enable_trace, send}]}]},
         {{?MODULE, f, 1}, [{'_', [], [{disable_trace, send}]}]}],
        fun() -> ?MODULE:sender(Self), ?MODULE:f(1), ?MODULE:sender(Self) end),
    flush_from_sender(),
    io:format("trace/2:~n"),
    Run([{{?MODULE, sender, 1}, [{'_', [], [{trace, [call], [send]}]}]}],
        fun() -> ?MODULE:sender(Self), ?MODULE:f(1), ?MODULE:sender(Self) end),
    flush_from_sender(),
    io:format("trace control word:~n"),
    Old = erlang:system_flag(trace_control_word, 3),
    io:format("old word ~p~n", [Old]),
    Run([{{?MODULE, f, 1}, [{'_', [{'=:=', {get_tcw}, 3}], [{message, {set_tcw, 7}}]}]}],
        fun() -> ?MODULE:f(1), ?MODULE:f(2) end),
    io:format("word now ~p~n", [erlang:system_flag(trace_control_word, 0)]),
    io:format("process_dump:~n"),
    W = spawn(fun() -> receive go -> ok end, ?MODULE:f(1), Self ! done end),
    1 = erlang:trace(W, true, [call]),
    1 = erlang:trace_pattern({?MODULE, f, 1}, [{'_', [], [{message, {process_dump}}]}], []),
    W ! go,
    receive done -> ok end,
    receive
        {trace, W, call, {?MODULE, f, [1]}, Dump} ->
            io:format("dump is a binary: ~p, names the process: ~p~n",
                      [is_binary(Dump), binary:match(Dump, <<"=proc:">>) =/= nomatch])
    after 1000 -> io:format("no dump~n")
    end.

flush_from_sender() ->
    receive from_sender -> flush_from_sender() after 0 -> ok end.
