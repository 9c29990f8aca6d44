-module(re_compile).
-export([main/0]).

%% re:compile/1,2: the pattern term's visible elements, compile errors
%% (the offset; the message differs between PCRE 8 and PCRE2, so only
%% its type is printed), options refused on either side, runs with
%% compiled patterns. Left out: patterns whose error offset differs
%% between PCRE 8 (OTP 25, 27) and PCRE2 (OTP 28+), such as "a)" and
%% "x(?<=a+)y".
p(X) -> io:format("~p~n", [X]).

shape({ok, {re_pattern, N, U, C, _}}) -> {ok, N, U, C};
shape({error, {Msg, Off}}) when is_list(Msg) -> {error, Off};
shape(Other) -> Other.

c(R, O) -> p(try shape(re:compile(R, O)) catch C:E -> {C, E} end).

main() ->
    p(shape(re:compile("a(b)(c)"))),
    c("(", []),
    c("a(b", []),
    c("[a", []),
    c("a{2,1}", []),
    c("(?<n>a)(?<n>b)", [dupnames]),
    c("\\", []),
    c("(?P<x", []),
    c("a", [{newline, crlf}]),
    c("a", [{newline, anycrlf}]),
    c("a", [{newline, any}]),
    c("a", [{newline, cr}]),
    c("a", [{newline, lf}]),
    c("a", [{newline, bogus}]),
    c("(*CRLF)a", []),
    c("(a)(?:b)(c)", [no_auto_capture]),
    c("(a)(?<x>b)", [no_auto_capture]),
    c("a", [unicode]),
    c("a", [caseless, multiline, dotall, extended, ungreedy, dupnames, firstline]),
    c("a", [dollar_endonly, no_start_optimize, ucp, anchored, bsr_anycrlf]),
    c("a", [global]),
    c("a", [{capture, all}]),
    c("a", [{offset, 1}]),
    c("a", [report_errors]),
    c("a", [notempty]),
    c("a", [bogus]),
    c(foo, []),
    c([256], []),
    c([256], [unicode]),
    {ok, MP} = re:compile("b+", [caseless]),
    p(re:run("aBbc", MP)),
    p(try re:run("aBbc", MP, [caseless]) catch C:E -> {C, E} end),
    p(re:run("aBbc", MP, [{capture, all, list}, global])),
    p(re:run("aBbc", MP, [anchored])),
    p(re:run("aBbc", MP, [anchored, {offset, 1}])),
    {ok, MPa} = re:compile("b", [anchored]),
    p(re:run("ab", MPa)),
    p(re:run("ab", MPa, [{offset, 1}])),
    {ok, MPx} = re:compile("a b c  # comment\n d", [extended]),
    p(re:run("xabcd", MPx)),
    {ok, MPu} = re:compile("a+?", [ungreedy]),
    p(re:run("aaa", MPu)),
    p(re:run("aaa", "a+", [ungreedy])),
    {ok, MPf} = re:compile("b", [firstline]),
    p(re:run("ab\nb", MPf)),
    p(re:run("a\nb", MPf)),
    p(re:run("a\nb", "b", [firstline, {offset, 2}])),
    p(re:run("ab\r\nc", "c", [firstline, {newline, crlf}])),
    p(re:run("x\r\ny", "\\R", [bsr_anycrlf])),
    p(re:run("x\r\ny", "\\R", [bsr_unicode])),
    p(try re:run("a", "(*UTF)a", [never_utf]) catch C2:E2 -> {C2, E2} end),
    p(re:run("a", "(*UTF)a", [])),
    p(re:run("ab", "(?<=\\Ca)b", [])),
    p(re:run("abc", "(*NO_START_OPT)c", [no_start_optimize])),
    p(re:run("ab\ncd", "^c", [multiline, {newline, cr}])),
    ok.
