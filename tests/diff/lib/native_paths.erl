-module(native_paths).
-export([run/0]).

%% The body of the programs native_fast_paths (native code on) and
%% native_fast_paths_interpreted (BEAMR_NATIVE=off): functions beamr runs
%% as native code (every instruction has a fast path),
%% driven off each fast path mid-function: arithmetic that overflows into
%% bignums or meets floats, comparisons of compound terms, select_val on
%% values no clause names, type tests on every kind of term, tuples and
%% records, frames past the stack's room, cells and tuples past the heap's, errors raised deep in native recursion, a slice that runs out of
%% reductions, and a local-call trace on a function that runs natively.
run() ->
    arithmetic(),
    comparisons(),
    selects(),
    stack_and_heap(),
    errors(),
    preemption(),
    tracing(),
    types(),
    tuples(),
    ok.

arithmetic() ->
    Max = 576460752303423487,
    Min = -576460752303423488,
    io:format("~p~n", [[add(Max, 1), add(Min, -1), sub(Min, 1), sub(Max, -1)]]),
    io:format("~p~n", [[add(1.5, 2), sub(2, 0.5), add(1 bsl 70, 1), sub(1 bsl 70, 1 bsl 70)]]),
    io:format("~p~n", [sum_to(100000, 0)]),
    io:format("~p~n", [fib(25)]),
    io:format("~p~n", [grow(1, 0)]),
    io:format("~p~n", [catch add(a, 1)]),
    io:format("~p~n", [catch sub(1, "x")]).

add(A, B) -> A + B.
sub(A, B) -> A - B.

sum_to(0, Acc) -> Acc;
sum_to(N, Acc) -> sum_to(N - 1, Acc + N).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

%% Doubles past the small-integer range partway through the loop.
grow(N, 70) -> N;
grow(N, K) -> grow(N + N, K + 1).

comparisons() ->
    Big = 1 bsl 80,
    Pairs = [{1, 1}, {1, 2}, {2, 1}, {1, 1.0}, {1.0, 1}, {Big, Big + 0}, {Big, Big + 1},
             {a, b}, {a, a}, {[1], [1]}, {{x, 1}, {x, 1}}, {{x, 1}, {x, 2}}, {"ab", "ab"},
             {1, a}, {a, 1}, {[], []}, {[], [x]}, {-5, 3}, {3, -5}],
    io:format("~p~n", [[cmp(A, B) || {A, B} <- Pairs]]).

cmp(A, B) ->
    {lt(A, B), ge(A, B), exact(A, B), ne_exact(A, B), eq(A, B), ne(A, B)}.

lt(A, B) when A < B -> true;
lt(_, _) -> false.
ge(A, B) when A >= B -> true;
ge(_, _) -> false.
exact(A, B) when A =:= B -> true;
exact(_, _) -> false.
ne_exact(A, B) when A =/= B -> true;
ne_exact(_, _) -> false.
eq(A, B) when A == B -> true;
eq(_, _) -> false.
ne(A, B) when A /= B -> true;
ne(_, _) -> false.

selects() ->
    io:format("~p~n", [[kind(X) || X <- [0, 1, 2, 3, -1, 1 bsl 65, 1.0, a, b, c, [], "s", {t}]]]),
    io:format("~p~n", [[arity(T) || T <- [{}, {a}, {a, b}, {a, b, c}, {a, b, c, d}, [x], 7]]]),
    io:format("~p~n", [[many(N) || N <- lists:seq(0, 40, 7)]]),
    io:format("~p~n", [[field(T) || T <- [{point, 1, 2}, {point, 3}, {other, 1, 2}, point]]]).

kind(0) -> zero;
kind(1) -> one;
kind(2) -> two;
kind(a) -> atom_a;
kind(b) -> atom_b;
kind([]) -> nil;
kind(X) when is_integer(X) -> integer;
kind(X) when is_list(X) -> list;
kind(_) -> other.

arity({}) -> 0;
arity({_}) -> 1;
arity({_, _}) -> 2;
arity({_, _, _}) -> 3;
arity(T) when is_tuple(T) -> many;
arity(_) -> none.

many(0) -> a0; many(1) -> a1; many(2) -> a2; many(3) -> a3; many(4) -> a4;
many(5) -> a5; many(6) -> a6; many(7) -> a7; many(8) -> a8; many(9) -> a9;
many(10) -> a10; many(11) -> a11; many(12) -> a12; many(13) -> a13; many(14) -> a14;
many(15) -> a15; many(16) -> a16; many(17) -> a17; many(18) -> a18; many(19) -> a19;
many(20) -> a20; many(21) -> a21; many(22) -> a22; many(23) -> a23; many(24) -> a24;
many(25) -> a25; many(26) -> a26; many(27) -> a27; many(28) -> a28; many(29) -> a29;
many(30) -> a30; many(31) -> a31; many(32) -> a32; many(33) -> a33; many(34) -> a34;
many(35) -> a35; many(_) -> later.

field({point, X, Y}) -> X + Y;
field({point, X}) -> X;
field({_, _, Z}) -> Z;
field(_) -> none.

stack_and_heap() ->
    %% Deep body recursion: the stack grows many times over.
    io:format("~p~n", [depth(300000)]),
    %% Long lists built in native code: many collections on the way.
    L = lists:seq(1, 200000),
    R = rev(L, []),
    io:format("~p ~p~n", [length(R), hd(R)]),
    D = double(L),
    io:format("~p ~p~n", [lists:sum(D), lists:last(D)]),
    N = nrev(lists:seq(1, 400)),
    io:format("~p~n", [lists:sublist(N, 3)]),
    io:format("~p~n", [swap_pairs([{1, a}, {2, b}, {3, c}])]).

