-module(proc_info_dictionary_key).
-export([main/0]).

%% process_info(Pid, {dictionary, Key}) (OTP 26 and later; a badarg on
%% OTP 25): one key's value or undefined, alone or in a list of items, of
%% the caller and of another process.
main() ->
    put(colour, blue),
    put({a, key}, [1, 2, 3]),
    put(1.0, float_key),
    Self = self(),
    show(catch erlang:process_info(Self, {dictionary, colour})),
    show(catch erlang:process_info(Self, {dictionary, {a, key}})),
    show(catch erlang:process_info(Self, {dictionary, missing})),
    show(catch erlang:process_info(Self, {dictionary, 1})),
    show(catch erlang:process_info(Self, {dictionary, 1.0})),
    show(catch erlang:process_info(Self, [{dictionary, colour}, trap_exit, {dictionary, nope}])),
    show(catch erlang:process_info(Self, {dictionary})),
    show(catch erlang:process_info(Self, {dict, colour})),
    Other = spawn(fun() ->
                          put(name, other),
                          put(big, lists:seq(1, 5)),
                          Self ! ready,
                          receive stop -> ok end
                  end),
    receive ready -> ok end,
    show(catch erlang:process_info(Other, {dictionary, name})),
    show(catch erlang:process_info(Other, [{dictionary, big}, {dictionary, colour}])),
    Other ! stop,
    Ref = monitor(process, Other),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show(catch erlang:process_info(Other, {dictionary, name})),
    ok.

show({'EXIT', {Reason, _}}) -> io:format("error ~p~n", [Reason]);
show(V) -> io:format("~p~n", [V]).
