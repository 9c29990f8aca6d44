-module(re_version).
-export([main/0]).

%% re:version/0 names the PCRE release each OTP release's BEAM bundles.
main() ->
    V = re:version(),
    io:format("~p ~p~n", [is_binary(V), V]).
