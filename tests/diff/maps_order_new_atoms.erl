-module(maps_order_new_atoms).
-export([main/0]).

%% Map order with atom keys the program itself creates (at run time with
%% list_to_atom, in an order of its own), and with maps as keys (small and
%% large maps inside large maps). From OTP 26 on, atoms in a small map are
%% ordered by creation (atom index): atoms that already exist when the
%% program starts are left out, as beamr's boot creates them in an order of
%% its own.
main() ->
    Names = [list_to_atom("mo_new_atom_" ++ integer_to_list(I)) || I <- [7, 3, 11, 1, 9, 5, 2]],
    M = maps:from_list([{A, I} || {A, I} <- lists:zip(Names, lists:seq(1, 7))]),
    io:format("~p~n", [M]),
    io:format("~w~n", [maps:keys(M)]),
    io:format("~w~n", [maps:to_list(M#{list_to_atom("mo_new_atom_late") => late})]),
    io:format("~w~n", [maps:keys(maps:remove(lists:nth(3, Names), M))]),
    Mixed = M#{1 => int, <<"b">> => bin, {t} => tuple, 2.5 => float},
    io:format("~w~n", [maps:keys(Mixed)]),
    io:format("~p~n", [erlang:md5(term_to_binary(Mixed))]),
    Big = maps:from_list([{list_to_atom("mo_big_" ++ integer_to_list(I)), I} || I <- lists:seq(1, 40)]),
    io:format("~w~n", [lists:sort(maps:values(Big)) =:= lists:seq(1, 40)]),
    Small = #{1 => 10, 2 => <<"twenty">>, 3 => 3.0},
    Large = maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
    Full = maps:from_list([{I * 1000, I} || I <- lists:seq(1, 300)]),
    Keys = maps:from_list([{Small, small}, {Large, large}, {Full, full}, {#{}, empty}]
                          ++ [{#{I => I}, I} || I <- lists:seq(1, 40)]),
    io:format("~w~n", [maps:values(Keys)]),
    io:format("~w~n", [[maps:get(K, Keys) || K <- [Small, Large, Full, #{}]]]),
    ok.
