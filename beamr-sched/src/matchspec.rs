//! Match specifications: compiled once from their term form, then run
//! against objects (ETS `select`, `match`, and later tracing).
//!
//! A match specification is a list of clauses `{Head, Guards, Body}`:
//!
//! - `Head` is a pattern: `'_'` matches anything, `'$N'` (N a decimal
//!   number) binds a variable on its first occurrence and must be equal
//!   (`=:=`) on later ones, any other term must be equal to the object's
//!   part; maps match when they hold the pattern's keys.
//! - `Guards` are expressions that must all evaluate to `true`; an
//!   exception in a guard fails the clause.
//! - `Body` expressions are evaluated in order; the last one's value is the
//!   clause's result. An exception in the body fails the clause too.
//!
//! Expressions are constants, bound variables, `'$_'` (the whole object),
//! `'$$'` (the list of bound variables in variable-number order), `{const,
//! T}`, `{{E1, ..., En}}` (a tuple), lists and maps of expressions, and
//! calls `{F, A1, ..., An}` of the guard functions OTP allows (type tests,
//! arithmetic, comparisons, `element`, `hd`, `andalso`, `self`, ...), which
//! run as the `erlang` BIFs of the same name.
//!
//! Tracing specifications ([`MatchSpec::compile_trace`], for
//! `erlang:trace_pattern/3`) match the argument list of a call and may call
//! the tracing functions and actions of [`trace`] (`message`,
//! `return_trace`, `caller`, `enable_trace`, ...); a call that raises in
//! their body gives `'EXIT'` as its value and the body goes on, as erts's
//! trace bodies do.
//!
//! [`MatchSpec::compile`] copies the specification onto a heap of its own,
//! so a compiled specification outlives the term it came from.
//! [`MatchSpec::run`] builds its result on the calling process's heap; the
//! object itself is only read (it may live in a table's storage).

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::order;
use beamr_core::term::{Export, Term};

use crate::code::resolve;
use crate::loader::BifFn;
use crate::process::Process;
use crate::runtime::Runtime;

pub mod trace;

use trace::{TraceFn, TraceRun};

/// Why a match specification does not compile, in erts's words where
/// erts has them (`erlang:match_spec_test/3` answers with them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MsError(pub String);

/// A compiled match specification.
pub struct MatchSpec {
    clauses: Vec<Clause>,
    /// The specification as given (on `_heap`), for `trace_info/2`.
    source: Term,
    /// The specification's own copy, which constants point into; `None`
    /// when it has no boxed parts.
    _heap: Option<Heap>,
}

// SAFETY: the heap is never written after compilation; its terms are only
// read, and off-heap binaries it refers to are reference counted atomically.
unsafe impl Send for MatchSpec {}
// SAFETY: as above: shared use only reads.
unsafe impl Sync for MatchSpec {}

struct Clause {
    head: Pat,
    guards: Vec<Expr>,
    body: Vec<Expr>,
    /// Number of variables: slot `i` holds the `i`th variable bound.
    nvars: usize,
    /// The slots in variable-number order (what `'$$'` lists).
    by_number: Vec<usize>,
}

enum Pat {
    Any,
    /// First occurrence of a variable: bind slot.
    Bind(usize),
    /// Later occurrence: must equal slot.
    Same(usize),
    Const(Term),
    Tuple(Vec<Pat>),
    Cons(Box<Pat>, Box<Pat>),
    Map(Vec<(Term, Pat)>),
}

enum Expr {
    Const(Term),
    Var(usize),
    Object,
    AllVars,
    Tuple(Vec<Expr>),
    Cons(Box<Expr>, Box<Expr>),
    Map(Vec<(Expr, Expr)>),
    AndAlso(Vec<Expr>),
    OrElse(Vec<Expr>),
    Call(BifFn, Vec<Expr>),
    /// A function or action of tracing specifications.
    Trace(TraceFn, Vec<Expr>),
}

/// What a specification is compiled for, and which part of a clause: the
/// functions a call may name depend on it.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// ETS: `select`, `match`.
    Table,
    /// The guards of a tracing specification.
    TraceGuard,
    /// The body of a tracing specification.
    TraceBody,
}

