-module(native_fast_paths_interpreted).
-export([main/0]).

%% native_fast_paths with beamr's native code turned off: the same
%% functions through the interpreter's own fast and slow paths.
%% diff-env: BEAMR_NATIVE=off
main() -> native_paths:run().
