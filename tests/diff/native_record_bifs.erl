%% diff-requires-otp: 29
-module(native_record_bifs).
%% The records module's BIFs (get/2, get_module/1, get_name/1,
%% get_field_names/1, is_exported/1, create/4, update/4, get_definition/2)
%% and their errors.
-export([main/0]).

-record #loc{k = 1, j}.

main() ->
    R = #loc{j = 2},
    io:format("~p~n", [[records:get(k, R), records:get_module(R), records:get_name(R),
                        records:get_field_names(R), records:is_exported(R)]]),
    io:format("~p~n", [[outcome:run(fun() -> records:get(x, a) end), outcome:run(fun() -> records:get(zz, R) end),
                        outcome:run(fun() -> records:get("k", R) end),
                        outcome:run(fun() -> records:get_module(x) end), outcome:run(fun() -> records:get_name({}) end),
                        outcome:run(fun() -> records:get_field_names(x) end),
                        outcome:run(fun() -> records:is_exported([]) end)]]),
    C = records:create(m, n, [{z, 3}, {x, 1}, {y, 2}], #{is_exported => true}),
    io:format("~p~n", [[C, records:get_field_names(C), records:is_exported(C), records:get(y, C)]]),
    io:format("~p~n", [[outcome:run(fun() -> records:create(m, n, [{a, 1}], #{}) end),
                        outcome:run(fun() -> records:create(m, n, [{a, 1}], x) end),
                        outcome:run(fun() -> records:create("m", n, [], #{is_exported => true}) end),
                        outcome:run(fun() -> records:create(m, n, [{1, 1}], #{is_exported => true}) end),
                        outcome:run(fun() -> records:create(m, n, [{a, 1}, {a, 2}], #{is_exported => true}) end),
                        outcome:run(fun() -> records:create(m, n, [x], #{is_exported => true}) end),
                        outcome:run(fun() -> records:create(m, n, [{a, 1} | b], #{is_exported => true}) end),
                        outcome:run(fun() -> records:create(m, n, [], #{is_exported => 1}) end)]]),
    io:format("~p~n", [[records:update(R, ?MODULE, loc, #{k => 9}),
                        records:update(R, '_', '_', #{j => 9}),
                        records:update(R, x, '_', #{k => 0, j => 0}),
                        records:update(R, ?MODULE, loc, #{})]]),
    io:format("~p~n", [[outcome:run(fun() -> records:update(R, ?MODULE, other, #{k => 9}) end),
                        outcome:run(fun() -> records:update(a, ?MODULE, loc, #{k => 9}) end),
                        outcome:run(fun() -> records:update(R, ?MODULE, loc, x) end),
                        outcome:run(fun() -> records:update(R, ?MODULE, loc, #{zz => 1}) end),
                        outcome:run(fun() -> records:update(R, 1, 2, #{k => 1}) end)]]),
    io:format("~p~n", [[records:get_definition(?MODULE, loc),
                        outcome:run(fun() -> records:get_definition(?MODULE, zz) end),
                        outcome:run(fun() -> records:get_definition(1, zz) end),
                        outcome:run(fun() -> records:get_definition(native_record_nomod, zz) end)]]),
    ok.
