%% logger_formatter's single_line option on the default handler: a
%% message or report on one line, its line breaks and indentation replaced.
-module(logger_formatter_single_line).
-export([main/0]).

main() ->
    ok = logger:update_formatter_config(default, #{single_line => true, legacy_header => false,
                                                   template => [level, ": ", msg, "\n"]}),
    logger:error("single ~p", [[{a, 1}, {b, lists:seq(1, 30)}]]),
    logger:warning([{k, v}, {list, [1, 2, 3]}]),
    logger:error("two~nlines"),
    logger_sync:wait(),
    io:format("done~n").
