%% diff-requires-otp: 29
-module(native_record_defs).
%% Records other programs use from outside (native_record_external):
%% one exported, one not.
-export([main/0, mk/1, priv/0]).
-export_record([pub]).

-record #pub{a = 1, b, c = [x]}.
-record #priv{z = 0}.

mk(B) -> #pub{b = B}.
priv() -> #priv{}.

main() ->
    io:format("~p~n", [[mk(1), priv(), records:get_definition(?MODULE, pub),
                        records:get_definition(?MODULE, priv)]]).
