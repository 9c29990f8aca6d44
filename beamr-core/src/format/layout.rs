//! Breaking `~p` output across lines: OTP 25's `io_lib_pretty:pp/8` and
//! the `cind` functions that choose the indentation of tagged tuples.
//!
//! # Terms
//!
//! - `col`: the column a part starts at (from 1); `ll`: the line length.
//! - `m`: the most characters one line may hold; OTP sets it to the length
//!   of the whole term on one line when no `line_max_chars` is given.
//! - `ind`: the indentation (in spaces) of continuation lines.
//! - `ld` ("last depth"): how many closing brackets follow the part on its
//!   line, reserved so that they fit too.
//! - `w`: characters already on the current line inside this term.
//! - `tind`: the indentation of the elements after the tag of a tagged
//!   tuple: -1 (align with the first element after the tag), 4, or 1,
//!   the first of these with which the whole layout fits
//!   ([`print`]).
//!
//! A part is written on one line when `len < ll - col - ld` and
//! `len + w + ld <= m`. An element joins the previous one on its line only
//! when it is atomic (text that is never broken) and fits with its comma;
//! otherwise it starts a new line at `ind`. A map pair that does not fit
//! goes `Key =>` on one line and the value on the next, `tind` (or 4)
//! columns in.

use super::binary::Piece;
use super::pretty::{Elem, Node, Seq, Tail};

/// The layout of `elem`, which does not fit on one line, starting at
/// column `col` (OTP's `print/9` past its one-line test).
pub(super) fn print(elem: &Elem, col: i64, ll: i64, m: i64, out: &mut String) {
    let ctx = Layout { ll, m };
    let tind = [-1, 4]
        .into_iter()
        .find(|&i| ctx.cind(elem, col, i, 0, 0).is_ok())
        .unwrap_or(1);
    let mut pp = Printer { ctx, tind, out };
    pp.pp(elem, col, col - 1, 0, 0);
}

/// The indentation candidate does not fit (OTP's `throw(no_good)`).
struct NoGood;

/// Line length and line capacity.
#[derive(Copy, Clone)]
struct Layout {
    ll: i64,
    m: i64,
}

/// What follows an element of a sequence: the next element, or the end.
enum Rest<'a> {
    /// More elements (and then `tail`).
    More(&'a [Elem], &'a Tail),
    /// The end of the sequence.
    End(&'a Tail),
}

impl<'a> Rest<'a> {
    fn of(items: &'a [Elem], tail: &'a Tail) -> Rest<'a> {
        if items.is_empty() {
            Rest::End(tail)
        } else {
            Rest::More(items, tail)
        }
    }
}

/// OTP's `last_depth/2`: one more closing bracket after the last element.
fn last_depth(rest: &Rest<'_>, ld: i64) -> i64 {
    match rest {
        Rest::More(..) => 0,
        Rest::End(_) => ld + 1,
    }
}

/// True for a map pair whose key and value are both atomic.
fn atomic_pair(e: &Elem) -> bool {
    match &e.node {
        Node::Pair(k, v) => k.is_atomic() && v.is_atomic(),
        _ => false,
    }
}

impl Layout {
    /// True if `e` fits on the rest of the line.
    fn fits(&self, e: &Elem, col: i64, ld: i64, w: i64) -> bool {
        e.len < self.ll - col - ld && e.len + w + ld <= self.m
    }

    /// True if element `e` (atomic, as `atomic` says) joins the current line
    /// after a comma (the test of OTP's `pp_tail` and `pp_pairs_tail`).
    fn joins(&self, e: &Elem, atomic: bool, col: i64, ld1: i64, w: i64) -> bool {
        let elen = 1 + e.len;
        atomic
            && if ld1 == 0 {
                elen + 1 < self.ll - col && w + elen < self.m
            } else {
                elen < self.ll - col - ld1 && w + elen + ld1 <= self.m
            }
    }

    /// True if an improper tail `e` fits after `|` on the current line.
    fn tail_fits(&self, e: &Elem, col: i64, ld: i64, w: i64) -> bool {
        e.len + 1 < self.ll - col - (ld + 1) && e.len + 1 + w + (ld + 1) <= self.m && e.is_atomic()
    }

    // ----- choosing the tag indentation (OTP's cind/7 and friends) -----

