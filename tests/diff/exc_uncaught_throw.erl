-module(exc_uncaught_throw).
-export([main/0]).

%% A throw escaping main becomes {nocatch, Value}.
main() ->
    lists:foreach(fun(X) -> X < 3 orelse throw({too_big, X}) end, [1, 2, 3]).
