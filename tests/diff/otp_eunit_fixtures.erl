%% eunit fixtures: setup/cleanup around a process, foreach, node-free
%% spawn groups, a test that times out and one that exits, with the
%% summary and failure reports compared.
-module(otp_eunit_fixtures).
-include_lib("eunit/include/eunit.hrl").
-export([main/0]).

main() ->
    R = eunit:test(tests(), []),
    io:format("result: ~p~n", [R]).

tests() ->
    [{setup,
      fun() -> Pid = spawn(fun counter/0), register(counter, Pid), Pid end,
      fun(Pid) -> exit(Pid, kill) end,
      fun(_) ->
              [?_assertEqual(1, call(inc)),
               ?_assertEqual(2, call(inc)),
               ?_assertEqual(2, call(get))]
      end},
     {foreach,
      fun() -> put(fixture, fresh), ok end,
      fun(_) -> erase(fixture) end,
      [fun() -> ?assertEqual(fresh, get(fixture)) end,
       fun() -> put(fixture, used), ?assertEqual(used, get(fixture)) end]},
     {spawn, [?_assertNot(is_pid(whereis(no_such_process)))]},
     {"exits", ?_test(exit(deliberate))},
     %% Far longer than its 0.1 s, so that it times out however loaded the
     %% machine (eunit ends it at its timeout).
     {timeout, 0.1, ?_test(receive after 30000 -> ok end)}].

call(Req) ->
    counter ! {Req, self()},
    receive {counter, V} -> V end.

counter() -> counter(0).
counter(N) ->
    receive
        {inc, From} -> From ! {counter, N + 1}, counter(N + 1);
        {get, From} -> From ! {counter, N}, counter(N)
    end.
