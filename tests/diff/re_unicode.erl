-module(re_unicode).
-export([main/0]).

%% unicode and ucp: UTF-8 subjects, charlist subjects and patterns, byte
%% offsets into UTF-8, \w and \b with and without ucp, caseless Unicode,
%% empty global matches stepping over whole characters, invalid UTF-8.
%% Not here: \\w, caseless and classes on Latin-1 letters without ucp,
%% which OTP 25 and 27's PCRE 8 read from Latin-1 tables and PCRE2 (OTP
%% 28+, and beamr) from ASCII ones.
p(X) -> io:format("~w~n", [X]).

t(S, R, O) -> p(try re:run(S, R, O) catch C:E -> {C, E} end).

main() ->
    S = "héllo wörld ñ ÅÄÖ 日本語",
    B = unicode:characters_to_binary(S),
    t(S, "l+", [unicode]),
    t(B, "l+", [unicode]),
    t(S, ".", [unicode, global, {capture, all, list}]),
    t(B, "ö", [unicode]),
    t(S, "é", [unicode, {capture, all, binary}]),
    t(S, "日本", [unicode, {capture, all, list}]),
    t(B, <<"日本"/utf8>>, [unicode, {capture, all, index}]),
    t(B, "\\w+", [unicode, ucp, global, {capture, all, binary}]),
    t(B, "\\bw", [unicode, global]),
    t(B, "\\bw", [unicode, ucp, global]),
    t(B, "åäö", [unicode, caseless]),
    t(B, "åäö", [unicode, caseless, {capture, all, list}]),
    t(B, "\\p{Lu}+", [unicode, global, {capture, all, list}]),
    t(B, "\\p{Han}", [unicode, global]),
    t(B, "\\x{65e5}", [unicode]),
    t(B, "", [unicode, global, {offset, 25}]),
    t(B, "", [unicode, global]),
    t(B, "o", [unicode, {offset, 7}]),
    t(B, "o", [unicode, {offset, 2}]),
    t(B, ".", [unicode, {offset, 2}]),
    t(<<255, 254>>, "a", [unicode]),
    t(<<"a", 255>>, "a", []),
    t(<<"a", 255>>, ".$", [{capture, all, list}]),
    t([$a, 16#1F600, $b], "\\x{1F600}", [unicode]),
    t([$a, 16#1F600, $b], ".", [unicode, global, {capture, all, list}]),
    t([$a, 16#1F600, $b], [16#1F600], [unicode, {capture, all, binary}]),
    t("abc", [16#1F600], []),
    t(<<"caf", 233>>, <<233>>, []),
    t(<<"caf", 233>>, "\\xe9", [{capture, all, list}]),
    t("naïve", "ï", [unicode, {capture, all, list}]),
    {ok, MP} = re:compile("ö+", [unicode]),
    p(element(3, MP)),
    t("wöörld", MP, [{capture, all, list}]),
    t(<<"wöörld"/utf8>>, MP, [{capture, all, binary}]),
    t(<<"wöörld"/utf8>>, MP, [global]),
    {ok, MP2} = re:compile(<<"ö+">>),
    p(element(3, MP2)),
    t(<<"wöörld"/utf8>>, MP2, []),
    p(re:compile([16#1F600], [unicode]) =/= error),
    ok.
