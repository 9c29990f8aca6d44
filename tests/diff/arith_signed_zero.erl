-module(arith_signed_zero).
-export([main/0]).

%% 0.0 and -0.0: equal under == and in the term order on every release;
%% under =:=, matching, map keys and ets keys the same term up to OTP 26
%% and different ones from OTP 27 on (each release prints its own facts).
main() ->
    Z = id(0.0),
    N = id(-0.0),
    io:format("~p~n", [[Z =:= N, Z == N, Z =/= N, Z /= N, Z < N, N < Z]]),
    io:format("~p~n", [[lists:sort([Z, N, N, Z]), lists:usort([N, Z]), compare(Z, N)]]),
    io:format("~p~n", [[zero(N), zero(Z), {Z} =:= {N}, [Z] == [N]]]),
    M = #{Z => a, N => b},
    io:format("~p~n", [[maps:size(M), maps:get(N, M), maps:keys(M), is_map_key(N, #{Z => 1})]]),
    io:format("~p~n", [[#{Z => 1} == #{N => 1}, #{N => 1} < #{Z => 1}, maps:find(Z, #{N => 1})]]),
    io:format("~p~n", [[lists:member(N, [Z]), lists:delete(N, [Z]), [Z] -- [N]]]),
    io:format("~p~n", [[lists:keyfind(N, 1, [{Z, 1}]), lists:keymember(N, 1, [{Z, 1}])]]),
    io:format("~p~n", [[abs(N), abs(Z), N * 1, erlang:max(Z, N), erlang:min(N, Z)]]),
    io:format("~p~n", [[binary_to_term(term_to_binary(N)) =:= N, erlang:phash2(N) =:= erlang:phash2(Z)]]),
    T = ets:new(t, [set]),
    ets:insert(T, {Z, 1}),
    ets:insert(T, {N, 2}),
    io:format("~p~n", [[ets:info(T, size), ets:lookup(T, N)]]),
    S = sets:from_list([Z, N], [{version, 2}]),
    io:format("~p~n", [sets:size(S)]),
    ok.

zero(+0.0) -> pos;
zero(-0.0) -> neg;
zero(_) -> other.

compare(A, A) -> same;
compare(_, _) -> different.

id(X) -> X.
