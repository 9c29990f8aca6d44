-module(tcp_socket_accept_race).
-export([main/0]).

%% Pending accepts on one listening socket of the socket backend
%% ({inet_backend, socket}; accept_race in lib/ says what is checked).

main() -> accept_race:run([{inet_backend, socket}]).