/// The guard functions a match specification may call, with their arities.
const GUARD_FUNCTIONS: &[(&str, u8)] = &[
    ("is_atom", 1),
    ("is_float", 1),
    ("is_integer", 1),
    ("is_list", 1),
    ("is_number", 1),
    ("is_pid", 1),
    ("is_port", 1),
    ("is_reference", 1),
    ("is_tuple", 1),
    ("is_map", 1),
    ("is_map_key", 2),
    ("is_binary", 1),
    ("is_function", 1),
    ("is_record", 3),
    ("and", 2),
    ("or", 2),
    ("not", 1),
    ("xor", 2),
    ("abs", 1),
    ("element", 2),
    ("hd", 1),
    ("tl", 1),
    ("length", 1),
    ("map_get", 2),
    ("map_size", 1),
    ("node", 0),
    ("node", 1),
    ("round", 1),
    ("size", 1),
    ("bit_size", 1),
    ("byte_size", 1),
    ("trunc", 1),
    ("float", 1),
    ("binary_part", 2),
    ("binary_part", 3),
    ("+", 1),
    ("+", 2),
    ("-", 1),
    ("-", 2),
    ("*", 2),
    ("/", 2),
    ("div", 2),
    ("rem", 2),
    ("band", 2),
    ("bor", 2),
    ("bxor", 2),
    ("bnot", 1),
    ("bsl", 2),
    ("bsr", 2),
    (">", 2),
    (">=", 2),
    ("<", 2),
    ("=<", 2),
    ("=:=", 2),
    ("==", 2),
    ("=/=", 2),
    ("/=", 2),
    ("self", 0),
];

