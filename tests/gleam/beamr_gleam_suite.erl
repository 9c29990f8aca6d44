%% The runner of the `gleam` step of `cargo xtask test-all`
%% (xtask/src/gleam_suites.rs): it runs a Gleam package's test suite
%% through EUnit, as gleeunit's main/0 does, and prints one line per test
%% saying what became of it, so that the step compares the outcome of
%% each test on erl and on beamr instead of a log whose shape depends on
%% timing.
%%
%% It differs from gleeunit:main/0 in two ways, both on purpose:
%% - every test runs under a per-test limit of ?TIMEOUT seconds instead of
%%   EUnit's 5 s: the step checks what the large tests compute, not how
%%   fast (speed is the benchmarks' business), and a runtime that is
%%   merely slow on a loaded 2-core machine still finishes them;
%% - the report is one line per test, without stack traces, with the
%%   test's captured output, and with pids, references and ports masked
%%   (they name where a process happened to live, not what it did).
%%
%% Run in a directory holding the package's `test/`, with the suite's
%% and its dependencies' ebin directories on the code path:
%%
%%     erl -noshell -pa ... -eval 'beamr_gleam_suite:main()'
%%     beamr run ... -e beamr_gleam_suite
%%
%% With plain arguments (`-extra M:F ...` on erl, `-- M:F ...` on beamr)
%% it runs only those tests. It prints, for each test, in the order EUnit
%% runs them:
%%
%%     TEST <module>:<function>/<arity>[#N] <outcome>[ output <<...>>]
%%
%% where <outcome> is `passed`, `failed <Class>:<Reason>`, `skipped
%% <Reason>`, `timed out`, or `cancelled <Reason>`; #N numbers the second
%% and later tests with the same source (tests made by a generator). A
%% group that EUnit gives up on prints `GROUP <description> cancelled
%% <Reason>`. Then `SUITE done` and it halts with status 0; a failure of
%% EUnit itself halts with status 2.
-module(beamr_gleam_suite).

-export([main/0]).
%% eunit_listener callbacks
-export([start/0, start/1, init/1, handle_begin/3, handle_end/3,
         handle_cancel/3, terminate/2]).

%% Seconds each test may run.
-define(TIMEOUT, 120).

main() ->
    Tests = case init:get_plain_arguments() of
                [] -> suite_tests();
                Named -> [named_test(Name) || Name <- Named]
            end,
    Result = eunit:test(Tests, [no_tty, {report, {?MODULE, []}}]),
    io:format("SUITE done~n"),
    halt(case Result of
             ok -> 0;
             error -> 0;
             _ -> 2
         end).

%% Every test of the modules gleeunit would run: those made by the
%% `.gleam` and `.erl` files under `test/`.
suite_tests() ->
    Files = filelib:wildcard("**/*.{erl,gleam}", "test"),
    Modules = [module_name(File) || File <- Files],
    [{atom_to_list(Module), module_tests(Module)} || Module <- Modules].

%% A test file's module: `a/b_test.gleam` is `a@b_test`, `x/y.erl` is `y`.
module_name(File) ->
    case filename:extension(File) of
        ".gleam" ->
            Stem = filename:rootname(File, ".gleam"),
            list_to_atom(lists:flatten(lists:join("@", filename:split(Stem))));
        ".erl" ->
            list_to_atom(filename:basename(File, ".erl"))
    end.

%% What EUnit takes from a module (functions named `..._test` of arity 0
%% and generators named `..._test_`), each under the per-test limit.
module_tests(Module) ->
    case code:ensure_loaded(Module) of
        {module, Module} ->
            [limited(Module, Function)
             || {Function, 0} <- Module:module_info(exports),
                is_test(atom_to_list(Function))];
        {error, _} ->
            %% Given to EUnit as it is, which reports it as it would for
            %% gleeunit (a group it cannot run).
            [Module]
    end.

is_test(Name) ->
    lists:suffix("_test", Name) orelse lists:suffix("_test_", Name).

limited(Module, Function) ->
    case lists:suffix("_test_", atom_to_list(Function)) of
        true -> {timeout, ?TIMEOUT, {generator, Module, Function}};
        false -> {timeout, ?TIMEOUT, {Module, Function}}
    end.

%% A test named on the command line as `Module:Function`.
named_test(Name) ->
    [Module, Function] = string:split(Name, ":"),
    limited(list_to_atom(Module), list_to_atom(Function)).

%% --- the listener ---------------------------------------------------------

start() -> start([]).

start(Options) -> eunit_listener:start(?MODULE, Options).

%% The state: how many tests have been seen with each source.
init(_Options) -> #{}.

handle_begin(_Kind, _Data, Seen) -> Seen.

handle_end(group, _Data, Seen) ->
    Seen;
handle_end(test, Data, Seen) ->
    {Key, Seen1} = key(Data, Seen),
    Outcome = case proplists:get_value(status, Data) of
                  ok -> "passed";
                  {skipped, Reason} -> "skipped " ++ show(Reason);
                  {error, {Class, Reason, _Stack}} ->
                      "failed " ++ atom_to_list(Class) ++ ":" ++ show(Reason);
                  Other -> "failed " ++ show(Other)
              end,
    report(Key, Outcome, iolist_to_binary(proplists:get_value(output, Data, []))),
    Seen1.

handle_cancel(test, Data, Seen) ->
    {Key, Seen1} = key(Data, Seen),
    Outcome = case proplists:get_value(reason, Data) of
                  timeout -> "timed out";
                  {timeout, _Where} -> "timed out";
                  Reason -> "cancelled " ++ show(Reason)
              end,
    report(Key, Outcome, <<>>),
    Seen1;
handle_cancel(group, Data, Seen) ->
    io:format("GROUP ~ts cancelled ~ts~n",
              [show(proplists:get_value(desc, Data)),
               show(proplists:get_value(reason, Data))]),
    Seen.

terminate(_Result, _Seen) -> ok.

%% `M:F/A`, with `#N` for the Nth test (from 2) of the same source.
key(Data, Seen) ->
    Source = case proplists:get_value(source, Data) of
                 {M, F, A} -> io_lib:format("~ts:~ts/~w", [M, F, A]);
                 undefined -> "unknown"
             end,
    Base = lists:flatten(Source),
    N = maps:get(Base, Seen, 0) + 1,
    Key = case N of
              1 -> Base;
              _ -> Base ++ "#" ++ integer_to_list(N)
          end,
    {Key, Seen#{Base => N}}.

report(Key, Outcome, <<>>) ->
    io:format("TEST ~ts ~ts~n", [Key, Outcome]);
report(Key, Outcome, Output) ->
    io:format("TEST ~ts ~ts output ~ts~n", [Key, Outcome, show(Output)]).

%% A term on one line, with pids, references and ports masked.
show(Term) ->
    Text = lists:flatten(io_lib:format("~1000000tp", [Term])),
    lists:foldl(fun({Pattern, Mask}, Acc) ->
                        re:replace(Acc, Pattern, Mask,
                                   [global, unicode, {return, list}])
                end,
                Text,
                [{"<[0-9]+\\.[0-9]+\\.[0-9]+>", "<pid>"},
                 {"#Ref<[0-9.]+>", "#Ref<>"},
                 {"#Port<[0-9.]+>", "#Port<>"}]).
