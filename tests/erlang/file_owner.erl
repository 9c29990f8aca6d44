-module(file_owner).
%% beamr-sched/tests/file_owner.rs: files left open by processes that end
%% are closed. hold(Dir, N) starts N owners, each opening a raw file and a
%% non-raw one (through its io server) and keeping them; it registers as
%% file_owner_main and waits for `release`, then ends the owners (one
%% returning, one crashing, one killed, ...) without closing a file, and
%% returns once the owners and their io servers are gone.
-export([hold/2]).

hold(Dir, N) ->
    F = filename:join(Dir, "held.txt"),
    ok = file:write_file(F, <<"held">>),
    Self = self(),
    Owners = [spawn_monitor(fun() -> owner(F, Self, I) end) || I <- lists:seq(1, N)],
    Servers = [receive {opened, P, Io} -> monitor(process, Io) end || {P, _} <- Owners],
    register(file_owner_main, self()),
    receive release -> ok end,
    [P ! go || {P, _} <- Owners],
    [receive {'DOWN', M, process, _, _} -> ok end || {_, M} <- Owners],
    [receive {'DOWN', M, process, _, _} -> ok end || M <- Servers],
    exit({released, N}).

owner(F, Parent, I) ->
    {ok, _Raw} = file:open(F, [read, raw, binary]),
    {ok, Io} = file:open(F, [read, binary]),
    Parent ! {opened, self(), Io},
    receive go -> finish(I rem 3) end.

finish(0) -> ok;
finish(1) -> exit(crashed);
finish(2) -> exit(self(), kill).
