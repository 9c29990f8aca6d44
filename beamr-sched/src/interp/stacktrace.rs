//! Stack traces as Erlang shows them: `[{M, F, ArityOrArgs, Location}]`,
//! innermost first, at most [`MAX_DEPTH`] frames (the BEAM's default
//! `backtrace_depth`).
//!
//! The frames, in order, as the BEAM builds them:
//!
//! 1. The first frame: for an error raised by a BIF, `{M, F, Args,
//!    [{error_info, #{module => Formatter}}]}` (the formatter module depends
//!    on the BIF's module, see [`error_info_module`]); for `function_clause`,
//!    the function itself with its arguments and the line of its head; for
//!    `undef`, the missing function with its arguments and no location.
//! 2. The function running when the exception was raised, with the line of
//!    the raising instruction (unless 1 already named it). After
//!    `erlang:error/2,3` its arity is replaced by the given arguments, and
//!    `error/3`'s `{error_info, Map}` ends its location.
//! 3. One frame per return address on the stack, outermost last; a return
//!    address equal to the one before it is shown once (the BEAM keeps only
//!    non-duplicates).
//! 4. For the process `beamr run` starts (the only `watched` one), the
//!    frames erl's boot process has below the function `-s` calls:
//!    `{init, start_em, 1, []}` and `{init, do_boot, 3, []}`, after
//!    `{init, start_it, 1, []}` when the OTP library is release 26 or later.
//! 5. The frames of `beamr erl`'s boot process, `beamr_init_boot`'s
//!    `do_boot/3`, `start_em/1` and `start_it/1`, as the init functions of
//!    those names, without location (erts's preloaded init has none): the
//!    frames erl's boot process has below an `-s`, `-run` or `-eval`
//!    instruction. The module's other functions are no frames.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::recv::RecvInstr;
use crate::loader::{Instr, Tail};
use crate::process::{Exception, Process};

/// Frames kept in a stack trace.
pub const MAX_DEPTH: usize = 8;

/// The stack trace of `e` raised at `ip` in `p`, built on `p`'s heap.
pub fn build_stacktrace(p: &mut Process, ip: *const Instr, e: &Exception) -> Term {
    let raw = Raw::capture(p, ip, e);
    raw.render(p)
}

/// The stack trace of `e` raised at `ip` in `p` in its raw form (the
/// BEAM's too): the raising instruction and the return addresses, with
/// what its first frames need, kept as a term for [`rendered`] to make
/// the list of frames of, when the program asks (`build_stacktrace`, a
/// `catch`, an exit). An exception caught without its stack trace (`try
/// ... catch error:badarg -> ...`) never pays for the frames.
pub fn raw_stacktrace(p: &mut Process, ip: *const Instr, e: &Exception) -> Term {
    let raw = Raw::capture(p, ip, e);
    raw.to_term(p)
}

/// `trace` as a list of frames: rendered if it is a raw stack trace
/// ([`raw_stacktrace`]), else as it is (a list given to `erlang:raise/3`).
pub fn rendered(p: &mut Process, trace: Term) -> Term {
    match Raw::from_term(trace) {
        Some(raw) => raw.render(p),
        None => trace,
    }
}

/// The atom that tags a raw stack trace's tuple.
const RAW_TAG: &str = "$beamr_raw_stacktrace";

/// Return addresses a raw stack trace keeps: enough for [`MAX_DEPTH`]
/// frames, with room for addresses that are no frame (`beamr_init_boot`'s
/// other functions).
const RAW_ADDRESSES: usize = MAX_DEPTH + 8;

/// What a stack trace is made from, taken when the exception is raised
/// (the stack is unwound after). Every fact about the code at the raising
/// instruction is decided here, so that rendering reads code only through
/// [`crate::code::CodeServer::module_at`], which checks each address: a
/// raw trace is a term, and a crafted program could forge one.
struct Raw {
    ip: *const Instr,
    /// The BIF (or undefined function) the error is shown in, first.
    mfa: Option<(Atom, Atom)>,
    /// The exception's arguments (the BIF's, or error/2's), if any.
    args: Option<Term>,
    /// `error/3`'s error info, or a BIF's cause.
    error_info: Option<Term>,
    /// The reason is `function_clause`.
    function_clause: bool,
    /// The reason is `undef`.
    undef: bool,
    /// The raising function's own frame is left out (see [`Raw::capture`]).
    skip_current: bool,
    /// The process `beamr run` starts: init's frames end its traces.
    watched: bool,
    return_addresses: Vec<*const Instr>,
}

