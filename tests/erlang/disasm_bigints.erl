%% Fixture: integers of every encoded size, positive and negative, and bignums.
-module(disasm_bigints).
-export([small/0, medium/0, large/0, huge/0, negs/0, arith/1, cmp/1]).

small() -> [0, 1, 15, 16, 2047, 2048].
medium() -> {65535, 65536, 16#7fffffff, 16#80000000, 16#7fffffffffffffff}.
large() -> 16#ffffffffffffffffffff.
huge() -> 340282366920938463463374607431768211457.
negs() -> {-1, -16, -2048, -32768, -32769, -16#80000000, -16#8000000000000000, -16#ffffffffffffffffffff}.
arith(X) -> X * 123456789012345678901234567890 + 16#10000000000000000.
cmp(X) when X > 18446744073709551616 -> big;
cmp(X) when X < -18446744073709551616 -> neg;
cmp(576460752303423488) -> boundary;
cmp(-576460752303423489) -> nboundary;
cmp(_) -> small.
