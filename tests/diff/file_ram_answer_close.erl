-module(file_ram_answer_close).
-export([main/0]).

%% The RAM file driver answers each command before the command returns,
%% as erts's driver outputs from its command callback: a port closed right
%% after a command has already sent its answer, through port_command/2 and
%% through `Port ! {Pid, {command, Data}}` alike, in binary and list mode.
main() ->
    %% Command 1 (open), mode 3 (read and write), initial data "abc".
    Open = <<1, 0, 0, 0, 3, "abc">>,
    %% Command 37 (size).
    Size = <<37>>,
    by_port_command([binary], Open),
    by_port_command([], Open),
    by_message([binary], Open),
    by_message([], Open),
    both([binary], Open, Size),
    ok.

by_port_command(Mode, Command) ->
    P = open_port({spawn, "ram_file_drv"}, Mode),
    true = port_command(P, Command),
    true = port_close(P),
    report(port_command, Mode, P).

by_message(Mode, Command) ->
    P = open_port({spawn, "ram_file_drv"}, Mode),
    P ! {self(), {command, Command}},
    true = port_close(P),
    report(message, Mode, P).

both(Mode, First, Second) ->
    P = open_port({spawn, "ram_file_drv"}, Mode),
    true = port_command(P, First),
    true = port_command(P, Second),
    true = port_close(P),
    report(first, Mode, P),
    report(second, Mode, P).

report(How, Mode, P) ->
    receive
        {P, {data, Answer}} -> io:format("~p ~p: ~p~n", [How, Mode, Answer])
    after 0 ->
        io:format("~p ~p: no answer~n", [How, Mode])
    end.
