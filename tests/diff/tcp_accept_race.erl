-module(tcp_accept_race).
-export([main/0]).

%% Pending accepts on one listening socket of the inet driver backend
%% (accept_race in lib/ says what is checked).

main() -> accept_race:run([]).