impl Raw {
    fn capture(p: &Process, ip: *const Instr, e: &Exception) -> Raw {
        let undef = e.reason == Term::atom(Atom::UNDEF);
        let function_clause = e.reason == Term::atom(Atom::FUNCTION_CLAUSE);
        // An undefined function called in tail position: the caller's frame
        // is gone in the BEAM (its loader makes `call_fun; return` a tail
        // call too). A function OTP writes in Erlang (in erlang.erl) and
        // beamr natively, called in tail position: as for any Erlang
        // function, the caller's frame is gone on the BEAM. A NIF stub bound
        // to its native (see the loader): the native stands for the whole
        // function, so the stub is no frame of its own.
        let skip_current = (undef && is_tail_call(ip))
            || (e.mfa.is_some_and(written_in_erlang_by_otp) && is_tail_bif_call(ip))
            || is_stub_entry(ip);
        let code = crate::code::CodeServer::global();
        let mut return_addresses: Vec<*const Instr> = Vec::new();
        let mut last = None;
        let cp: *const Instr = p.cp.cast();
        let words = p.stack.iter().rev().filter_map(|w| w.as_code_pointer());
        let cp = (!cp.is_null()).then_some(cp);
        for ra in cp.into_iter().chain(words.map(<*const ()>::cast)) {
            // A call whose continuation only returns (`call_fun; deallocate;
            // return`) is a tail call on the BEAM, whose loader fuses the
            // three: its caller's frame is gone there. A return address
            // equal to the one before it is shown once.
            if returns_at_once(ra) || last == Some(ra) {
                continue;
            }
            last = Some(ra);
            // Only an address in a module's code can be a frame (not a
            // return-trace stub, nor the end of the process).
            if code.module_at(ra).is_some() {
                return_addresses.push(ra);
                if return_addresses.len() >= RAW_ADDRESSES {
                    break;
                }
            }
        }
        let present = |t: Term| (!t.is_non_value()).then_some(t);
        Raw {
            ip,
            mfa: e.mfa,
            args: present(e.args),
            error_info: present(e.error_info),
            function_clause,
            undef,
            skip_current,
            watched: p.watched,
            return_addresses,
        }
    }

    /// The frames, innermost first, at most [`MAX_DEPTH`].
    fn render(&self, p: &mut Process) -> Term {
        let ip = self.ip;
        let mut frames: Vec<Term> = Vec::new();
        let mut skip_current = self.skip_current;
        if let Some((m, f)) = self.mfa {
            let current = crate::code::CodeServer::global()
                .module_at(ip)
                .filter(|m2| m2.name == m);
            let location = match current {
                Some(module) if self.function_clause => {
                    // function_clause: the failing function is the current one.
                    skip_current = true;
                    location(p, line_of(&module, module.index_of(ip)), Term::NIL)
                }
                _ if self.undef => Term::NIL,
                _ => bif_error_info(p, m, self.error_info.unwrap_or(Term::NON_VALUE)),
            };
            let args = self.args.unwrap_or(Term::NIL);
            let frame = p
                .heap
                .tuple(&[Term::atom(m), Term::atom(f), args, location]);
            frames.push(frame);
        }
        if !skip_current {
            // After error/2,3 (no BIF frame), the arguments given replace the arity.
            let args = self
                .args
                .filter(|a| self.mfa.is_none() && (a.is_list() || a.is_nil()));
            let error_info = match self.error_info {
                Some(info) if self.mfa.is_none() => {
                    let item = p.heap.tuple(&[Term::atom(atom("error_info")), info]);
                    p.heap.list(&[item])
                }
                _ => Term::NIL,
            };
            if let Some(frame) = frame_at(p, ip, false, args, error_info) {
                frames.push(frame);
            }
        }
        for &ra in &self.return_addresses {
            if frames.len() >= MAX_DEPTH {
                break;
            }
            if let Some(frame) = frame_at(p, ra, true, None, Term::NIL) {
                frames.push(frame);
            }
        }
        if self.watched {
            let init = Term::atom(atom("init"));
            // OTP 26's init runs each `-s` function inside start_it/1.
            let start_it = crate::code::otp_release() >= 26;
            let frames_of_init = [("start_it", 1), ("start_em", 1), ("do_boot", 3)];
            for (function, arity) in &frames_of_init[usize::from(!start_it)..] {
                if frames.len() < MAX_DEPTH {
                    let frame = p.heap.tuple(&[
                        init,
                        Term::atom(atom(function)),
                        Term::small_unchecked(*arity),
                        Term::NIL,
                    ]);
                    frames.push(frame);
                }
            }
        }
        frames.truncate(MAX_DEPTH);
        p.heap.list(&frames)
    }