    fn cind(&self, e: &Elem, col: i64, ind: i64, ld: i64, w: i64) -> Result<(), NoGood> {
        if self.fits(e, col, ld, w) {
            return Ok(());
        }
        match &e.node {
            Node::List(seq) | Node::Tuple { tagged: false, seq } => {
                self.cind_list(seq.items.as_slice(), &seq.tail, col + 1, ind, ld, w + 1)
            }
            Node::Tuple { tagged: true, seq } => self.cind_tag_tuple(seq, col, ind, ld, w + 1),
            Node::Map(seq) => self.cind_map(seq, col + 2, ind, ld, w + 2),
            Node::Leaf(_) | Node::Bin(_) | Node::Pair(..) => Ok(()),
        }
    }

    fn cind_tag_tuple(&self, seq: &Seq, col: i64, ind: i64, ld: i64, w: i64) -> Result<(), NoGood> {
        let Some((tag, rest)) = seq.items.split_first() else {
            return Ok(());
        };
        let tag_ind = tag.len + 2;
        let tcol = col + tag_ind;
        if ind > 0 && tag_ind > ind {
            let col1 = col + ind;
            if self.m + col1 <= self.ll || col1 <= self.ll / 2 {
                self.cind_tail(Rest::of(rest, &seq.tail), col1, tcol, ind, ld, w + tag.len)
            } else {
                Err(NoGood)
            }
        } else if self.m + tcol < self.ll || tcol < self.ll / 2 {
            self.cind_list(rest, &seq.tail, tcol, ind, ld, w + tag.len + 1)
        } else {
            Err(NoGood)
        }
    }

    fn cind_map(&self, seq: &Seq, col: i64, ind: i64, ld: i64, w: i64) -> Result<(), NoGood> {
        let Some((first, rest)) = seq.items.split_first() else {
            return Ok(());
        };
        let rest = Rest::of(rest, &seq.tail);
        let pw = self.cind_pair(first, col, ind, last_depth(&rest, ld), w)?;
        self.cind_pairs_tail(rest, col, col + pw, ind, ld, w + pw)
    }

    fn cind_pairs_tail(
        &self,
        mut rest: Rest<'_>,
        col0: i64,
        mut col: i64,
        ind: i64,
        ld: i64,
        mut w: i64,
    ) -> Result<(), NoGood> {
        while let Rest::More(items, tail) = rest {
            let (p, more) = (&items[0], Rest::of(&items[1..], tail));
            let ld1 = last_depth(&more, ld);
            if self.joins(p, atomic_pair(p), col, ld1, w) {
                col += 1 + p.len;
                w += 1 + p.len;
            } else {
                let pw = self.cind_pair(p, col0, ind, ld1, 0)?;
                col = col0 + pw;
                w = pw;
            }
            rest = more;
        }
        Ok(())
    }

    fn cind_pair(&self, p: &Elem, col: i64, ind: i64, ld: i64, w: i64) -> Result<i64, NoGood> {
        if self.fits(p, col, ld, w) {
            return Ok(if atomic_pair(p) { p.len } else { self.ll });
        }
        if let Node::Pair(k, v) = &p.node {
            self.cind(k, col, ind, ld, w)?;
            self.cind(v, col + map_value_indent(ind), ind, ld, 0)?;
        }
        Ok(self.ll)
    }

    fn cind_list(
        &self,
        items: &[Elem],
        tail: &Tail,
        col0: i64,
        ind: i64,
        ld: i64,
        w: i64,
    ) -> Result<(), NoGood> {
        let Some((first, rest)) = items.split_first() else {
            return Ok(());
        };
        let rest = Rest::of(rest, tail);
        let we = self.cind_element(first, col0, ind, last_depth(&rest, ld), w)?;
        self.cind_tail(rest, col0, col0 + we, ind, ld, w + we)
    }

