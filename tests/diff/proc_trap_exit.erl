%% trap_exit: exit signals as messages, exit/2 with various reasons,
%% kill, and what happens without trapping.
-module(proc_trap_exit).
-export([main/0]).

main() ->
    io:format("old flag: ~p~n", [process_flag(trap_exit, true)]),
    io:format("flag now: ~p~n", [process_flag(trap_exit, true)]),
    Self = self(),
    %% exit/2 to self while trapping: a message.
    exit(self(), custom),
    receive {'EXIT', Self, C} -> io:format("self exit: ~p~n", [C]) end,
    %% exit(self(), normal) while trapping: also a message.
    exit(self(), normal),
    receive {'EXIT', Self, N} -> io:format("self normal: ~p~n", [N]) end,
    %% Arbitrary reasons arrive intact.
    Reasons = [{tuple, 1, [list]}, <<"binary">>, 42, 3.5, "string", #{k => v}],
    lists:foreach(
      fun(Reason) ->
              P = spawn_link(fun() -> exit(Reason) end),
              receive {'EXIT', P, R} -> io:format("reason ~p~n", [R]) end
      end, Reasons),
    %% A trapping child receives exit/2 signals as messages, even normal ones.
    Child = spawn_link(fun() ->
                              process_flag(trap_exit, true),
                              Self ! trapping,
                              loop(Self)
                      end),
    receive trapping -> ok end,
    exit(Child, hello),
    exit(Child, normal),
    Child ! report,
    receive {got, Msgs} -> io:format("child got: ~p~n", [[R || {'EXIT', _, R} <- Msgs]]) end,
    %% kill cannot be trapped: the child dies with 'killed'.
    exit(Child, kill),
    receive {'EXIT', Child, K} -> io:format("killed: ~p~n", [K]) end,
    %% A non-trapping process dies of exit/2 with any reason but normal.
    P2 = spawn_link(fun() -> receive after infinity -> ok end end),
    exit(P2, normal),
    timer:sleep(20),
    io:format("normal ignored: ~p~n", [is_process_alive(P2)]),
    exit(P2, shutdown),
    receive {'EXIT', P2, S} -> io:format("shutdown: ~p~n", [S]) end,
    %% Turning trapping off.
    io:format("off: ~p~n", [process_flag(trap_exit, false)]),
    io:format("badarg: ~p~n", [try process_flag(trap_exit, 'maybe') catch Class:Why -> {Class, Why} end]).

loop(Parent) -> loop(Parent, []).

loop(Parent, Acc) ->
    receive
        report -> Parent ! {got, lists:reverse(Acc)}, loop(Parent, []);
        M -> loop(Parent, [M | Acc])
    end.
