%% A function with one `is_nonempty_list` test, for
%% beamr-cli/tests/internal_error.rs, which turns that test into
%% `is_list` in the compiled code: the `get_hd` after it then meets `[]`,
%% which erlc's validator would never let through.
-module(list_head).
-export([main/0, head/1]).

main() -> io:format("~p~n", [?MODULE:head([])]).

head([H | _]) -> H;
head(_) -> none.
