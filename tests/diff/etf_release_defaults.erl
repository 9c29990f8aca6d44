%% term_to_binary as each release writes it: OTP 25 writes a port as
%% NEW_PORT_EXT (89) and atoms as ATOM_EXT (minor_version 1); OTP 26+
%% writes every port as V4_PORT_EXT (120) and atoms as SMALL_ATOM_UTF8_EXT
%% (minor_version 2). minor_version 0 writes floats as FLOAT_EXT text.
%% Ports and pids are built from fixed bytes, so their numbers are known.
-module(etf_release_defaults).
-export([main/0]).

main() ->
    Port = binary_to_term(<<131, 89, 100, 0, 13, "nonode@nohost", 0, 0, 0, 5, 0, 0, 0, 0>>),
    V4 = binary_to_term(<<131, 120, 100, 0, 13, "nonode@nohost", 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0>>),
    Pid = binary_to_term(<<131, 88, 100, 0, 13, "nonode@nohost", 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0>>),
    io:format("same port: ~p, is_port: ~p~n", [Port =:= V4, is_port(Port)]),
    Terms = [Port, Pid, a, 'é', 'ő', {x, "s", [a]}, 1.5, -0.25, 1.0e300, 2.5e-300, #{k => v}],
    [io:format("~w:~n  default ~w~n  minor 0 ~w~n  minor 1 ~w~n  minor 2 ~w~n",
               [T, term_to_binary(T),
                term_to_binary(T, [{minor_version, 0}]),
                term_to_binary(T, [{minor_version, 1}]),
                term_to_binary(T, [{minor_version, 2}])])
     || T <- Terms],
    Live = open_port({spawn, "cat"}, []),
    <<131, Tag, _/binary>> = Bin = term_to_binary(Live),
    io:format("open port: tag ~p, ~p bytes, round trip ~p~n",
              [Tag, byte_size(Bin), binary_to_term(Bin) =:= Live]),
    port_close(Live),
    Floats = [0.1, 1/3, 123456.789, -3.14, 5.0e-324, 1.7976931348623157e308],
    io:format("minor 0 floats round trip: ~p~n",
              [[binary_to_term(term_to_binary(F, [{minor_version, 0}])) =:= F || F <- Floats]]),
    io:format("bad minor_version: ~p~n",
              [try term_to_binary(a, [{minor_version, 3}]) catch C:E -> {C, E} end]).