/// `'$N'` as a variable number.
fn var_number(t: Term) -> Option<u32> {
    let name = t.as_atom()?.name();
    let digits = name.strip_prefix('$')?;
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn is_atom(t: Term, name: &str) -> bool {
    t.as_atom().is_some_and(|a| a.name() == name)
}

fn err(msg: &str) -> MsError {
    MsError(msg.to_string())
}

/// `t` as erts's error messages show a term (`%T`).
fn shown(t: Term) -> String {
    String::from_utf8_lossy(&beamr_core::format::display_erts(t)).into_owned()
}

/// erts's error for an expression tuple that is no call.
fn not_a_call(t: Term) -> MsError {
    MsError(format!(
        "{} is neither a function call, nor a tuple (tuples are written {{{{ ... }}}}).",
        shown(t)
    ))
}

struct Compiler {
    vars: Vec<u32>,
    mode: Mode,
}

impl Compiler {
    fn slot(&self, n: u32) -> Option<usize> {
        self.vars.iter().position(|&v| v == n)
    }

    fn pattern(&mut self, t: Term) -> Result<Pat, MsError> {
        if is_atom(t, "_") {
            return Ok(Pat::Any);
        }
        if let Some(n) = var_number(t) {
            return Ok(match self.slot(n) {
                Some(s) => Pat::Same(s),
                None => {
                    self.vars.push(n);
                    Pat::Bind(self.vars.len() - 1)
                }
            });
        }
        if let Some(elems) = t.as_tuple() {
            let pats = elems
                .iter()
                .map(|&e| self.pattern(e))
                .collect::<Result<_, _>>()?;
            return Ok(Pat::Tuple(pats));
        }
        if let Some((h, tl)) = t.as_cons() {
            let h = self.pattern(h)?;
            let tl = self.pattern(tl)?;
            return Ok(Pat::Cons(Box::new(h), Box::new(tl)));
        }
        if t.is_map() {
            let mut pairs = Vec::new();
            for (k, v) in beamr_core::map::iter(t).into_iter().flatten() {
                if is_atom(k, "_") {
                    return Err(err("Underscore found in map key."));
                }
                if contains_var(k) {
                    return Err(err("Variable found in map key."));
                }
                pairs.push((k, self.pattern(v)?));
            }
            return Ok(Pat::Map(pairs));
        }
        Ok(Pat::Const(t))
    }

    fn expr(&self, t: Term) -> Result<Expr, MsError> {
        if let Some(a) = t.as_atom() {
            match a.name() {
                "$_" => return Ok(Expr::Object),
                "$$" => return Ok(Expr::AllVars),
                _ => {}
            }
            if let Some(n) = var_number(t) {
                return self
                    .slot(n)
                    .map(Expr::Var)
                    .ok_or_else(|| MsError(format!("Variable ${n} is unbound.")));
            }
            return Ok(Expr::Const(t));
        }
        if let Some(elems) = t.as_tuple() {
            let Some(&first) = elems.first() else {
                return Err(not_a_call(t));
            };
            // {{E1, ..., En}}: a tuple built of expressions.
            if elems.len() == 1 {
                if let Some(inner) = first.as_tuple() {
                    let es = inner
                        .iter()
                        .map(|&e| self.expr(e))
                        .collect::<Result<_, _>>()?;
                    return Ok(Expr::Tuple(es));
                }
            }
            let Some(f) = first.as_atom().filter(|_| var_number(first).is_none()) else {
                return Err(not_a_call(t));
            };
            let args = &elems[1..];
            match (f.name(), args.len()) {
                ("const", 1) => return Ok(Expr::Const(args[0])),
                ("andalso" | "orelse", 0) => {
                    return Err(MsError(format!(
                        "Special form '{}' called without arguments in {}.",
                        f.name(),
                        shown(t)
                    )));
                }
                ("andalso", _) | ("orelse", _) => {
                    let es = args
                        .iter()
                        .map(|&e| self.expr(e))
                        .collect::<Result<Vec<_>, _>>()?;
                    return Ok(if f.name() == "andalso" {
                        Expr::AndAlso(es)
                    } else {
                        Expr::OrElse(es)
                    });
                }
                _ => {}
            }
            if let Some(tf) = trace::function(t, self.mode)? {
                let es = args
                    .iter()
                    .map(|&e| self.expr(e))
                    .collect::<Result<_, _>>()?;
                return Ok(Expr::Trace(tf, es));
            }
            let arity = args.len() as u8;
            if !GUARD_FUNCTIONS
                .iter()
                .any(|&(n, a)| n == f.name() && a as usize == args.len())
            {
                return Err(MsError(format!(
                    "Function {}/{} does_not_exist.",
                    shown(first),
                    args.len()
                )));
            }
            let bif = resolve::native(Export::intern(Atom::ERLANG, f, arity as u32))
                .ok_or_else(|| err("guard function not implemented"))?;
            let es = args
                .iter()
                .map(|&e| self.expr(e))
                .collect::<Result<_, _>>()?;
            return Ok(Expr::Call(bif, es));
        }
        if let Some((h, tl)) = t.as_cons() {
            return Ok(Expr::Cons(
                Box::new(self.expr(h)?),
                Box::new(self.expr(tl)?),
            ));
        }
        if t.is_map() {
            let mut pairs = Vec::new();
            for (k, v) in beamr_core::map::iter(t).into_iter().flatten() {
                pairs.push((self.expr(k)?, self.expr(v)?));
            }
            return Ok(Expr::Map(pairs));
        }
        Ok(Expr::Const(t))
    }
}

fn contains_var(t: Term) -> bool {
    if t.as_atom().is_some() {
        return var_number(t).is_some() || is_atom(t, "_");
    }
    if let Some(elems) = t.as_tuple() {
        return elems.iter().any(|&e| contains_var(e));
    }
    if let Some((h, tl)) = t.as_cons() {
        return contains_var(h) || contains_var(tl);
    }
    false
}

impl MatchSpec {
    /// Compiles the term form of a match specification.
    pub fn compile(spec: Term) -> Result<MatchSpec, MsError> {
        MatchSpec::compile_as(spec, false)
    }

    /// Compiles a tracing match specification (`erlang:trace_pattern/3`):
    /// each head matches the argument list (a list of patterns, `'_'` or a
    /// variable), and guards and bodies may use the tracing functions.
    pub fn compile_trace(spec: Term) -> Result<MatchSpec, MsError> {
        MatchSpec::compile_as(spec, true)
    }

    fn compile_as(spec: Term, tracing: bool) -> Result<MatchSpec, MsError> {
        let mut heap = None;
        let spec = if spec.is_immediate() {
            spec
        } else {
            let mut h = Heap::with_capacity(beamr_core::heap::size_of_term(spec).max(1));
            let copy = h.copy_term(spec);
            heap = Some(h);
            copy
        };
        let items = spec.list_to_vec().ok_or_else(|| match spec.as_cons() {
            Some(_) => err("Match programs are not in a proper list."),
            None => err("Match programs are not in a list."),
        })?;
        let mut clauses = Vec::with_capacity(items.len());
        for item in items {
            let Some(&[head, guards, body]) = item.as_tuple() else {
                return Err(err("Match program part is not a tuple of arity 3."));
            };
            // A trace head is the argument list, or '_' or a variable; a
            // tuple stands for the list of its elements (erts matches the
            // arguments as a tuple).
            let head = match head.as_tuple() {
                Some(elems) if tracing => {
                    let elems = elems.to_vec();
                    heap.as_mut().map_or(Term::NIL, |h| h.list(&elems))
                }
                _ => head,
            };
            if tracing && head.as_cons().is_some() && head.list_to_vec().is_none() {
                return Err(MsError(format!(
                    "Match expression part {} is not a proper list.",
                    shown(head)
                )));
            }
            let head_ok =
                head.list_to_vec().is_some() || is_atom(head, "_") || var_number(head).is_some();
            if tracing && !head_ok {
                return Err(err("Match head is invalid in this context."));
            }
            let (guard_mode, body_mode) = if tracing {
                (Mode::TraceGuard, Mode::TraceBody)
            } else {
                (Mode::Table, Mode::Table)
            };
            let mut c = Compiler {
                vars: Vec::new(),
                mode: guard_mode,
            };
            let head = c.pattern(head)?;
            let guards = guards
                .list_to_vec()
                .ok_or_else(|| err("Match expression is not a list."))?
                .into_iter()
                .map(|g| c.expr(g))
                .collect::<Result<_, _>>()?;
            c.mode = body_mode;
            if !tracing && body.as_cons().is_none() {
                return Err(err("Body clause does not return anything."));
            }
            let body: Vec<Expr> = body
                .list_to_vec()
                .ok_or_else(|| err("Match expression is not a list."))?
                .into_iter()
                .map(|b| c.expr(b))
                .collect::<Result<_, _>>()?;
            clauses.push(Clause::new(head, guards, body, &c.vars));
        }
        Ok(MatchSpec {
            clauses,
            source: spec,
            _heap: heap,
        })
    }

    /// The specification as it was given (a term on the specification's
    /// own heap: copy it before it leaves).
    pub fn source(&self) -> Term {
        self.source
    }

    /// Runs a tracing specification on a call with `args`: `None` when no
    /// clause matches (the call is not traced); otherwise the body ran, its
    /// actions recorded in `run`.
    pub fn run_trace(
        &self,
        rt: &Runtime,
        p: &mut Process,
        args: &[Term],
        run: &mut TraceRun,
    ) -> Option<()> {
        let object = p.heap.list(args);
        let mut scratch = Vec::new();
        let (clause, env) = self.first_match(rt, &mut scratch, p, object)?;
        let mut env = Env {
            catch: true,
            trace: Some(run),
            ..env
        };
        for b in &clause.body {
            env.eval(rt, b, p, true);
        }
        Some(())
    }

    /// A specification matching `pattern` and returning what `ets:match`
    /// returns (`'$$'`) or, with `whole`, the object (`'$_'`).
    pub fn from_pattern(pattern: Term, whole: bool) -> Result<MatchSpec, MsError> {
        let mut heap = None;
        let pattern = if pattern.is_immediate() {
            pattern
        } else {
            let mut h = Heap::with_capacity(beamr_core::heap::size_of_term(pattern).max(1));
            let copy = h.copy_term(pattern);
            heap = Some(h);
            copy
        };
        let mut c = Compiler {
            vars: Vec::new(),
            mode: Mode::Table,
        };
        let head = c.pattern(pattern)?;
        Ok(MatchSpec {
            clauses: vec![Clause::new(
                head,
                Vec::new(),
                vec![if whole { Expr::Object } else { Expr::AllVars }],
                &c.vars,
            )],
            source: pattern,
            _heap: heap,
        })
    }

    /// Runs the specification on `object`: the first clause whose head
    /// matches and whose guards hold gives the result, built on `p`'s heap.
    /// `None` when no clause matches.
    pub fn run(&self, rt: &Runtime, p: &mut Process, object: Term) -> Option<Term> {
        let mut scratch = Vec::new();
        self.run_with(rt, &mut scratch, p, object)
    }

    /// [`MatchSpec::run`] reusing `scratch` for the variable bindings.
    pub fn run_with(
        &self,
        rt: &Runtime,
        scratch: &mut Vec<Term>,
        p: &mut Process,
        object: Term,
    ) -> Option<Term> {
        let (clause, mut env) = self.first_match(rt, scratch, p, object)?;
        // A body that raises gives 'EXIT', as in OTP.
        let mut result = Term::NON_VALUE;
        for b in &clause.body {
            match env.eval(rt, b, p, true) {
                Some(r) => result = r,
                None => return Some(Term::atom(Atom::EXIT)),
            }
        }
        Some(result)
    }

    /// The first clause whose head matches `object` (binding its variables
    /// in `scratch`) and whose guards hold, with the bindings to evaluate
    /// its body in.
    fn first_match<'s>(
        &'s self,
        rt: &Runtime,
        scratch: &'s mut Vec<Term>,
        p: &mut Process,
        object: Term,
    ) -> Option<(&'s Clause, Env<'s, 's>)> {
        let clause = self.clauses.iter().find(|clause| {
            scratch.clear();
            scratch.resize(clause.nvars, Term::NON_VALUE);
            if !matches(&clause.head, object, scratch) {
                return false;
            }
            let mut env = Env {
                vars: scratch,
                by_number: &clause.by_number,
                object,
                catch: false,
                trace: None,
            };
            clause
                .guards
                .iter()
                .all(|g| env.eval(rt, g, p, false) == Some(Term::TRUE))
        })?;
        let env = Env {
            vars: scratch,
            by_number: &clause.by_number,
            object,
            catch: false,
            trace: None,
        };
        Some((clause, env))
    }

    /// True if some clause's head matches `object` and its guards hold
    /// (the body is not built; for counting and deleting).
    pub fn test(&self, rt: &Runtime, p: &mut Process, object: Term) -> bool {
        let mut scratch = Vec::new();
        self.test_with(rt, &mut scratch, p, object)
    }

    /// [`MatchSpec::test`] reusing `scratch`; true when the clause that
    /// matches has a body evaluating to `true`.
    pub fn test_with(
        &self,
        rt: &Runtime,
        scratch: &mut Vec<Term>,
        p: &mut Process,
        object: Term,
    ) -> bool {
        let Some((clause, mut env)) = self.first_match(rt, scratch, p, object) else {
            return false;
        };
        let mut result = None;
        for b in &clause.body {
            result = env.eval(rt, b, p, false);
            if result.is_none() {
                return false;
            }
        }
        result == Some(Term::TRUE)
    }

    /// The one object the specification can match, if every clause's head
    /// fixes element `keypos` (1-based) to a constant: lets a table look it
    /// up instead of scanning. `None` when some clause leaves it open.
    pub fn bound_keys(&self, keypos: usize) -> Option<Vec<Term>> {
        let mut keys = Vec::new();
        for c in &self.clauses {
            match &c.head {
                Pat::Tuple(elems) => match elems.get(keypos - 1)? {
                    Pat::Const(k) => keys.push(*k),
                    _ => return None,
                },
                _ => return None,
            }
        }
        Some(keys)
    }

    /// True when the specification only returns whole objects unchanged
    /// (`[{Head, [], ['$_']}]` clauses).
    pub fn returns_objects(&self) -> bool {
        self.clauses
            .iter()
            .all(|c| c.guards.is_empty() && matches!(c.body.as_slice(), [Expr::Object]))
    }
}

