%% gen_event: a manager with two handlers, notify/sync_notify/call,
%% deleting a handler.
-module(otp_gen_event).
-behaviour(gen_event).
-export([main/0]).
-export([init/1, handle_event/2, handle_call/2, handle_info/2, terminate/2]).

main() ->
    {ok, M} = gen_event:start_link(),
    ok = gen_event:add_handler(M, {?MODULE, a}, a),
    ok = gen_event:add_handler(M, {?MODULE, b}, b),
    io:format("handlers: ~p~n", [lists:sort(gen_event:which_handlers(M))]),
    gen_event:notify(M, {add, 1}),
    ok = gen_event:sync_notify(M, {add, 10}),
    io:format("a: ~p~n", [gen_event:call(M, {?MODULE, a}, get)]),
    io:format("b: ~p~n", [gen_event:call(M, {?MODULE, b}, get)]),
    io:format("delete: ~p~n", [gen_event:delete_handler(M, {?MODULE, a}, bye)]),
    io:format("handlers: ~p~n", [gen_event:which_handlers(M)]),
    io:format("call deleted: ~p~n", [gen_event:call(M, {?MODULE, a}, get)]),
    M ! {info, 100},
    io:format("b: ~p~n", [gen_event:call(M, {?MODULE, b}, get)]),
    ok = gen_event:stop(M),
    io:format("done~n").

init(Name) -> {ok, {Name, 0}}.

handle_event({add, N}, {Name, S}) -> {ok, {Name, S + N}}.

handle_call(get, State = {_, S}) -> {ok, S, State}.

handle_info({info, N}, {Name, S}) -> {ok, {Name, S + N}}.

terminate(Arg, {Name, S}) ->
    io:format("terminate ~p ~p ~p~n", [Name, Arg, S]),
    ok.
