%% What differs between PCRE 8 (OTP 25 and 27) and PCRE2 (OTP 28+):
%% without ucp, PCRE 8 classifies the characters 128-255 with Latin-1
%% tables (\w, \W, \b, \B, POSIX classes, in byte and UTF-8 patterns) and
%% a caseless byte pattern folds Latin-1 letters; a `{` that is not
%% `{n}`, `{n,}` or `{n,m}` is a literal for PCRE 8; compile errors are
%% worded and placed by each engine its own way.
-module(re_release_pcre).
-export([main/0]).

members(P, Opts) ->
    {ok, R} = re:compile(P, Opts),
    Subject = fun(B) when Opts =:= [] -> <<B>>; (B) -> <<B/utf8>> end,
    [B || B <- lists:seq(128, 255), re:run(Subject(B), R) =/= nomatch].

main() ->
    Patterns = ["^\\w$", "^\\W$", "^[\\w]$", "^[^\\w]$", "^[x\\W]$", "\\b", "^.\\B",
                "^\\d$", "^\\s$", "^[[:alpha:]]$", "^[[:^alpha:]]$", "^[[:upper:]]$",
                "^[[:lower:]]$", "^[[:alnum:]]$", "^[[:word:]]$", "^[[:punct:]]$",
                "^[[:print:]]$", "^[[:graph:]]$", "^[[:cntrl:]]$", "^[[:space:]]$",
                "^[[:xdigit:]]$", "^\\h$", "^\\v$"],
    [io:format("~s ~w: ~w~n", [P, O, members(P, O)])
     || O <- [[], [unicode], [unicode, ucp]], P <- Patterns],
    Fold = [{B, C} || B <- lists:seq(128, 255), C <- lists:seq(128, 255), B =/= C,
                      re:run(<<C>>, <<"^", B, "$">>, [caseless]) =/= nomatch],
    io:format("caseless pairs: ~w~n", [Fold]),
    io:format("caseless range: ~p~n",
              [[re:run(<<"x", C, "y">>, <<"^x[\xc0-\xca]y$">>, [caseless]) =/= nomatch
                || C <- [16#c5, 16#e5, 16#ea, 16#eb]]]),
    io:format("caseless utf8: ~p~n",
              [[re:run(S, P, [unicode, caseless]) =/= nomatch
                || {S, P} <- [{<<"é"/utf8>>, <<"^É$"/utf8>>}, {<<"ā"/utf8>>, <<"^Ā$"/utf8>>}]]]),
    io:format("words: ~p~n",
              [re:run(<<"caf\xe9 na\xefve">>, <<"\\w+">>, [global, {capture, all, binary}])]),
    io:format("braces: ~p~n",
              [[re:run(S, P) || {S, P} <- [{"a{,2}", "a{,2}"}, {"aa", "^a{,2}$"},
                                            {"a{,}", "a{,}"}, {"a{ 1 }", "a{ 1 }"},
                                            {"aaa", "^a{2,}$"}, {"ab{x}", "b{x}"},
                                            {"a{2}", "^a{2}$"}, {"aa", "^a{2}$"},
                                            {"x{41}A", "\\x{41}"}]]]),
    Bad = ["(", ")", "[a", "a**", "(?<n>a)(?<n>b)", "\\", "a{2,1}", "(?P<1a>x)", "[z-a]",
           "(?z)", "\\k<nope>", "a(?#", "x{99999}", "(*FOO)", "\\p{Foo}", "[[:foo:]]",
           "(?<=a+)b", "\\c", "(?C256)", "abc)", "a\\", "(a)\\2b", "\\k<x>yz",
           "(?&foo)ab", "(?P=x)", "\\g{9}", "a\\p{Zz}b", "(?<n>a)(?<n>b)cc", "[[:fooo:]]",
           "x(?<=a|bc)y(?<=a+)", "a)b)", "ab("],
    [io:format("~s: ~p~n", [P, re:compile(P)]) || P <- Bad],
    ok.