depth(0) -> 0;
depth(N) -> 1 + depth(N - 1).

rev([], Acc) -> Acc;
rev([H | T], Acc) -> rev(T, [H | Acc]).

double([]) -> [];
double([H | T]) -> [H + H | double(T)].

nrev([]) -> [];
nrev([H | T]) -> app(nrev(T), [H]).

app([], L) -> L;
app([H | T], L) -> [H | app(T, L)].

swap_pairs([]) -> [];
swap_pairs([{A, B} | T]) -> [{B, A} | swap_pairs(T)].

errors() ->
    io:format("~p~n", [catch kind_strict(5)]),
    try deep_fail(50) of
        _ -> ok
    catch
        error:Reason:Trace ->
            io:format("~p ~p~n", [Reason, [{F, A} || {?MODULE, F, A, _} <- Trace]])
    end,
    io:format("~p~n", [catch double([1, 2, x, 4])]),
    io:format("~p~n", [catch field_strict({point, 1})]).

kind_strict(0) -> zero;
kind_strict(1) -> one.

deep_fail(0) -> kind_strict(2);
deep_fail(N) -> 1 + deep_fail(N - 1).

field_strict({point, X, Y}) -> X + Y.

%% Two processes in CPU-bound native loops: each is preempted many
%% times (a slice ends on a call), and both finish with the same sums.
preemption() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), sum_to(N, 0) + fib(20)} end)
            || N <- [3000000, 2000000, 1000000]],
    io:format("~p~n", [[receive {P, S} -> S end || P <- Pids]]).

tracing() ->
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    erlang:trace_pattern({?MODULE, fib, 1}, true, [local]),
    R = fib(3),
    erlang:trace_pattern({?MODULE, fib, 1}, false, [local]),
    erlang:trace(self(), false, [call]),
    Tracer ! {done, self()},
    Calls = receive {calls, C} -> C end,
    io:format("~p ~p~n", [R, Calls]),
    %% Untraced again: runs natively.
    io:format("~p~n", [fib(20)]).

collect(Parent, Acc) ->
    receive
        {trace, _, call, {?MODULE, fib, [N]}} -> collect(Parent, [N | Acc]);
        {done, Parent} -> Parent ! {calls, lists:reverse(Acc)}
    end.

types() ->
    Values = [0, -7, 1 bsl 64, 2.5, a, true, false, [], [1], "s", {}, {a, 1},
              <<1, 2>>, <<1:3>>, self(), make_ref(), fun types/0, fun() -> ok end,
              #{}, #{a => 1}],
    io:format("~p~n", [[type_row(V) || V <- Values]]).

type_row(V) ->
    [t_int(V), t_float(V), t_num(V), t_atom(V), t_pid(V), t_ref(V), t_port(V),
     t_nil(V), t_bin(V), t_bits(V), t_list(V), t_cons(V), t_tuple(V), t_fun(V),
     t_bool(V), t_map(V)].

t_int(X) when is_integer(X) -> 1; t_int(_) -> 0.
t_float(X) when is_float(X) -> 1; t_float(_) -> 0.
t_num(X) when is_number(X) -> 1; t_num(_) -> 0.
t_atom(X) when is_atom(X) -> 1; t_atom(_) -> 0.
t_pid(X) when is_pid(X) -> 1; t_pid(_) -> 0.
t_ref(X) when is_reference(X) -> 1; t_ref(_) -> 0.
t_port(X) when is_port(X) -> 1; t_port(_) -> 0.
t_nil(X) when X =:= [] -> 1; t_nil(_) -> 0.
t_bin(X) when is_binary(X) -> 1; t_bin(_) -> 0.
t_bits(X) when is_bitstring(X) -> 1; t_bits(_) -> 0.
t_list(X) when is_list(X) -> 1; t_list(_) -> 0.
t_cons([_ | _]) -> 1; t_cons(_) -> 0.
t_tuple(X) when is_tuple(X) -> 1; t_tuple(_) -> 0.
t_fun(X) when is_function(X) -> 1; t_fun(_) -> 0.
t_bool(X) when is_boolean(X) -> 1; t_bool(_) -> 0.
t_map(X) when is_map(X) -> 1; t_map(_) -> 0.

-record(point, {x, y}).
-record(box, {w, h, d}).

tuples() ->
    io:format("~p~n", [[shape(T) || T <- [#point{x = 1, y = 2}, #box{w = 1, h = 2, d = 3},
                                           {point, 1}, {box, 1, 2}, {other, 1, 2}, point, [],
                                           {point, 1, 2, 3}]]]),
    io:format("~p~n", [pairs(lists:seq(1, 5), [])]),
    %% Tuples built natively across collections.
    L = wrap_all(lists:seq(1, 150000)),
    io:format("~p ~p~n", [length(L), lists:last(L)]),
    io:format("~p~n", [{}]),
    io:format("~p~n", [big(1, 2, 3)]).

shape(#point{x = X, y = Y}) -> {point, X + Y};
shape(#box{w = W, h = H, d = D}) -> {box, W + H + D};
shape(T) when is_tuple(T) -> {tuple, tuple_size(T)};
shape(_) -> other.

pairs([], Acc) -> Acc;
pairs([H | T], Acc) -> pairs(T, [{H, -H, {H}} | Acc]).

wrap_all([]) -> [];
wrap_all([H | T]) -> [{w, H, [H]} | wrap_all(T)].

big(A, B, C) -> {A, B, C, A, B, C, A, B, C, A, B, C, {A, {B, {C}}}, [A, B, C]}.