    fn cind_tail(
        &self,
        mut rest: Rest<'_>,
        col0: i64,
        mut col: i64,
        ind: i64,
        ld: i64,
        mut w: i64,
    ) -> Result<(), NoGood> {
        loop {
            match rest {
                Rest::More(items, tail) => {
                    let (e, more) = (&items[0], Rest::of(&items[1..], tail));
                    let ld1 = last_depth(&more, ld);
                    if self.joins(e, e.is_atomic(), col, ld1, w) {
                        col += 1 + e.len;
                        w += 1 + e.len;
                    } else {
                        let we = self.cind_element(e, col0, ind, ld1, 0)?;
                        col = col0 + we;
                        w = we;
                    }
                    rest = more;
                }
                Rest::End(Tail::Nil | Tail::Dots) => return Ok(()),
                Rest::End(Tail::Improper(e)) => {
                    if self.tail_fits(e, col, ld, w) {
                        return Ok(());
                    }
                    return self.cind(e, col, ind, ld + 1, 0);
                }
            }
        }
    }

    fn cind_element(&self, e: &Elem, col: i64, ind: i64, ld: i64, w: i64) -> Result<i64, NoGood> {
        if self.fits(e, col, ld, w) && e.is_atomic() {
            return Ok(e.len);
        }
        self.cind(e, col, ind, ld, w)?;
        Ok(self.ll)
    }
}

/// How far a map value that goes on its own line is indented.
fn map_value_indent(tind: i64) -> i64 {
    if tind > 0 {
        tind
    } else {
        4
    }
}

/// Writes the layout (OTP's `pp/8` and friends).
struct Printer<'o> {
    ctx: Layout,
    tind: i64,
    out: &'o mut String,
}