    /// The raw trace as a term: `{RAW_TAG, Words, Args, ErrorInfo}`, the
    /// words a binary of native-endian u64s (flags, the instruction, the
    /// BIF's module and function atoms, then the return addresses), the
    /// terms `[]` where absent (the flags say which are present).
    fn to_term(&self, p: &mut Process) -> Term {
        let flags = u64::from(self.mfa.is_some())
            | u64::from(self.args.is_some()) << 1
            | u64::from(self.error_info.is_some()) << 2
            | u64::from(self.function_clause) << 3
            | u64::from(self.undef) << 4
            | u64::from(self.skip_current) << 5
            | u64::from(self.watched) << 6;
        let (m, f) = self.mfa.map_or((0, 0), |(m, f)| {
            (u64::from(m.index()), u64::from(f.index()))
        });
        let mut words = Vec::with_capacity(8 * (4 + self.return_addresses.len()));
        for word in [flags, self.ip as u64, m, f]
            .into_iter()
            .chain(self.return_addresses.iter().map(|&ra| ra as u64))
        {
            words.extend_from_slice(&word.to_ne_bytes());
        }
        let words = p.heap.binary(&words);
        p.heap.tuple(&[
            Term::atom(atom(RAW_TAG)),
            words,
            self.args.unwrap_or(Term::NIL),
            self.error_info.unwrap_or(Term::NIL),
        ])
    }

    /// The raw trace `term` holds, if it is one ([`Raw::to_term`]'s form,
    /// its addresses all in loaded code: anything else is no raw trace).
    fn from_term(term: Term) -> Option<Raw> {
        let [tag, words, args, error_info] = term.as_tuple()? else {
            return None;
        };
        if tag.as_atom()?.name() != RAW_TAG {
            return None;
        }
        let bytes = words.as_binary()?.as_bytes()?.to_vec();
        if bytes.len() % 8 != 0 || bytes.len() < 32 {
            return None;
        }
        let word = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
            u64::from_ne_bytes(b)
        };
        let flags = word(0);
        let flag = |bit: u32| flags >> bit & 1 == 1;
        let code = crate::code::CodeServer::global();
        let in_code = |address: u64| {
            let ip = address as *const Instr;
            code.module_at(ip).is_some_and(|m| {
                (address as usize - m.code.as_ptr() as usize) % std::mem::size_of::<Instr>() == 0
            })
        };
        let ip = word(1);
        // A null instruction: a process that failed before running any.
        if ip != 0 && !in_code(ip) {
            return None;
        }
        let atom_at = |w: u64| Atom::from_index(u32::try_from(w).ok()?);
        let mfa = if flag(0) {
            Some((atom_at(word(2))?, atom_at(word(3))?))
        } else {
            None
        };
        let mut return_addresses = Vec::new();
        for i in 4..bytes.len() / 8 {
            let ra = word(i);
            if !in_code(ra) {
                return None;
            }
            return_addresses.push(ra as *const Instr);
        }
        Some(Raw {
            ip: ip as *const Instr,
            mfa,
            args: flag(1).then_some(*args),
            error_info: flag(2).then_some(*error_info),
            function_clause: flag(3),
            undef: flag(4),
            skip_current: flag(5),
            watched: flag(6),
            return_addresses,
        })
    }
}

/// The frames of the return addresses on `p`'s stack (its caller's first),
/// at most `depth` (default [`MAX_DEPTH`]): a tracing match
/// specification's `current_stacktrace`, seen from a traced call.
pub(super) fn return_frames(p: &mut Process, depth: Option<usize>) -> Term {
    let depth = depth.unwrap_or(MAX_DEPTH);
    let stub = super::return_trace::stub();
    let mut return_addresses: Vec<*const Instr> = Vec::new();
    let cp: *const Instr = p.cp.cast();
    let words = p.stack.iter().rev().filter_map(|w| w.as_code_pointer());
    for ra in std::iter::once(cp).chain(words.map(<*const ()>::cast)) {
        // Return-trace stubs and the end of the process are no frames.
        if !ra.is_null() && !std::ptr::eq(ra, stub) && return_addresses.last() != Some(&ra) {
            return_addresses.push(ra);
        }
    }
    let mut frames = Vec::new();
    for ra in return_addresses {
        if frames.len() >= depth {
            break;
        }
        if let Some(frame) = frame_at(p, ra, true, None, Term::NIL) {
            frames.push(frame);
        }
    }
    p.heap.list(&frames)
}

