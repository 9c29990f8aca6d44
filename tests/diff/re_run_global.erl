-module(re_run_global).
-export([main/0]).

%% global: every match, empty matches, offsets, newline conventions with
%% CRLF subjects, capture specs in global mode.
p(X) -> io:format("~p~n", [X]).

t(S, R, O) -> p(try re:run(S, R, O) catch C:E -> {C, E} end).

main() ->
    t("abcabc", "b", [global]),
    t(<<"abcabc">>, "(a)(b)?(x)?", [global, {capture, all, binary}]),
    t("", "x*", [global]),
    t("abc", "x*", [global]),
    t("abc", "", [global]),
    t("abc", "", [global, {offset, 2}]),
    t("abc", "", [global, {offset, 3}]),
    t("aaa", "a*?", [global]),
    t("aaa", "a|", [global]),
    t("abc", "(?=c)", [global]),
    t("abc", "(?=b)|b", [global]),
    t("abcabc", "\\b", [global]),
    t("a\r\nb", "", [global]),
    t("a\r\nb", "", [global, {newline, crlf}]),
    t("a\r\nb", "", [global, {newline, any}]),
    t("a\r\nb", "", [global, {newline, anycrlf}]),
    t("a\r\nb", "", [global, {newline, cr}]),
    t("a\r\nb\r\n", "$", [global, multiline]),
    t("a\r\nb\r\n", "$", [global, multiline, {newline, crlf}]),
    t("a\r\nb\r\n", "^", [global, multiline, {newline, crlf}]),
    t("a\rb\rc", "^.", [global, multiline, {newline, cr}]),
    t("a\nb\nc", "^.", [global, multiline, {newline, cr}]),
    t("one two  three", "\\s*", [global, {capture, all, list}]),
    t("one two  three", "\\w+", [global, {capture, first, binary}]),
    t("k1=v1;k2=v2", "(\\w+)=(\\w+)", [global, {capture, all_but_first, list}]),
    t("k1=v1;k2=v2", "(?<k>\\w+)=(?<v>\\w+)", [global, {capture, [v, k], binary}]),
    t("k1=v1;k2=v2", "(?<k>\\w+)=(?<v>\\w+)", [global, {capture, all_names, index}]),
    t("k1=v1;k2=v2", "(\\w+)=", [global, {capture, none}]),
    t("k1=v1;k2=v2", "zz", [global, {capture, none}]),
    t("k1=v1;k2=v2", "(\\w+)=", [global, {capture, []}]),
    t("aXbXc", "x", [global, caseless, {offset, 2}]),
    t("abab", "(?<=a)b", [global]),
    t("abab", "b(?!$)", [global]),
    t("aaaa", "aa", [global]),
    t("aaaa", "(?=aa)", [global]),
    t("xay", "a??", [global, {capture, all, list}]),
    t("ab", "(a)|b", [global]),
    t("ab", "b|(a)", [global]),
    t("abc", "x*", [global, notempty]),
    t("abc", ".", [global, anchored]),
    t("abc", "", [global, {capture, bogus}]),
    ok.
