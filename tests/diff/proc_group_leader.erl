%% Group leaders: a process's output goes to its group leader; a custom
%% group leader captures io:format output of the processes it leads.
-module(proc_group_leader).
-export([main/0]).

main() ->
    Self = self(),
    Capture = spawn(fun() -> capture([]) end),
    Worker = spawn(fun() ->
                           group_leader(Capture, self()),
                           io:format("hello ~p~n", [42]),
                           io:put_chars("chars\n"),
                           io:write({a, b}),
                           io:nl(),
                           Self ! done
                   end),
    receive done -> ok end,
    Capture ! {get, self()},
    receive {captured, Text} -> io:format("captured: ~p~n", [Text]) end,
    io:format("worker done: ~p~n", [is_pid(Worker)]),
    %% Children inherit the group leader.
    Child = spawn(fun() ->
                          group_leader(Capture, self()),
                          spawn(fun() -> io:format("grandchild~n"), Self ! done end)
                  end),
    receive done -> ok end,
    Capture ! {get, self()},
    receive {captured, Text2} -> io:format("captured: ~p~n", [Text2]) end,
    io:format("child: ~p~n", [is_pid(Child)]),
    io:format("own leader unchanged~n").

capture(Acc) ->
    receive
        {io_request, From, ReplyAs, Req} ->
            {Reply, Out} = request(Req),
            From ! {io_reply, ReplyAs, Reply},
            capture([Out | Acc]);
        {get, From} ->
            From ! {captured, lists:flatten(lists:reverse(Acc))},
            capture([])
    end.

request({put_chars, unicode, Chars}) -> {ok, unicode:characters_to_list(Chars)};
request({put_chars, unicode, M, F, A}) -> {ok, unicode:characters_to_list(apply(M, F, A))};
request({put_chars, latin1, Chars}) -> {ok, binary_to_list(iolist_to_binary(Chars))};
request({put_chars, latin1, M, F, A}) -> {ok, binary_to_list(iolist_to_binary(apply(M, F, A)))};
request(_) -> {{error, request}, []}.