fn matches(pat: &Pat, t: Term, vars: &mut [Term]) -> bool {
    match pat {
        Pat::Any => true,
        Pat::Bind(s) => {
            vars[*s] = t;
            true
        }
        Pat::Same(s) => exact(vars[*s], t),
        Pat::Const(c) => exact(*c, t),
        Pat::Tuple(pats) => match t.as_tuple() {
            Some(elems) if elems.len() == pats.len() => pats
                .iter()
                .zip(elems.iter())
                .all(|(p, &e)| matches(p, e, vars)),
            _ => false,
        },
        Pat::Cons(h, tl) => match t.as_cons() {
            Some((th, tt)) => matches(h, th, vars) && matches(tl, tt, vars),
            None => false,
        },
        Pat::Map(pairs) => {
            t.is_map()
                && pairs
                    .iter()
                    .all(|(k, p)| match beamr_core::map::get(t, *k) {
                        Some(v) => matches(p, v, vars),
                        None => false,
                    })
        }
    }
}

#[inline]
fn exact(a: Term, b: Term) -> bool {
    a == b || (!a.is_immediate() && order::exact_eq(a, b))
}

struct Env<'a, 't> {
    vars: &'a [Term],
    by_number: &'a [usize],
    object: Term,
    /// True in a tracing body: a call that raises gives `'EXIT'`.
    catch: bool,
    /// The actions of a tracing specification's run.
    trace: Option<&'t mut TraceRun>,
}

