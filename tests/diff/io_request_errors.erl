-module(io_request_errors).
-export([main/0, bad/1]).

%% How the devices answer output requests that fail: standard output's
%% group leader (OTP 25: {error, put_chars}; from OTP 26: the formatter's
%% function name, or the request for data that is not chardata), and
%% standard_error (always {error, put_chars}); and the error_info cause
%% io:format raises with.
bad(_) -> erlang:error(oops).

main() ->
    Requests = [{put_chars, unicode, io_lib, format, ["~f", [1]]},
                {put_chars, unicode, ?MODULE, bad, [1]},
                {put_chars, unicode, ?MODULE, nonexistent, [1]},
                {put_chars, latin1, io_lib, format, ["~e", [x]]},
                {put_chars, unicode, [1, 2 | x]},
                {put_chars, latin1, [256, x]}],
    [io:format("~p~n", [io:request(standard_io, R)]) || R <- Requests],
    [io:format("~p~n", [io:request(standard_error, R)]) || R <- Requests],
    io:format("~p~n", [cause(fun() -> io:put_chars([1, 2 | x]) end)]),
    io:format("~p~n", [cause(fun() -> io:format("~f", [1]) end)]),
    io:format("~p~n", [cause(fun() -> io:fwrite("~s", [1]) end)]),
    io:format("~p~n", [cause(fun() -> io:format(standard_error, "~f", [1]) end)]),
    ok.

cause(F) ->
    try F() of
        R -> {returned, R}
    catch
        error:Reason:Stack ->
            [{io, Function, _, Info} | _] = Stack,
            {Reason, Function, proplists:get_value(error_info, Info)}
    end.
