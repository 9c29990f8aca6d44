-module(str_string_module).
-export([main/0]).

%% OTP 20+ string module functions on lists and binaries.
main() ->
    p([string:split("a-b-c", "-"), string:split("a-b-c", "-", all)]),
    p([string:lexemes("  a  b c ", " "), string:find("hello world", "o"), string:find("hello", "z")]),
    p([string:trim("  hi  "), string:trim("xxhixx", both, "x"), string:trim(<<"  b  ">>, leading)]),
    p([string:pad("ab", 5), string:pad("ab", 5, leading, $*), string:pad("ab", 6, both)]),
    p([string:reverse("abc"), string:slice("hello", 1, 3), string:slice(<<"hello">>, 2)]),
    p([string:replace("a.b.c", ".", "-"), string:replace("a.b.c", ".", "-", all)]),
    p([string:prefix("foobar", "foo"), string:prefix("foobar", "bar"), string:is_empty(""), string:is_empty(<<"x">>)]),
    p([string:casefold("ÀB"), string:equal("abc", <<"abc">>), string:equal("a", "A", true)]),
    p([string:take("abc123", "abc"), string:take("abc123", "0123456789", true)]),
    p([string:next_grapheme("äb"), string:next_codepoint(<<"xy">>), string:to_graphemes("ab")]),
    p([string:chomp("line\n"), string:chomp("line\r\n"), string:nth_lexeme("a b c", 2, " ")]),
    ok.

p(X) -> io:format("~p~n", [X]).
