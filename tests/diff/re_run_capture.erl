-module(re_run_capture).
-export([main/0]).

%% {capture, Values, Type}: all, first, all_but_first, none, all_names,
%% lists of numbers and names (atoms, strings, binaries), dupnames, and
%% index, list and binary results; unset groups.
p(X) -> io:format("~p~n", [X]).

t(S, R, O) -> p(try re:run(S, R, O) catch C:E -> {C, E} end).

main() ->
    R = "(?<year>\\d{4})-(?<month>\\d\\d)(?:-(?<day>\\d\\d))?",
    Types = [index, list, binary],
    Values = [all, first, all_but_first, none, all_names, [], [0], [1, 3],
              [year, "month", <<"day">>], [day, nosuch, 7, -1]],
    [t(S, R, [{capture, V, T}]) || S <- ["on 2024-05-17 ok", <<"in 1999-12">>],
                                   V <- Values, T <- Types],
    t("2024-05", R, [{capture, [year]}]),
    t("x", R, [{capture, [year]}]),
    t("abc", "(?<x>a)|(?<x>b)", [dupnames, {capture, [x], index}]),
    t("bc", "(?<x>a)|(?<x>b)", [dupnames, {capture, [x], binary}]),
    t("bc", "(?<x>a)|(?<x>b)", [dupnames, {capture, all_names, list}]),
    t("cc", "(?<x>a)|(?<x>b)|c", [dupnames, {capture, all_names, list}]),
    t("abc", "(?<b>b)(?<a>c)", [{capture, all_names}]),
    t("abc", "(?<zz>a)(?<aa>b)(?<mm>c)", [{capture, all_names, binary}]),
    t("abc", "(a)(b)(c)", [{capture, [3, 2, 1, 0], list}]),
    t("abc", "(a)(b)(c)", [{capture, [4]}]),
    t("abc", "(a)(b)(c)", [{capture, [bad | tail]}]),
    t("abc", "(a)(b)(c)", [{capture, [1.5]}]),
    t("ac", "(a)(x)?(c)", [{capture, all, binary}]),
    t("ac", "(a)(x)?(c)", [{capture, all, list}]),
    t("a", "(a)(x)?(y)?", [{capture, all_but_first, binary}]),
    t(<<"subject">>, "(j)(e)", [{capture, all, binary}, {capture, first, list}]),
    t("subject", "(j)(e)", [{capture, first}, {capture, all_but_first, binary}]),
    {ok, MP} = re:compile("(?<first>\\w+)\\s(?<second>\\w+)"),
    p(re:inspect(MP, namelist)),
    {ok, MP2} = re:compile("(a)(b)"),
    p(re:inspect(MP2, namelist)),
    p(try re:inspect(MP2, names) catch C:E -> {C, E} end),
    p(try re:inspect(foo, namelist) catch C2:E2 -> {C2, E2} end),
    t("hello world", MP, [{capture, [second, first], list}]),
    t("hello world", MP, [{capture, all_names, binary}]),
    ok.
