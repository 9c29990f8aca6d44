%% Slicing BIFs given a bitstring that is not a binary: OTP 25 slices its
%% whole bytes where the range stays within them (binary_part,
%% binary:part, binary_to_list/3, binary:copy(_, 0)); OTP 27 rejects every
%% such bitstring with badarg (erlang/otp#7628). The rest of the binary
%% module rejects bitstrings on every release. Also
%% binary:referenced_byte_size of a large slice (a small one is a copy,
%% whose size OTP 27 reports oddly).
-module(bin_part_bitstrings).
-export([main/0]).

t(F) -> try F() catch C:E -> {C, E} end.

main() ->
    B = id(<<1, 2, 3:4>>),
    Z = id(<<1:1>>),
    Whole = id(<<1, 2, 3>>),
    Parts = [{B, 0, 1}, {B, 1, 1}, {B, 2, 1}, {B, 2, 0}, {B, 0, 2}, {B, 3, 0},
             {B, 2, -1}, {B, 3, -1}, {B, 0, 3}, {B, -1, 1}, {Whole, 3, 0},
             {Whole, 3, -3}, {Whole, 1, 2}, {Z, 0, 0}, {Z, 0, 1}, {Z, 1, 0},
             {<<>>, 0, 0}, {<<1, 2>>, 1, -1}],
    [io:format("binary_part ~w: ~w ~w ~w~n",
               [C, t(fun() -> binary_part(X, S, L) end),
                t(fun() -> binary_part(X, {S, L}) end),
                t(fun() -> binary:part(X, S, L) end)])
     || {X, S, L} = C <- Parts],
    [io:format("guard ~w: ~w~n", [C, t(fun() -> guarded(X, S, L) end)])
     || {X, S, L} = C <- Parts],
    Calls = [{copy0, fun() -> binary:copy(Z, 0) end},
             {copy0b, fun() -> binary:copy(B, 0) end},
             {copy1, fun() -> binary:copy(B, 1) end},
             {copy, fun() -> binary:copy(B) end},
             {copy_empty, fun() -> binary:copy(<<>>, 0) end},
             {to_list_12, fun() -> binary_to_list(B, 1, 2) end},
             {to_list_13, fun() -> binary_to_list(B, 1, 3) end},
             {to_list_22, fun() -> binary_to_list(B, 2, 2) end},
             {at, fun() -> binary:at(B, 0) end},
             {first, fun() -> binary:first(B) end},
             {last, fun() -> binary:last(B) end},
             {bin_to_list, fun() -> binary:bin_to_list(B) end},
             {bin_to_list2, fun() -> binary:bin_to_list(B, {0, 1}) end},
             {bin_to_list3, fun() -> binary:bin_to_list(Z, 0, 0) end},
             {match, fun() -> binary:match(B, <<2>>) end},
             {matches, fun() -> binary:matches(B, <<2>>) end},
             {split, fun() -> binary:split(B, <<2>>) end},
             {replace, fun() -> binary:replace(B, <<2>>, <<9>>) end},
             {prefix, fun() -> binary:longest_common_prefix([B, <<1, 2>>]) end},
             {suffix, fun() -> binary:longest_common_suffix([B, <<1, 2>>]) end},
             {decode, fun() -> binary:decode_unsigned(B) end},
             {pattern, fun() -> binary:compile_pattern(Z) end},
             {split_binary, fun() -> split_binary(B, 1) end},
             {byte_size, fun() -> byte_size(B) end}],
    [io:format("~p: ~w~n", [N, t(F)]) || {N, F} <- Calls],
    Big = id(list_to_binary(lists:seq(1, 200))),
    Slice = binary:part(Big, 10, 100),
    io:format("referenced: ~w ~w ~w~n",
              [binary:referenced_byte_size(Big), binary:referenced_byte_size(Slice),
               binary:referenced_byte_size(binary:copy(Slice))]),
    io:format("referenced badarg: ~w~n", [t(fun() -> binary:referenced_byte_size(id(abc)) end)]).

guarded(X, S, L) when binary_part(X, S, L) =:= <<>> -> empty;
guarded(X, S, L) when byte_size(binary_part(X, S, L)) > 0 -> some;
guarded(_, _, _) -> guard_failed.

%% Hides a value from the compiler's constant folding.
id(X) -> erlang:phash2(X) >= 0 andalso X.
