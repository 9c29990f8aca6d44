%% Fixture: select_val, select_tuple_arity, case, if and atoms needing quotes.
-module(disasm_select).
-export([day/1, shape/1, quoted/1, classify/1, iff/1]).

day(1) -> monday;
day(2) -> tuesday;
day(3) -> wednesday;
day(4) -> 'thursday night';
day(_) -> unknown.
shape({circle, R}) -> R * R;
shape({rect, W, H}) -> W * H;
shape({tri, A, B, C}) -> A + B + C;
shape(_) -> 0.
quoted('+') -> '-';
quoted('foo bar') -> 'Baz';
quoted([]) -> 'don\'t';
quoted('é') -> 'ü';
quoted(X) -> X.
classify(X) ->
    case X of
        a -> 1; b -> 2; c -> 3; d -> 4;
        _ when is_atom(X) -> atom;
        _ when is_list(X) -> list;
        _ when is_binary(X) -> binary;
        _ when is_map(X) -> map;
        _ when is_pid(X) -> pid;
        _ when is_function(X, 2) -> fun2;
        _ -> other
    end.
iff(X) -> if X > 10 -> big; X > 5 -> medium end.
