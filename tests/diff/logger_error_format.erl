%% logger:error/1,2,3 and the other level functions with a format and
%% arguments, written by the default handler (legacy header, multi-line).
-module(logger_error_format).
-export([main/0]).

main() ->
    logger:error("plain error"),
    logger:error("formatted ~p and ~s", [{a, 1}, "text"]),
    logger:error("with metadata ~w", [x], #{custom => 1}),
    logger:warning("a warning: ~p", [[1, 2, 3]]),
    logger:critical("critical ~p", [c]),
    logger:alert("alert"),
    logger:emergency("emergency"),
    logger:notice("notice ~p", [n]),
    %% Below the primary level (notice): dropped.
    logger:info("info is dropped"),
    logger:debug("debug is dropped"),
    logger:log(error, "log/3 at ~p", [error]),
    logger:error("a long term: ~p", [lists:seq(1, 40)]),
    logger_sync:wait(),
    io:format("done~n").
