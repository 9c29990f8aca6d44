-module(port_echo_cat).
-export([main/0]).

%% Data written to `cat` comes back, in order, as {Port, {data, Bytes}}.
main() ->
    P = open_port({spawn, "cat"}, []),
    io:format("is_port ~p~n", [is_port(P)]),
    io:format("connected ~p~n", [erlang:port_info(P, connected) =:= {connected, self()}]),
    io:format("links ~p~n", [erlang:port_info(P, links) =:= {links, [self()]}]),
    io:format("name ~p~n", [erlang:port_info(P, name)]),
    io:format("in ports/0 ~p~n", [lists:member(P, erlang:ports())]),
    {os_pid, OsPid} = erlang:port_info(P, os_pid),
    io:format("os_pid ~p~n", [is_integer(OsPid) andalso OsPid > 0]),
    Parts = ["hello ", <<"binary ">>, [$i, "o", [<<"list">>]], "\n"],
    [true = port_command(P, Part) || Part <- Parts],
    P ! {self(), {command, "via message\n"}},
    Want = iolist_size(Parts) + length("via message\n"),
    io:format("~s", [collect(P, Want, [])]),
    {input, In} = erlang:port_info(P, input),
    {output, Out} = erlang:port_info(P, output),
    io:format("input ~p output ~p~n", [In, Out]),
    io:format("info keys ~p~n", [[K || {K, _} <- erlang:port_info(P)]]),
    true = port_close(P),
    io:format("after close ~p ~p~n", [erlang:port_info(P), erlang:port_info(P, name)]),
    io:format("in ports/0 ~p~n", [lists:member(P, erlang:ports())]),
    io:format("is_port ~p~n", [is_port(P)]),
    receive {'EXIT', P, R} -> io:format("exit ~p~n", [R]); Any -> io:format("unexpected ~p~n", [Any]) after 200 -> io:format("no message~n") end.

collect(_P, 0, Acc) ->
    lists:append(lists:reverse(Acc));
collect(P, Left, Acc) ->
    receive
        {P, {data, D}} -> collect(P, Left - length(D), [D | Acc])
    after 5000 -> timeout
    end.
