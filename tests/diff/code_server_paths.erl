%% code:add_path* through the code_server protocol: the directory is on
%% the path afterwards, at the front or the back; a missing directory is
%% an error. OTP 26 on adds a cache setting to the request.
-module(code_server_paths).
-export([main/0]).

main() ->
    {ok, Cwd} = file:get_cwd(),
    Dir = filename:join(Cwd, "code_server_paths_dir"),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    io:format("add last: ~p~n", [call({add_path, last, Dir})]),
    io:format("last: ~p~n", [lists:last(code:get_path()) =:= Dir]),
    io:format("add first: ~p~n", [call({add_path, first, Dir})]),
    io:format("first: ~p~n", [hd(code:get_path()) =:= Dir]),
    io:format("missing: ~p~n", [call({add_path, last, filename:join(Dir, "missing")})]),
    io:format("add_pathz: ~p~n", [code:add_pathz(Dir)]),
    io:format("done~n").

call({add_path, Where, Dir}) ->
    case erlang:system_info(otp_release) of
        "25" -> call1({add_path, Where, Dir});
        _ -> call1({add_path, Where, Dir, nocache})
    end.

call1(Request) ->
    code_server ! {code_call, self(), Request},
    receive {code_server, Reply} -> Reply after 5000 -> timeout end.
