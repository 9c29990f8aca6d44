-module(re_split).
-export([main/0]).

%% re:split/2,3: parts, trim, group, return types, groups in the
%% separator, empty matches, unicode, errors.
p(X) -> io:format("~p~n", [X]).

s(S, R, O) -> p(try re:split(S, R, O) catch C:E -> {C, E} end).

main() ->
    p(re:split("a,b,,c,,", ",")),
    s("a,b,,c,,", ",", [{return, list}]),
    s("a,b,,c,,", ",", [trim, {return, list}]),
    s("a,b,,c,,", ",", [{parts, 2}, {return, list}]),
    s("a,b,,c,,", ",", [{parts, 0}, {return, list}]),
    s("a,b,,c,,", ",", [{parts, infinity}, {return, list}]),
    s("a,b,,c,,", ",", [{parts, 1}, {return, list}]),
    s("a,b,,c,,", ",", [{parts, -1}]),
    s("a1b22c", "(\\d+)", [{return, list}]),
    s("a1b22c", "(\\d+)", [group, {return, list}]),
    s("a1b22c", "(\\d)(x)?", [group, {return, binary}]),
    s("abc", "", [{return, list}]),
    s("abc", "x*", [{return, list}]),
    s("abc", "x*", [trim, {return, list}]),
    s("", ",", [{return, list}]),
    s(",", ",", [{return, list}]),
    s(",", ",", [trim, {return, list}]),
    s("a b\tc\nd", "\\s", [{return, binary}]),
    s("a\r\nb\r\nc", "\\R", [{return, list}]),
    s("a\r\nb\nc", "$", [multiline, {return, list}]),
    s("héllo wörld", " ", [unicode, {return, list}]),
    s("héllo", "", [unicode, {return, list}]),
    s(<<"héllo"/utf8>>, "", [unicode, {return, binary}]),
    s("aXbxc", "x", [caseless, {return, list}]),
    s("abc", "b", [global]),
    s("abc", "b", [{capture, all}]),
    s("abc", "(", []),
    s("abc", "b", [{return, foo}]),
    {ok, MP} = re:compile("[,;]"),
    s("a,b;c", MP, [{return, list}]),
    s("a,b;c", MP, [group, trim, {return, list}]),
    ok.
