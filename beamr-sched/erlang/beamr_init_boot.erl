%% The boot of `beamr erl': runs the start instructions of erl's command
%% line (-s, -run, -eval) in their order, as erl's init does, and reports
%% a failure as erl does.
%%
%% start/1 runs as the program beamr waits for, in init's role: it
%% spawns the boot process (linked, trapping exits, as init's do_boot
%% spawns it) and waits for it to end. The boot process runs each
%% instruction in turn through do_boot/3, start_em/1 and start_it/1,
%% which beamr's stack traces show as init's functions of those names
%% (with no location, as erts's preloaded init has none), so that a stack
%% trace in the boot process is the one erl's would have. It then exits
%% `normal': its links, ETS tables and registered name go as those of
%% erl's boot process do, and the system keeps running until something
%% halts it (halt/0,1, init:stop/0,1), as erl's does. When an instruction
%% raises, the boot process exits with the exception, and start/1 ends the
%% runtime as erl's init does:
%%
%% - OTP 25: erlang:display({"init terminating in do_boot", Reason}) on
%%   standard output, then halt("init terminating in do_boot (Text)"),
%%   Text written as init's to_string/2 writes terms (strings as they
%%   are, atoms unquoted, only four levels deep, nothing for binaries,
%%   maps, references and funs);
%% - OTP 26 and later: start_it/1 first says what failed on standard
%%   error ("Error! Failed to eval: ...", a module that cannot be loaded,
%%   a function not exported) or, for any other exception of a -s or -run
%%   function, displays {Class, Reason, Stacktrace} on standard output;
%%   then halt("Runtime terminating during boot (Text)"), Text as the
%%   runtime's C printer writes the reason.
%%
%% halt/1 with a slogan says it on standard error and writes the crash
%% dump, as erts's does.
%%
%% Compiled into beamr_init_boot.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_init_boot.erl
-module(beamr_init_boot).
-export([start/1, kernel_pid_failed/2]).

%% Instructions: `{s, [String]}', `{run, [String]}' (the words after
%% -s or -run) and `{eval, String}', in command-line order, after
%% `{shell, user_drv | user}' when erl would start its interactive shell.
start(Instructions) ->
    Init = self(),
    Boot = spawn_link(fun() -> do_boot(Init, [], Instructions) end),
    receive
        {'EXIT', Boot, normal} ->
            stay();
        {'EXIT', Boot, Reason} ->
            crash(Reason)
    end.

%% The system runs on, as erl's does once it has booted.
stay() ->
    receive _ -> stay() end.

%% The boot process. Its three functions keep the names and arities of
%% init's, whose frames beamr shows in their place.
do_boot(_Init, _Flags, Instructions) ->
    process_flag(trap_exit, true),
    start_em(Instructions),
    %% Not a return: the compiler would make start_em/1, which returns ok,
    %% a tail call, and do_boot/3 no frame.
    exit(normal).

start_em([I | Is]) ->
    start_it(I),
    start_em(Is);
start_em([]) ->
    ok.

start_it({shell, Kind}) ->
    start_shell(Kind);
start_it({eval, Expr}) ->
    try
        {ok, Ts, _} = erl_scan:string(Expr),
        Ts1 = case lists:reverse(Ts) of
                  [{dot, _} | _] -> Ts;
                  TsR -> lists:reverse([{dot, erl_anno:new(1)} | TsR])
              end,
        {ok, Exprs} = erl_parse:parse_exprs(Ts1),
        {value, _Value, _Bs} = erl_eval:exprs(Exprs, erl_eval:new_bindings()),
        ok
    catch Class:Reason:Stack ->
            _ = release() >= 26 andalso say(["Error! Failed to eval: ", Expr, "\r\n\r\n"]),
            erlang:raise(Class, Reason, Stack)
    end;
start_it({Kind, Words}) ->
    case mfa(Kind, Words) of
        none ->
            ok;
        {M, F, Args} ->
            case release() >= 26 of
                false ->
                    %% A tail call, as in OTP 25's start_it/1.
                    apply(M, F, Args);
                true ->
                    %% OTP 26's start_it/1: the module is loaded first, and
                    %% what went wrong is said before the exception ends
                    %% the boot.
                    case code:ensure_loaded(M) of
                        {module, M} ->
                            try apply(M, F, Args)
                            catch
                                error:undef:Stack ->
                                    _ = erlang:function_exported(M, F, length(Args))
                                        orelse say(not_exported(M, F, Args)),
                                    erlang:raise(error, undef, Stack);
                                Class:Reason:Stack ->
                                    erlang:display({Class, Reason, Stack}),
                                    erlang:raise(Class, Reason, Stack)
                            end;
                        {error, Why} ->
                            say([explain_load_error(M, Why), "\r\n\r\n"]),
                            erlang:error(undef)
                    end
            end
    end.

