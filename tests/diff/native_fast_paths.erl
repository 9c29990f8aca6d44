-module(native_fast_paths).
-export([main/0]).

%% Functions beamr runs as native code, driven off each fast path
%% mid-function (see lib/native_paths.erl).
main() -> native_paths:run().
