-module(port_badargs).
-export([main/0]).

%% What bad arguments to the port BIFs raise.
main() ->
    Cat = {spawn, "cat"},
    [try_it(Name, fun() -> open_port(N, O) end) || {Name, N, O} <- [
        {bad_name, 42, []},
        {bad_tuple, {spawnx, "cat"}, []},
        {empty_command, {spawn, ""}, []},
        {number_command, {spawn, 42}, []},
        {bad_option, Cat, [bogus]},
        {improper_options, Cat, [binary | stream]},
        {options_not_list, Cat, binary},
        {line_zero, Cat, [{line, 0}]},
        {packet_three, Cat, [{packet, 3}]},
        {line_and_packet, Cat, [{line, 2}, {packet, 2}]},
        {args_for_spawn, Cat, [{args, ["x"]}]},
        {bad_env, Cat, [{env, [{"A", 1}]}]},
        {env_not_list, Cat, [{env, foo}]},
        {bad_cd, Cat, [{cd, 42}]},
        {missing_executable, {spawn_executable, "/nonexistent/beamr/prog"}, []},
        {bad_fd, {fd, a, 1}, []}]],
    P = open_port(Cat, []),
    try_it(bad_command_option, fun() -> port_command(P, "x", [bad]) end),
    try_it(command_on_pid, fun() -> port_command(self(), "x") end),
    try_it(close_pid, fun() -> port_close(self()) end),
    try_it(info_bad_item, fun() -> erlang:port_info(P, bogus) end),
    try_it(info_not_port, fun() -> erlang:port_info(42) end),
    try_it(monitor_not_port, fun() -> erlang:monitor(port, self()) end),
    try_it(force_option, fun() -> port_command(P, "x", [force, nosuspend]) end),
    try_it(nosuspend_option, fun() -> port_command(P, "x", [nosuspend]) end),
    port_close(P),
    try_it(command_closed, fun() -> port_command(P, "x") end),
    try_it(close_closed, fun() -> port_close(P) end),
    try_it(info_closed, fun() -> erlang:port_info(P, name) end),
    %% A file that cannot be run; a directory, whose exec fails in the child.
    file:write_file("/tmp/beamr_port_noexec.sh", "echo hi\n"),
    file:change_mode("/tmp/beamr_port_noexec.sh", 8#644),
    try_it(not_executable, fun() -> open_port({spawn_executable, "/tmp/beamr_port_noexec.sh"}, []) end),
    file:delete("/tmp/beamr_port_noexec.sh"),
    D = open_port({spawn_executable, "/tmp"}, [exit_status]),
    receive {D, {exit_status, S}} -> io:format("directory: exit_status ~p~n", [S]) after 3000 -> io:format("timeout~n") end,
    %% Writing to an input-only port makes it exit with ebadf. (Its program
    %% must outlive the write: cat, with no input, would end at once and
    %% race it.)
    process_flag(trap_exit, true),
    Q = open_port({spawn, "sleep 2"}, [in]),
    try_it(command_input_only, fun() -> port_command(Q, "x") end),
    %% It exits at once; the timeout only ends a run where it did not.
    receive {'EXIT', Q, R} -> io:format("input only port exit ~p~n", [R]) after 30000 -> io:format("no exit~n") end,
    ok.

try_it(Name, F) ->
    R = try F() of
            V when is_port(V) -> catch port_close(V), a_port;
            V -> {ok, V}
        catch C:E -> {C, E}
        end,
    io:format("~p: ~p~n", [Name, R]).