/// Where a process suspended at `ip` is shown to be: at the start of its
/// receive loop when `ip` is the receive's `wait` or `wait_timeout` (the
/// BEAM suspends a waiting process there, so its location is the line in
/// effect before the receive, not that of a call in one of its clauses),
/// else at `ip`.
pub fn suspended_at(ip: *const Instr) -> *const Instr {
    let Some(module) = crate::code::CodeServer::global().module_at(ip) else {
        return ip;
    };
    let index = module.index_of(ip);
    let target = match module.code.get(index) {
        Some(Instr::Recv(RecvInstr::Wait { target } | RecvInstr::WaitTimeout { target, .. })) => {
            *target
        }
        _ => return ip,
    };
    // A target is an offset, in instructions, from the instruction holding
    // it to another instruction of the same function.
    match index.checked_add_signed(target.0 as isize) {
        Some(to) if target.is_some() && to < module.code.len() => module.code[to..].as_ptr(),
        _ => ip,
    }
}

/// Whether the code at return address `ra` returns at once (`return`, or
/// `deallocate` then `return`, loaded as one `DeallocateReturn`).
fn returns_at_once(ra: *const Instr) -> bool {
    // SAFETY: `ra` is a return address into loaded code, which is never
    // freed.
    match unsafe { &*ra } {
        // A deallocate followed by a return is loaded as DeallocateReturn
        // (loader/specialise.rs).
        Instr::Return | Instr::DeallocateReturn { .. } => true,
        _ => false,
    }
}

/// Whether `ip` is the entry of a NIF stub that calls its native: a
/// `CallBifOnly` of the function itself, right after its `func_info`.
fn is_stub_entry(ip: *const Instr) -> bool {
    if ip.is_null() {
        return false;
    }
    // SAFETY: `ip` points at the raising instruction of loaded code, which
    // is never freed; a `CallBifOnly` is never a module's first instruction
    // (its function's `func_info` comes first), so `ip - 1` is in bounds.
    let (this, before) = unsafe { (&*ip, &*ip.sub(1)) };
    match (this, before) {
        (
            Instr::CallBifOnly { export, .. },
            Instr::FuncInfo {
                module,
                function,
                arity,
            },
        ) => {
            export.module == *module
                && export.function == *function
                && export.arity == u32::from(*arity)
        }
        _ => false,
    }
}

/// Whether `erlang:F` is a function erlang.erl defines in Erlang (its
/// errors come from Erlang code there, through `badarg_with_info`), which
/// beamr implements natively: the spawn family.
fn written_in_erlang_by_otp((m, f): (Atom, Atom)) -> bool {
    m == Atom::ERLANG
        && matches!(
            f.name(),
            "spawn" | "spawn_link" | "spawn_monitor" | "spawn_opt" | "spawn_request"
        )
}

/// Whether the call at `ip` is a tail call: one of the `_only`/`_last`
/// forms, or a call followed by `return` (after `deallocate` or not).
fn is_tail_call(ip: *const Instr) -> bool {
    // A process that fails before running (spawning an undefined function)
    // has no instruction.
    if ip.is_null() {
        return false;
    }
    // SAFETY: `ip` points at the raising instruction of loaded code, which is
    // never freed; every instruction but the last of a function has a
    // successor, and a call is never the last (a return or jump follows).
    let (this, next) = unsafe { (&*ip, &*ip.add(1)) };
    match this {
        Instr::CallExtOnly { .. } | Instr::CallExtLast { .. } | Instr::ApplyLast { .. } => true,
        Instr::ApplyList { tail } | Instr::ApplyFunList { tail } => !matches!(tail, Tail::Call),
        Instr::CallFun { .. } | Instr::CallFun2 { .. } | Instr::Apply { .. } => match next {
            // (A deallocate then return is one DeallocateReturn.)
            Instr::Return | Instr::DeallocateReturn { .. } => true,
            _ => false,
        },
        _ => false,
    }
}

