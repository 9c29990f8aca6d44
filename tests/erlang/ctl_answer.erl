%% The module ctl_server answers through; beamr-cli/tests/ctl_attach.rs
%% loads a changed version (answering {v2, N}) into a running server.
-module(ctl_answer).
-export([answer/1]).

answer(N) -> {v1, N}.
