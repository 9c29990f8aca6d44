-module(port_line_mode).
-export([main/0]).

%% {line, N}: {eol, Line} per line, {noeol, Part} for each N bytes of a
%% longer line and for a last line without its newline; \r\n ends a line.
main() ->
    Text = "short\\nexactly8\\nthis line is much longer than eight\\ncrlf\\r\\n\\nlast",
    run(Text, [{line, 8}, eof]),
    run(Text, [{line, 8}, binary, eof]),
    run(Text, [{line, 1}, eof]),
    run("no newline at all", [{line, 100}, eof]),
    run("", [{line, 4}, eof]),
    run("ab\\rcd\\r\\nx\\r", [{line, 1}, eof]),
    run("a\\nb\\n", [{line, 4}]),
    Long = lists:duplicate(70000, $x),
    P = open_port({spawn, "cat"}, [{line, 65536}, binary]),
    port_command(P, [Long, "\n", "tail\n"]),
    io:format("~p~n", [[case M of {eol, B} -> {eol, byte_size(B)}; {noeol, B} -> {noeol, byte_size(B)} end
                        || M <- take(P, 3)]]),
    port_close(P),
    ok.

run(Text, Opts) ->
    P = open_port({spawn, "printf '" ++ Text ++ "'"}, Opts),
    Ref = erlang:monitor(port, P),
    io:format("~p ~p~n", [Opts, drain(P, Ref)]).

%% Its lines, then eof, or its end without eof (its 'DOWN' comes after
%% its data), however long the program takes to run.
drain(P, Ref) ->
    receive
        {P, {data, D}} -> [D | drain(P, Ref)];
        {P, eof} -> port_close(P), erlang:demonitor(Ref, [flush]), [eof];
        {'DOWN', Ref, port, P, _} -> [closed]
    end.

take(_P, 0) -> [];
take(P, N) ->
    receive {P, {data, D}} -> [D | take(P, N - 1)] after 5000 -> [timeout] end.
