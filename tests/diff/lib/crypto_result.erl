%% Shared by the crypto diff programs (not a program): what a crypto call
%% gives, with binaries in hex so that both runtimes print them alike.
-module(crypto_result).
-export([t/1, hex/1]).

%% {ok, Hex} for a binary, {ok, HexA, HexB} for a pair of binaries (a key
%% pair, a ciphertext and its tag), {ok, Term} for anything else, and
%% {Class, Reason} when F raises.
t(F) ->
    try F() of
        {A, B} when is_binary(A), is_binary(B) -> {ok, hex(A), hex(B)};
        R when is_binary(R) -> {ok, hex(R)};
        R -> {ok, R}
    catch C:E -> {C, E}
    end.

hex(Bin) -> binary:encode_hex(Bin).
