-module(re_replace).
-export([main/0]).

%% re:replace/3,4: &, \N, \gN, \g{N}, escapes, funs, global, return
%% types, unicode, errors.
p(X) -> io:format("~p~n", [X]).

r(S, R, Repl, O) -> p(try re:replace(S, R, Repl, O) catch C:E -> {C, E} end).

main() ->
    r("abcd", "c", "[&]", [{return, list}]),
    r("abcd", "c", "[\\&]", [{return, list}]),
    r("abcd", "c", "[\\\\]", [{return, list}]),
    r("abcabc", "(b)(c)", "\\2\\1", [global, {return, list}]),
    r("abcabc", "(b)(c)", "\\g2-\\g{1}0", [global, {return, binary}]),
    r("abcabc", "(b)(c)", "<\\9>", [global, {return, list}]),
    r("abcabc", "b", "", [global, {return, list}]),
    r("abcabc", "b", "X", [{return, list}]),
    r("abc", "x*", "-", [global, {return, list}]),
    r("abc", "", "-", [global, {return, binary}]),
    r("a\r\nb", "", "|", [global, {newline, crlf}, {return, list}]),
    r("a b  c", "\\s+", "_", [global, {return, list}]),
    r(<<"The cat sat">>, "\\b(\\w)(\\w*)", "\\2\\1ay", [global, {return, binary}]),
    r("abcd", ".(.)", fun(W, [C]) -> <<$#, W/binary, $-, C/binary, $#>> end, [{return, list}]),
    r("abcd", "(.)(x)?", fun(W, L) -> [W, integer_to_list(length(L))] end, [global, {return, list}]),
    r("héllo", "é", "e", [unicode, {return, list}]),
    r("héllo", "l", "L", [unicode, global, {return, binary}]),
    r(<<"héllo"/utf8>>, ".", "[&]", [unicode, global, {return, list}]),
    r("abc", "B", "x", [caseless, {return, list}]),
    r("abc", "b", "x", [{return, iodata}]),
    r("abc", "(", "x", []),
    r("abc", "b", "x", [{capture, all}]),
    r("abc", "b", "x", [{return, tuple}]),
    r("abc", "b", "x", [report_errors]),
    r("abc", "b", "x", [bogus]),
    r(abc, "b", "x", []),
    r("aaa", "a", "\\0\\0", [global, {return, list}]),
    r("2024-05-17", "(\\d+)-(\\d+)-(\\d+)", "\\3/\\2/\\1", [{return, list}]),
    r("x", "x", "\\", [{return, list}]),
    p(re:replace("abc", "b", "x")),
    p(iolist_to_binary(re:replace("abcb", "b", "x", [global]))),
    ok.
