%% Caseless matching of Latin-1 letters in byte (non-unicode) patterns and
%% subjects, by the caseless option and by inline (?i) in its every scope:
%% to the end of the group, (?i:...), (?-i), nested groups, escapes
%% (\xHH, \x{HH}), \Q...\E, classes and ranges. OTP 25 and 27 (PCRE 8)
%% fold the Latin-1 letters, OTP 29 (PCRE2) only ASCII: each release's
%% erl gives its own answer, and beamr must give the same.
-module(re_caseless_latin1).
-export([main/0]).

subjects() ->
    [<<"\xC9">>, <<"\xE9">>, <<"a\xC9b">>, <<"\xC9\xE9">>, <<"\xD7\xF7">>,
     <<"\xDE\xFE">>, <<"\xFF\x78">>, <<"A\xE9">>, <<"\xC0\xE0">>].

patterns() ->
    ["(?i)\xE9", "(?i)\xC9", "(?i:\xE9)\xC9", "(?i:\xE9)\xE9", "(\xE9(?i))\xC9",
     "(?i)\xE9(?-i)\xE9", "(?i)[\xE0-\xEF]+", "(?i)[^\xE9]", "(?i)\\xE9", "(?i)\\x{e9}",
     "(?i)[\\xE9]", "(?i)[\\xE0-\\xEF]", "(?i)\xF7", "(?i)\xFE", "(?i)\xFF",
     "(?i)\\Q\xE9\\E", "((?i)\xE9)\xC9", "(?i)(\xE9|x)", "(?i)\xE9\xC9", "a(?i)\xC9",
     "(?xi) \xE9 ", "(?i)[[:alpha:]]+", "(?i)\xDF", "x|(?i)\xE9", "(?i)(?:a|(?-i)\xE9)",
     "(?im)^\xE0", "(?s-i:\xE9)", "(?i)\\(\xE9\\)|\xC0", "(?i)\xE9{2}", "(?i)[\xE9x]+",
     "(?i-i)\xE9", "(?i)(?#c)\xE9"].

main() ->
    Ss = subjects(),
    [begin
         Plain = [result(S, P, []) || S <- Ss],
         Caseless = [result(S, P, [caseless]) || S <- Ss],
         io:format("~w ~w~n  ~w~n", [N, Plain, Caseless])
     end || {N, P} <- lists:zip(lists:seq(1, length(patterns())), patterns())],
    {ok, MP} = re:compile("(?i)\xE9+"),
    io:format("compiled: ~w~n", [[result(S, MP, []) || S <- Ss]]),
    io:format("replace: ~w~n", [re:replace(<<"\xC9t\xE9">>, "(?i)\xE9", "e", [global, {return, binary}])]),
    io:format("split: ~w~n", [re:split(<<"a\xC9b\xE9c">>, "(?i)\xE9", [{return, binary}])]).

result(S, P, Opts) ->
    case re:run(S, P, [{capture, first, index} | Opts]) of
        {match, [{Start, Len}]} -> {Start, Len};
        nomatch -> n;
        Other -> Other
    end.
