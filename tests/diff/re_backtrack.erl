-module(re_backtrack).
-export([main/0]).

%% Backtracking-heavy patterns and the match limits, lookarounds,
%% backreferences, possessive quantifiers, atomic groups, recursion and
%% conditionals.
p(X) -> io:format("~p~n", [X]).

t(S, R, O) -> p(try re:run(S, R, O) catch C:E -> {C, E} end).

main() ->
    Bad = lists:duplicate(28, $a) ++ "b",
    t(Bad, "(a+)+$", []),
    t(Bad, "(a+)+$", [report_errors]),
    t(Bad, "(a|aa)+$", [report_errors]),
    t(Bad, "(a*)*$", [report_errors]),
    t(Bad, "(a+)+b", []),
    t(Bad, "(?>a+)+$", [report_errors]),
    t(Bad, "a++$", [report_errors]),
    t("aaaaaaaaaaaaab", "(a+)+$", [{match_limit, 100}, report_errors]),
    t("aaaaaaaaaaaaab", "(a+)+$", [{match_limit, 100}]),
    t("aaaaaaaaaaaaab", "(a+)+$", [{match_limit, 100}, report_errors, global]),
    t("aaab", "(a+)+b", [{match_limit, 100000}, report_errors]),
    t("aaab", "(a+)+b", [{match_limit_recursion, 100000}, report_errors]),
    t("aaab", "a", [{match_limit, -1}]),
    t("foobar", "foo(?=bar)", []),
    t("foobaz", "foo(?!bar)", []),
    t("xbar", "(?<=x)bar", []),
    t("ybar", "(?<!x)bar", []),
    t("abcabc", "(abc)\\1", []),
    t("abab", "(?<p>ab)\\k<p>", [{capture, all, list}]),
    t("aaa", "(a)\\g{-1}", []),
    t("aaaa", "a*+a", []),
    t("aaaa", "a++", []),
    t("aaaa", "(?>a*)a", []),
    t("((a)(b(c)))", "\\((?:[^()]|(?R))*\\)", [{capture, first, list}]),
    t("<<a>>", "<(?:[^<>]|(?R))*>", [{capture, first, list}]),
    t("ab", "(a)?(?(1)b|c)", []),
    t("c", "(a)?(?(1)b|c)", []),
    t("abcabc", "(?:abc){2}", []),
    t("abc", "a(?#comment)b", []),
    t("aaa", "a{2,}?", []),
    t("The Quick", "(?i:quick)", []),
    t("xyz", "x(*COMMIT)y|xyz", []),
    t("aaab", "a+(*SKIP)b", []),
    t("abc", "\\Ab|c\\z", [global]),
    t("ab\n", "b\\Z", []),
    t("ab\n", "b\\z", []),
    ok.