/// Whether the call at `ip` is a BIF called in tail position (a BIF's
/// own error keeps its caller's frame on the BEAM; this is for the
/// functions [`written_in_erlang_by_otp`]).
fn is_tail_bif_call(ip: *const Instr) -> bool {
    if ip.is_null() {
        return false;
    }
    // SAFETY: as in `is_tail_call`: `ip` points at a loaded instruction.
    let this = unsafe { &*ip };
    matches!(this, Instr::CallBifOnly { .. } | Instr::CallBifLast { .. })
}

/// An atom of the stack trace's vocabulary (always valid, so never fails).
fn atom(name: &str) -> Atom {
    Atom::new(name).expect("a short atom name")
}

/// The module whose `format_error/2` explains errors of BIFs in `module`
/// (the BEAM's table in `save_stacktrace`), if any.
pub fn error_info_module(module: Atom) -> Option<&'static str> {
    if module == Atom::ERLANG {
        return Some("erl_erts_errors");
    }
    match module.name() {
        "atomics" | "counters" | "erts_internal" | "persistent_term" => Some("erl_erts_errors"),
        "code" | "os" => Some("erl_kernel_errors"),
        "binary" | "ets" | "lists" | "maps" | "math" | "re" | "unicode" => {
            Some("erl_stdlib_errors")
        }
        _ => None,
    }
}

/// The location of a BIF's frame: `[{error_info, #{module => M}}]` (with
/// `cause => Cause` when the BIF gave one), or `[]`.
fn bif_error_info(p: &mut Process, bif_module: Atom, cause: Term) -> Term {
    let Some(formatter) = error_info_module(bif_module) else {
        return Term::NIL;
    };
    let module = (Term::atom(atom("module")), Term::atom(atom(formatter)));
    let map = if cause.is_non_value() {
        beamr_core::map::from_pairs(&mut p.heap, &[module])
    } else {
        beamr_core::map::from_pairs(&mut p.heap, &[(Term::atom(atom("cause")), cause), module])
    };
    let item = p.heap.tuple(&[Term::atom(atom("error_info")), map]);
    p.heap.list(&[item])
}

/// The frame for the function containing `ip`; for a return address, the
/// location is that of the call before it. `args` replaces the arity;
/// `tail` ends the location list.
fn frame_at(
    p: &mut Process,
    ip: *const Instr,
    is_return: bool,
    args: Option<Term>,
    tail: Term,
) -> Option<Term> {
    let module = crate::code::CodeServer::global().module_at(ip)?;
    let index = module.index_of(ip);
    let at = if is_return {
        index.saturating_sub(1)
    } else {
        index
    };
    let function = module.function_at(at)?;
    if module.name.name() == crate::code::embedded::INIT_BOOT.0 {
        return boot_frame(p, function.name, function.arity);
    }
    let loc = location(p, line_of(&module, at), tail);
    let arity = args.unwrap_or(Term::small_unchecked(function.arity as i64));
    Some(p.heap.tuple(&[
        Term::atom(module.name),
        Term::atom(function.name),
        arity,
        loc,
    ]))
}

/// The frame of `beamr_init_boot`'s function `name/arity` (item 5 of the
/// module's list): init's function of that name, or none.
fn boot_frame(p: &mut Process, name: Atom, arity: u32) -> Option<Term> {
    let shown = matches!(
        (name.name(), arity),
        ("do_boot", 3) | ("start_em", 1) | ("start_it", 1)
    );
    shown.then(|| {
        p.heap.tuple(&[
            Term::atom(atom("init")),
            Term::atom(name),
            Term::small_unchecked(i64::from(arity)),
            Term::NIL,
        ])
    })
}

/// The file and line of instruction `index` of `module`; none in a
/// preloaded module (erts's copies have no line information).
fn line_of(module: &crate::loader::Module, index: usize) -> Option<(&str, u32)> {
    if crate::code::is_preloaded(module.name.name()) {
        return None;
    }
    module.line_at(index)
}

/// `[{file, File}, {line, Line} | tail]`, or `tail` without line information.
fn location(p: &mut Process, line: Option<(&str, u32)>, tail: Term) -> Term {
    match line {
        Some((file, line)) => {
            let file = p.heap.string(file);
            let file_item = p.heap.tuple(&[Term::atom(Atom::FILE), file]);
            let line_item = p
                .heap
                .tuple(&[Term::atom(Atom::LINE), Term::small_unchecked(line as i64)]);
            let rest = p.heap.cons(line_item, tail);
            p.heap.cons(file_item, rest)
        }
        None => tail,
    }
}
