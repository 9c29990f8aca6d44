%% Fixture: float literals and the floating-point instructions.
-module(disasm_floats).
-export([area/1, poly/1, lits/0, conv/1, fdiv/2]).

area(R) when is_float(R) -> 3.14159 * R * R.
poly(X) when is_float(X) -> X * X * 2.0 - X / 3.0 + 1.5.
lits() -> [0.0, -0.0, 1.0e100, 1.0e-300, 2.5, -7.25].
conv(X) when is_integer(X) -> X / 2 + float(X).
fdiv(A, B) when is_float(A), is_float(B) -> -(A / B) + A * B.