impl Printer<'_> {
    fn newline(&mut self, ind: i64) {
        self.out.push('\n');
        for _ in 0..ind.max(0) {
            self.out.push(' ');
        }
    }

    fn pp(&mut self, e: &Elem, col: i64, ind: i64, ld: i64, w: i64) {
        if self.ctx.fits(e, col, ld, w) {
            e.write(self.out);
            return;
        }
        match &e.node {
            Node::List(seq) => {
                self.out.push('[');
                self.pp_list(&seq.items, &seq.tail, col + 1, ind + 1, ld, '|', w + 1);
                self.out.push(']');
            }
            Node::Tuple { tagged: true, seq } => {
                self.out.push('{');
                self.pp_tag_tuple(seq, col, ind, ld, w + 1);
                self.out.push('}');
            }
            Node::Tuple { tagged: false, seq } => {
                self.out.push('{');
                self.pp_list(&seq.items, &seq.tail, col + 1, ind + 1, ld, ',', w + 1);
                self.out.push('}');
            }
            Node::Map(seq) => {
                self.out.push_str("#{");
                self.pp_map(seq, col + 2, ind + 2, ld, w + 1);
                self.out.push('}');
            }
            Node::Bin(pieces) => self.pp_binary(pieces, col + 2, ind + 2, ld, w),
            Node::Leaf(_) | Node::Pair(..) => e.write(self.out),
        }
    }

    fn pp_tag_tuple(&mut self, seq: &Seq, col: i64, ind: i64, ld: i64, w: i64) {
        let Some((tag, rest)) = seq.items.split_first() else {
            self.out.push_str("...");
            return;
        };
        let tag_ind = tag.len + 2;
        let tcol = col + tag_ind;
        if self.tind > 0 && tag_ind > self.tind {
            let col1 = col + self.tind;
            tag.write(self.out);
            let rest = Rest::of(rest, &seq.tail);
            self.pp_tail(rest, col1, tcol, ind + self.tind, ld, ',', w + tag.len);
        } else {
            tag.write(self.out);
            self.out.push(',');
            self.pp_list(
                rest,
                &seq.tail,
                tcol,
                ind + tag_ind,
                ld,
                ',',
                w + tag.len + 1,
            );
        }
    }

    fn pp_map(&mut self, seq: &Seq, col: i64, ind: i64, ld: i64, w: i64) {
        let Some((first, rest)) = seq.items.split_first() else {
            if let Tail::Dots = seq.tail {
                self.out.push_str("...");
            }
            return;
        };
        let rest = Rest::of(rest, &seq.tail);
        let pw = self.pp_pair(first, col, ind, last_depth(&rest, ld), w);
        let mut col1 = col + pw;
        let mut w = pw;
        let mut rest = rest;
        loop {
            match rest {
                Rest::More(items, tail) => {
                    let (p, more) = (&items[0], Rest::of(&items[1..], tail));
                    let ld1 = last_depth(&more, ld);
                    if self.ctx.joins(p, atomic_pair(p), col1, ld1, w) {
                        self.out.push(',');
                        p.write(self.out);
                        col1 += 1 + p.len;
                        w += 1 + p.len;
                    } else {
                        self.out.push(',');
                        self.newline(ind);
                        let pw = self.pp_pair(p, col, ind, ld1, 0);
                        col1 = col + pw;
                        w = pw;
                    }
                    rest = more;
                }
                Rest::End(Tail::Dots) => {
                    self.out.push_str(",...");
                    return;
                }
                Rest::End(_) => return,
            }
        }
    }

    fn pp_pair(&mut self, p: &Elem, col: i64, ind: i64, ld: i64, w: i64) -> i64 {
        if self.ctx.fits(p, col, ld, w) {
            p.write(self.out);
            return if atomic_pair(p) { p.len } else { self.ctx.ll };
        }
        if let Node::Pair(k, v) = &p.node {
            let i = map_value_indent(self.tind);
            self.pp(k, col, ind, ld, w);
            self.out.push_str(" =>");
            self.newline(ind + i);
            self.pp(v, col + i, ind + i, ld, 0);
        }
        self.ctx.ll
    }

    #[allow(clippy::too_many_arguments)]
    fn pp_list(
        &mut self,
        items: &[Elem],
        tail: &Tail,
        col0: i64,
        ind: i64,
        ld: i64,
        sep: char,
        w: i64,
    ) {
        let Some((first, rest)) = items.split_first() else {
            self.out.push_str("...");
            return;
        };
        let rest = Rest::of(rest, tail);
        let we = self.pp_element(first, col0, ind, last_depth(&rest, ld), w);
        self.pp_tail(rest, col0, col0 + we, ind, ld, sep, w + we);
    }

    #[allow(clippy::too_many_arguments)]
    fn pp_tail(
        &mut self,
        mut rest: Rest<'_>,
        col0: i64,
        mut col: i64,
        ind: i64,
        ld: i64,
        sep: char,
        mut w: i64,
    ) {
        loop {
            match rest {
                Rest::More(items, tail) => {
                    let (e, more) = (&items[0], Rest::of(&items[1..], tail));
                    let ld1 = last_depth(&more, ld);
                    if self.ctx.joins(e, e.is_atomic(), col, ld1, w) {
                        self.out.push(',');
                        e.write(self.out);
                        col += 1 + e.len;
                        w += 1 + e.len;
                    } else {
                        self.out.push(',');
                        self.newline(ind);
                        let we = self.pp_element(e, col0, ind, ld1, 0);
                        col = col0 + we;
                        w = we;
                    }
                    rest = more;
                }
                Rest::End(Tail::Nil) => return,
                Rest::End(Tail::Dots) => {
                    self.out.push(sep);
                    self.out.push_str("...");
                    return;
                }
                Rest::End(Tail::Improper(e)) => {
                    self.out.push(sep);
                    if self.ctx.tail_fits(e, col, ld, w) {
                        e.write(self.out);
                    } else {
                        self.newline(ind);
                        self.pp(e, col0, ind, ld + 1, 0);
                    }
                    return;
                }
            }
        }
    }

    fn pp_element(&mut self, e: &Elem, col: i64, ind: i64, ld: i64, w: i64) -> i64 {
        if self.ctx.fits(e, col, ld, w) && e.is_atomic() {
            e.write(self.out);
            return e.len;
        }
        self.pp(e, col, ind, ld, w);
        self.ctx.ll
    }

    /// A binary's bytes, wrapped to the width left (OTP's `pp_binary`).
    fn pp_binary(&mut self, pieces: &[Piece], col: i64, ind: i64, ld: i64, w: i64) {
        let n0 = 8.max((self.ctx.ll - col).min(self.ctx.m - 4 - w) - ld);
        let mut n = n0;
        self.out.push_str("<<");
        let mut text = String::new();
        for (i, p) in pieces.iter().enumerate() {
            text.clear();
            let _ = p.write(&mut text);
            let last = i + 1 == pieces.len();
            if !last {
                let len = text.len() as i64 + 1;
                if n - len < 0 {
                    self.newline(ind);
                    n = n0 - len;
                } else {
                    n -= len;
                }
                self.out.push_str(&text);
                self.out.push(',');
            } else {
                if text.len() as i64 > n {
                    self.newline(ind);
                }
                self.out.push_str(&text);
            }
        }
        self.out.push_str(">>");
    }
}