%% The interactive shell, as kernel's user_sup starts it. OTP 25: user_drv,
%% which opens the tty_sl driver for line editing and, where standard
%% input or output is not a terminal, falls back to the plain `user'
%% (the only one with -oldshell), which reads lines from standard input.
%% Either registers its own `user', so beamr's group leader (which keeps
%% serving the processes that have it) gives up the name first.
%% From OTP 26 on user_drv does both, on the prim_tty NIF.
start_shell(Kind) ->
    _ = (catch unregister(user)),
    _ = case {release() >= 26, Kind} of
            {false, _} -> Kind:start();
            {true, user_drv} -> user_drv:start();
            {true, user} -> user_drv:start(#{initial_shell => oldshell})
        end,
    ok.

not_exported(M, F, Args) ->
    ["Error! ", atom_to_list(M), ":", atom_to_list(F), "/", integer_to_list(length(Args)),
     " is not exported.\r\n\r\n"].

explain_load_error(M, badfile) ->
    ["Error! Failed to load module '", atom_to_list(M), "' because it requires a more "
     "recent Erlang/OTP version or its .beam file was corrupted.\r\n(You are running "
     "Erlang/OTP ", erlang:system_info(otp_release), ".)"];
explain_load_error(M, nofile) ->
    ["Error! Failed to load module '", atom_to_list(M), "' because it cannot be found.\r\n"
     "Make sure that the module name is correct and that its .beam file\r\n"
     "is in the code path."];
explain_load_error(M, Other) ->
    ["Error! Failed to load module '", atom_to_list(M), "'. Reason: ",
     io_lib:write(Other)].

%% The call a -s or -run instruction makes: `Mod:start()', `Mod:Fun()'
%% or `Mod:Fun(Args)' (atoms for -s, strings for -run).
mfa(_, []) -> none;
mfa(_, [M]) -> {list_to_atom(M), start, []};
mfa(_, [M, F]) -> {list_to_atom(M), list_to_atom(F), []};
mfa(s, [M, F | Args]) -> {list_to_atom(M), list_to_atom(F), [[list_to_atom(A) || A <- Args]]};
mfa(run, [M, F | Args]) -> {list_to_atom(M), list_to_atom(F), [Args]}.

%% On standard error, as erlang:display_string/1 writes: the bytes of the
%% text in UTF-8, unconverted.
say(Chars) ->
    io:request(standard_error, {put_chars, latin1, unicode:characters_to_binary(Chars)}).

release() ->
    list_to_integer(erlang:system_info(otp_release)).

%% As erl's init when its boot process fails.
crash(Reason) ->
    case release() >= 26 of
        true ->
            halt("Runtime terminating during boot (" ++ c_string(Reason) ++ ")");
        false ->
            erlang:display({"init terminating in do_boot", Reason}),
            halt("init terminating in do_boot (" ++ to_string(Reason, 0) ++ ")")
    end.

%% As erl's init when a kernel process it starts (the application
%% controller, given a bad -config file) fails to start: What is what the
%% start returned in place of {ok, Pid}.
kernel_pid_failed(Name, What) ->
    case release() >= 26 of
        true ->
            halt("Could not start kernel pid (" ++ c_string(Name) ++ ") ("
                 ++ c_string(What) ++ ")");
        false ->
            erlang:display({"could not start kernel pid", Name, What}),
            halt("could not start kernel pid (" ++ to_string(Name, 0) ++ ") ("
                 ++ to_string(What, 0) ++ ")")
    end.

%% OTP 25's init:to_string/2.
to_string(X, D) when is_list(X), D < 4 ->
    case flatten(X) of
        {ok, F} when F =/= [] ->
            case printable_list(F) of
                true -> F;
                false -> "[" ++ join([to_string(E, D + 1) || E <- X]) ++ "]"
            end;
        {ok, []} ->
            "[" ++ join([to_string(E, D + 1) || E <- X]) ++ "]";
        error ->
            ""
    end;
to_string(X, _D) when is_list(X) -> "[_]";
to_string(X, _D) when is_atom(X) -> atom_to_list(X);
to_string(X, _D) when is_pid(X) -> pid_to_list(X);
to_string(X, _D) when is_float(X) -> float_to_list(X);
to_string(X, _D) when is_integer(X) -> integer_to_list(X);
to_string(X, D) when is_tuple(X), D < 4 ->
    "{" ++ join([to_string(E, D + 1) || E <- tuple_to_list(X)]) ++ "}";
to_string(X, _D) when is_tuple(X) -> "{_}";
to_string(_X, _D) -> "".

flatten(X) ->
    try {ok, lists:flatten(X)}
    catch error:_ -> error
    end.

printable_list([H | T]) when is_integer(H), H >= 32, H =< 126 -> printable_list(T);
printable_list([$\n | T]) -> printable_list(T);
printable_list([$\r | T]) -> printable_list(T);
printable_list([$\t | T]) -> printable_list(T);
printable_list([]) -> true;
printable_list(_) -> false.

join([]) -> "";
join([H]) -> H;
join([H | T]) -> H ++ "," ++ join(T).

%% A term as the runtime's C printer writes it (erlang:display/1, and
%% init's slogans from OTP 26 on): like ~w, with floats as C's %e, maps
%% without spaces, a flat list of printable latin1 bytes as a string and
%% a binary of printable ASCII as <<"...">>. A list of bytes.
c_string(X) when is_integer(X) -> integer_to_list(X);
c_string(X) when is_float(X) -> c_float(X);
c_string(X) when is_atom(X) -> c_atom(X);
c_string([]) -> "[]";
c_string(X) when is_list(X) ->
    case c_printable(X) of
        true -> [$" | c_escape(X)] ++ "\"";
        false -> "[" ++ c_elements(X) ++ "]"
    end;
c_string(X) when is_tuple(X) ->
    "{" ++ join([c_string(E) || E <- tuple_to_list(X)]) ++ "}";
c_string(X) when is_map(X) ->
    "#{" ++ join([c_string(K) ++ "=>" ++ c_string(V) || {K, V} <- maps:to_list(X)]) ++ "}";
c_string(X) when is_binary(X) ->
    Bytes = binary_to_list(X),
    case Bytes =/= [] andalso lists:all(fun(B) -> B >= 32 andalso B < 127 end, Bytes) of
        true -> "<<\"" ++ lists:flatmap(fun($") -> "\\\""; (B) -> [B] end, Bytes) ++ "\">>";
        false -> "<<" ++ join([integer_to_list(B) || B <- Bytes]) ++ ">>"
    end;
c_string(X) when is_bitstring(X) ->
    Size = bit_size(X) rem 8,
    Whole = byte_size(X) - 1,
    <<Bytes:Whole/binary, Rest:Size>> = X,
    "<<" ++ join([integer_to_list(B) || B <- binary_to_list(Bytes)]
                 ++ [integer_to_list(Rest) ++ ":" ++ integer_to_list(Size)]) ++ ">>";
c_string(X) ->
    %% Pids, ports, references and funs: as ~w writes them.
    lists:flatten(io_lib:write(X)).

c_elements([H | T]) when is_list(T) ->
    case T of
        [] -> c_string(H);
        _ -> c_string(H) ++ "," ++ c_elements(T)
    end;
c_elements([H | T]) ->
    c_string(H) ++ "|" ++ c_string(T).

c_printable(L) -> c_printable_chars(L).

c_printable_chars([C | T]) when is_integer(C), C >= 0, C =< 255 ->
    (not c_cntrl(C) orelse lists:member(C, " \n\t\r")) andalso c_printable_chars(T);
c_printable_chars([]) -> true;
c_printable_chars(_) -> false.

c_cntrl(C) -> C < 32 orelse C =:= 127 orelse (C >= 128 andalso C < 160).

c_escape([$\n | T]) -> "\\n" ++ c_escape(T);
c_escape([$" | T]) -> "\\\"" ++ c_escape(T);
c_escape([C | T]) -> [C | c_escape(T)];
c_escape([]) -> [].

%% C's %e: six decimals, an exponent of at least two digits.
c_float(F) ->
    [Mantissa, Exponent] = string:split(lists:flatten(io_lib:format("~.7e", [F])), "e"),
    {Sign, Digits} = case Exponent of
                         [$- | D] -> {$-, D};
                         [$+ | D] -> {$+, D};
                         D -> {$+, D}
                     end,
    Mantissa ++ [$e, Sign | string:right(Digits, max(2, length(Digits)), $0)].

c_atom(A) ->
    Name = atom_to_list(A),
    Quote = case Name of
                [] -> true;
                [First | Rest] ->
                    not c_lower(First)
                        orelse lists:any(fun(C) -> not (c_alnum(C) orelse C =:= $_) end, Rest)
            end,
    Body = lists:flatmap(fun c_atom_char/1, Name),
    case Quote of
        true -> "'" ++ Body ++ "'";
        false -> Body
    end.

c_atom_char($') -> "\\'";
c_atom_char($\\) -> "\\\\";
c_atom_char($\n) -> "\\n";
c_atom_char($\f) -> "\\f";
c_atom_char($\t) -> "\\t";
c_atom_char($\r) -> "\\r";
c_atom_char($\b) -> "\\b";
c_atom_char($\v) -> "\\v";
c_atom_char(C) when C < 32; C >= 128, C < 160 ->
    [$\\ | string:right(integer_to_list(C, 8), 3, $0)];
c_atom_char(C) when C < 128 -> [C];
c_atom_char(C) -> binary_to_list(unicode:characters_to_binary([C])).

c_lower(C) -> (C >= $a andalso C =< $z) orelse (C >= 223 andalso C =< 255 andalso C =/= 247).

c_alnum(C) ->
    (C >= $0 andalso C =< $9) orelse c_lower(C) orelse (C >= $A andalso C =< $Z)
        orelse (C >= 192 andalso C =< 222 andalso C =/= 215).
