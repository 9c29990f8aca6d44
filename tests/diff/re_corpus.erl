-module(re_corpus).
-export([main/0]).

%% A corpus: every pattern against every subject, first match and all
%% matches (with all groups), so hundreds of cases in one program.
p(X) -> io:format("~w~n", [X]).

patterns() ->
    ["a", "a*", "a+?", "[a-c]+", "[^a-c]+", "\\d+", "\\D", "\\w+", "\\W+", "\\s+",
     "\\S+", "\\bfo", "o\\b", "\\Bo", "^", "$", "^\\w+", "\\w+$", ".", ".*",
     "(a)(b)?", "(?:ab)+", "(a|b)+", "(a|ab)(c|bcd)(d*)", "([a-z]+)(\\d*)",
     "(\\w)\\1", "(?<w>o+)", "x?", "[[:alpha:]]+", "[[:punct:]]", "[.]",
     "\\.", "foo|bar", "(?i)FOO", "o{2}", "o{1,}", "\\t|\\n", "(?m)^\\w",
     "(?s).+", "(?=o)", "(?<=o)", "(?!o).", "[\\d-]+", "\\x41|\\x{62}"].

subjects() ->
    ["", "a", "abc", "aab", "foo bar", "foo\nbar\n", "abcd 1234-56", "Foo.Bar!",
     "\tx\ny", "ooo", "AbAb", "zz"].

main() ->
    [begin
         p({P, S, re:run(S, P), re:run(S, P, [global])})
     end || P <- patterns(), S <- subjects()],
    ok.
