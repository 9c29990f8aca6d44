-module(fmt_floats_widths).
-export([main/0]).

%% Float directives against padding characters and field widths.
main() ->
    Fs = [3.0, -2.5, 1.0e-3, 12345.678, 0.1],
    [io:format("|~10.2f|~-10.2f|~10.2.0f|~10.2.*f|~n", [F, F, F, $#, F]) || F <- Fs],
    [io:format("|~12.4e|~-12.4e|~.2e|~n", [F, F, F]) || F <- Fs],
    [io:format("|~12.4g|~.5g|~g|~n", [F, F, F]) || F <- Fs],
    io:format("|~5.1f|~n", [123456.0]),
    io:format("|~.1f|~.1f|~.1f|~.1f|~n", [0.05, 0.15, 0.25, 0.35]),
    io:format("|~w|~p|~n", [1.0e-7, 123456789012.0]),
    ok.
