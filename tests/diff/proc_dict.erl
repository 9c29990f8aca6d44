%% The process dictionary: put, get, erase, get_keys, per-process isolation.
-module(proc_dict).
-export([main/0]).

main() ->
    io:format("get empty: ~p~n", [get(a)]),
    io:format("put: ~p~n", [put(a, 1)]),
    io:format("put again: ~p~n", [put(a, 2)]),
    put(b, 2),
    put({tuple, key}, "value"),
    put(<<"bin">>, [1, 2, 3]),
    io:format("get: ~p ~p ~p~n", [get(a), get({tuple, key}), get(<<"bin">>)]),
    io:format("all: ~p~n", [lists:sort(get())]),
    io:format("keys: ~p~n", [lists:sort(get_keys())]),
    io:format("keys with 2: ~p~n", [lists:sort(get_keys(2))]),
    io:format("erase: ~p ~p~n", [erase(a), erase(a)]),
    io:format("get after erase: ~p~n", [get(a)]),
    %% 1 and 1.0 are different keys.
    put(1, int),
    put(1.0, float),
    io:format("int/float keys: ~p ~p~n", [get(1), get(1.0)]),
    %% Another process has its own dictionary.
    Self = self(),
    spawn(fun() -> put(a, child), Self ! {child, get(b), get(a)} end),
    receive {child, B, A} -> io:format("child sees: ~p ~p~n", [B, A]) end,
    %% process_info dictionary
    {dictionary, D} = process_info(self(), dictionary),
    io:format("info: ~p~n", [lists:sort(D)]),
    io:format("erase all: ~p~n", [length(erase())]),
    io:format("after: ~p ~p~n", [get(), get_keys()]),
    %% Many keys.
    [put(K, K * K) || K <- lists:seq(1, 100)],
    io:format("sum: ~p~n", [lists:sum([get(K) || K <- lists:seq(1, 100)])]),
    io:format("count: ~p~n", [length(get_keys())]).
