-module(list_build_return).
-export([main/0]).

%% Functions that build a list body-recursively end in `test_heap`,
%% `put_list` into x0, `deallocate`, `return`, which the loader runs as one
%% instruction: cells built across collections (long lists, big heads),
%% heads from the frame or a register or a constant, a crash deep in the
%% recursion (its stack trace walks the return addresses), a catch in the
%% middle, and a process that builds one while others run.
main() ->
    L = lists:seq(1, 20000),
    M = double(L),
    io:format("~p ~p ~p~n", [length(M), lists:sum(M), lists:sublist(M, 5)]),
    A = app(lists:seq(1, 3000), [x, y]),
    io:format("~p ~p~n", [length(A), lists:nthtail(2998, A)]),
    io:format("~p~n", [nrev(lists:seq(1, 30))]),
    Big = boxed(lists:seq(1, 5000)),
    io:format("~p ~p~n", [length(Big), lists:last(Big)]),
    io:format("~p~n", [tagged([a, b, c])]),
    io:format("~p~n", [catch double([1, 2, three, 4])]),
    try double([1, 2, three]) of
        _ -> ok
    catch
        error:badarith:Trace ->
            io:format("~p~n", [[{F, Ar} || {?MODULE, F, Ar, _} <- Trace]])
    end,
    io:format("~p~n", [guarded([1, 2, bad, 3])]),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), lists:sum(double(lists:seq(1, N)))} end)
            || N <- [100, 1000, 10000]],
    io:format("~p~n", [[receive {P, S} -> S end || P <- Pids]]),
    ok.

double([]) -> [];
double([H | T]) -> [2 * H | double(T)].

app([], L) -> L;
app([H | T], L) -> [H | app(T, L)].

nrev([]) -> [];
nrev([H | T]) -> app(nrev(T), [H]).

%% Each head is a fresh tuple: more words per element, more collections.
boxed([]) -> [];
boxed([H | T]) -> [{H, integer_to_list(H)} | boxed(T)].

%% The head is a constant.
tagged([]) -> [];
tagged([_ | T]) -> [tag | tagged(T)].

%% A catch in every frame: a bad element becomes an error tuple.
guarded([]) -> [];
guarded([H | T]) -> [(catch 10 div H) | guarded(T)].
