%% Syntax PCRE2 added over PCRE 8 (OTP 28 moved re to PCRE2): each
%% pattern is compiled and run; PCRE 8 (OTP 25, 27) rejects with its own
%% message and offset what PCRE2 takes (alpha assertions, (?*, (?n),
%% string callouts, (?(VERSION, \N{U+..}, PCRE2's start-of-pattern
%% items), next to syntax both engines know. (PCRE 8 allows \K in a
%% lookbehind, which PCRE2 forbids: beamr, on PCRE2, cannot, so that one
%% is left out.)
-module(re_pcre2_syntax).
-export([main/0]).

try_run(S, P, O) ->
    case re:compile(P, O) of
        {ok, R} -> re:run(S, R, [{capture, all, list}]);
        {error, E} -> {compile_error, E}
    end.

main() ->
    Cases = [{"xAy", "\\N{U+41}", [unicode]},
             {"xAy", "\\N{U+41}", []},
             {"abc", "a(*napla:bc)b", []},
             {"abc", "a(?*bc)b", []},
             {"abc", "a(*pla:b)", []},
             {"abc", "a(*positive_lookahead:b)", []},
             {"abc", "(*plb:a)b", []},
             {"abc", "a(*nla:c)", []},
             {"abc", "(*nlb:x)b", []},
             {"aaab", "(*atomic:a+)b", []},
             {"abc", "(?^)abc", []},
             {"ABC", "(?i)a(?^)BC", []},
             {"ABC", "(?i)a(?^)bc", []},
             {"xy", "(?(VERSION>=10.0)x|z)y", []},
             {"abcd", "(?|(a)|(b))(c)", []},
             {"foobar", "foo\\Kbar", []},
             {"ab", "(?<n>a)(?'m'b)", []},
             {"ab", "(?P<n>a)(?P=n)?b", []},
             {"abc", "a(*ACCEPT)bc", []},
             {"abc", "a(?C\"x\")bc", []},
             {"abc", "a(?C1)bc", []},
             {"a1", "(*sr:\\w+)", [unicode]},
             {"aa", "(a)\\g{-1}", []},
             {"ab", "(?aD)\\d", []},
             {"a b", "a\\x{20}b", []},
             {"a\nb", "a\\Rb", []},
             {"abc", "(?x: a b c )", []},
             {"abc", "(?xx)[a b]bc", []},
             {"abc", "\\Qa\\Ebc", []},
             {"ab", "a(?#comment)b", []},
             {"aB", "a(?-i:B)", [caseless]},
             {"ab", "(?n)(a)(b)", []},
             {"ab", "(*LIMIT_HEAP=1000)ab", []},
             {"ab", "(*LIMIT_DEPTH=1000)ab", []},
             {"ab", "(*NOTEMPTY)ab", []},
             {"ab", "(*NO_JIT)ab", []},
             {"ab", "(*UTF)ab", []},
             {"ab", "(*UTF8)ab", []},
             {"ab", "(*UCP)ab", []},
             {"aba", "(?<=a|ab)a", []},
             {"abcab", "(?<x>ab)c\\k{x}", []}],
    [io:format("~s ~w: ~p~n", [P, O, try_run(S, P, O)]) || {S, P, O} <- Cases],
    ok.
