-module(element_const_index).
-export([main/0]).

%% element/2 with a literal index (a `bif2` beamr runs as one instruction):
%% in guards (a failure is a false guard), in bodies (badarg, with the call
%% and its arguments at the top of the stack trace), on every kind of term.
main() ->
    Terms = [{a, b, c}, {}, {only}, [1, 2], <<1, 2>>, #{1 => 2}, 7, 2.5, atom, fun lists:sum/1],
    [p([classify(T), first(T), third(T)]) || T <- Terms],
    p([record_name(T) || T <- [{point, 1, 2}, {line, 1}, nope, {}]]),
    p(sum_pairs([{1, 2}, {3, 4}, {5, 6}])),
    p(nested({{1, {2, {3, deep}}}})),
    ok.

classify(T) when element(1, T) =:= a -> starts_with_a;
classify(T) when is_tuple(T), element(3, T) =/= x -> has_three;
classify(T) when tuple_size(T) > 0, element(1, T) > 0 -> first_positive;
classify(_) -> other.

first(T) -> catch_top(fun() -> element(1, T) end).
third(T) -> catch_top(fun() -> element(3, T) end).

record_name(T) when is_tuple(T), tuple_size(T) >= 1 -> element(1, T);
record_name(_) -> none.

sum_pairs(Ps) -> lists:sum([element(1, P) * element(2, P) || P <- Ps]).

nested(T) -> element(2, element(2, element(2, element(1, T)))).

%% The value, or the error with the top frame's MFA and arguments.
catch_top(F) ->
    try F() catch
        error:R:St ->
            [{M, Fn, Args, _} | _] = St,
            {error, R, {M, Fn, Args}}
    end.

p(X) -> io:format("~p~n", [X]).