impl Clause {
    fn new(head: Pat, guards: Vec<Expr>, body: Vec<Expr>, vars: &[u32]) -> Clause {
        let mut by_number: Vec<usize> = (0..vars.len()).collect();
        by_number.sort_by_key(|&i| vars[i]);
        Clause {
            head,
            guards,
            body,
            nvars: vars.len(),
            by_number,
        }
    }
}

impl Env<'_, '_> {
    /// Evaluates `e`; `None` on an exception. With `copy`, the result lives
    /// entirely on `p`'s heap; otherwise it may share parts of the object
    /// and of the specification.
    fn eval(&mut self, rt: &Runtime, e: &Expr, p: &mut Process, copy: bool) -> Option<Term> {
        let leaf = |p: &mut Process, t: Term| {
            if copy && !t.is_immediate() {
                p.heap.copy_term(t)
            } else {
                t
            }
        };
        Some(match e {
            Expr::Const(t) => leaf(p, *t),
            Expr::Var(s) => leaf(p, self.vars[*s]),
            Expr::Object => leaf(p, self.object),
            Expr::AllVars => {
                let mut list = Term::NIL;
                for &i in self.by_number.iter().rev() {
                    let v = leaf(p, self.vars[i]);
                    list = p.heap.cons(v, list);
                }
                list
            }
            Expr::Tuple(es) => {
                let items = es
                    .iter()
                    .map(|e| self.eval(rt, e, p, copy))
                    .collect::<Option<Vec<_>>>()?;
                p.heap.tuple(&items)
            }
            Expr::Cons(h, t) => {
                let h = self.eval(rt, h, p, copy)?;
                let t = self.eval(rt, t, p, copy)?;
                p.heap.cons(h, t)
            }
            Expr::Map(pairs) => {
                let mut kvs = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    kvs.push((self.eval(rt, k, p, copy)?, self.eval(rt, v, p, copy)?));
                }
                beamr_core::map::from_pairs(&mut p.heap, &kvs)
            }
            Expr::AndAlso(es) => {
                for e in es {
                    match self.eval(rt, e, p, false)? {
                        Term::TRUE => {}
                        Term::FALSE => return Some(Term::FALSE),
                        _ => return None,
                    }
                }
                Term::TRUE
            }
            Expr::OrElse(es) => {
                for e in es {
                    match self.eval(rt, e, p, false)? {
                        Term::TRUE => return Some(Term::TRUE),
                        Term::FALSE => {}
                        _ => return None,
                    }
                }
                Term::FALSE
            }
            Expr::Call(bif, args) => {
                let mut vals = [Term::NIL; 3];
                for (i, a) in args.iter().enumerate() {
                    vals[i] = self.eval(rt, a, p, copy)?;
                }
                match bif(rt, p, &vals[..args.len()]) {
                    Ok(v) => v,
                    Err(_) if self.catch => Term::atom(Atom::EXIT),
                    Err(_) => return None,
                }
            }
            Expr::Trace(tf, args) => {
                let mut vals = [Term::NIL; 3];
                for (i, a) in args.iter().enumerate() {
                    vals[i] = self.eval(rt, a, p, copy)?;
                }
                let run = self.trace.as_deref_mut();
                match trace::eval(*tf, rt, p, &vals[..args.len()], run) {
                    Some(v) => v,
                    None if self.catch => Term::atom(Atom::EXIT),
                    None => return None,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Term {
        Term::atom(Atom::new(s).unwrap())
    }

    #[test]
    fn compile_and_run() {
        // Guard functions bind to the native BIFs a runtime installs.
        let rt = crate::runtime::Runtime::new(crate::code::CodePath::default());
        let mut p = Process::new(Term::pid(1));
        let h = &mut p.heap;
        // [{{'$1', '$2'}, [{'>', '$2', 1}], [{{'$2', '$1'}}]}]
        let head = h.tuple(&[a("$1"), a("$2")]);
        let guard = h.tuple(&[a(">"), a("$2"), Term::small_unchecked(1)]);
        let guards = h.list(&[guard]);
        let pair = h.tuple(&[a("$2"), a("$1")]);
        let built = h.tuple(&[pair]);
        let body = h.list(&[built]);
        let clause = h.tuple(&[head, guards, body]);
        let spec = h.list(&[clause]);
        let ms = MatchSpec::compile(spec).expect("compiles");
        let hit = p.heap.tuple(&[a("k"), Term::small_unchecked(5)]);
        let miss = p.heap.tuple(&[a("k"), Term::small_unchecked(0)]);
        let short = p.heap.tuple(&[a("k")]);
        let r = ms.run(&rt, &mut p, hit).expect("matches");
        assert_eq!(r.as_tuple().unwrap(), &[Term::small_unchecked(5), a("k")]);
        assert!(ms.run(&rt, &mut p, miss).is_none());
        assert!(ms.run(&rt, &mut p, short).is_none());
        assert!(!ms.test(&rt, &mut p, hit), "the body is not `true`");
        assert_eq!(ms.bound_keys(1), None);
    }

    #[test]
    fn bad_specifications_do_not_compile() {
        let mut p = Process::new(Term::pid(1));
        let h = &mut p.heap;
        let unbound = {
            let body = h.list(&[a("$3")]);
            let c = h.tuple(&[a("$1"), Term::NIL, body]);
            h.list(&[c])
        };
        let unknown_fn = {
            let g = h.tuple(&[a("no_such_guard"), a("$1")]);
            let gs = h.list(&[g]);
            let body = h.list(&[a("$1")]);
            let c = h.tuple(&[a("$1"), gs, body]);
            h.list(&[c])
        };
        let empty_body = {
            let c = h.tuple(&[a("_"), Term::NIL, Term::NIL]);
            h.list(&[c])
        };
        for spec in [
            unbound,
            unknown_fn,
            empty_body,
            a("foo"),
            Term::small_unchecked(1),
        ] {
            assert!(MatchSpec::compile(spec).is_err());
        }
    }

    #[test]
    fn variable_names() {
        assert_eq!(var_number(a("$1")), Some(1));
        assert_eq!(var_number(a("$0")), Some(0));
        assert_eq!(var_number(a("$12")), Some(12));
        assert_eq!(var_number(a("$")), None);
        assert_eq!(var_number(a("$x")), None);
        assert_eq!(var_number(a("$_")), None);
        assert_eq!(var_number(a("foo")), None);
    }
}
