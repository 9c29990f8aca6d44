%% logger_formatter's configuration on the default handler: template,
%% legacy_header, max_size, depth; logger_formatter:format/2 called
%% directly (logger_formatter_single_line: single_line).
-module(logger_formatter_config).
-export([main/0]).

main() ->
    ok = logger:update_formatter_config(default, #{legacy_header => false,
                                                   template => [level, ": ", msg, "\n"]}),
    logger:error("short ~p", [[{a, 1}, {b, lists:seq(1, 30)}]]),
    logger:warning([{k, v}, {list, [1, 2, 3]}]),
    ok = logger:update_formatter_config(default, #{template => ["[", level, "] ", mfa, " ",
                                                                {pid, ["has pid"], ["no pid"]}, " ", msg, "\n"]}),
    logger:error("template with missing keys"),
    ok = logger:update_formatter_config(default, #{template => [msg, "\n"], max_size => 20}),
    logger:error("a message longer than twenty characters"),
    ok = logger:update_formatter_config(default, #{max_size => unlimited, depth => 3}),
    logger:error("deep ~p", [[1, 2, 3, 4, 5]]),
    ok = logger:set_handler_config(default, formatter,
                                   {logger_formatter, #{template => [level, "|", msg, "\n"], single_line => false}}),
    logger:error("multi~nline"),
    logger_sync:wait(),
    io:format("bad formatter: ~p~n",
              [logger:set_handler_config(default, formatter, {logger_formatter, #{template => bad}})]),
    Event = #{level => error, msg => {string, "direct"}, meta => #{time => 0}},
    io:format("~s", [logger_formatter:format(Event, #{template => [level, " ", msg, "\n"], single_line => false})]),
    io:format("done~n").
