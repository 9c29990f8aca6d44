//! OTP 29's native records: the definitions they point to and a read-only
//! view of a record value.
//!
//! ```text
//! word 0   header: Subtag::Record, arity 1 + n
//! word 1   &'static RecordDef (raw: never scanned by the collector)
//! word 2.. the n field values, in the definition's field order
//! ```
//!
//! A definition is the record's shape: module, name, whether it is
//! exported, and its field names in declaration order. Definitions are
//! interned once and never freed (as fun entries and exports are), so a
//! record holds a `&'static` reference and copying one between heaps, to an
//! ETS table or in a message is a word copy.
//!
//! The BEAM gives the definition a module declares (the *canonical* one, from
//! the `Recs` chunk of its `.beam` file) an identity of its own: records built
//! by that module, by `records:create/4` with the same shape, or decoded by
//! `binary_to_term/1` with the same shape all point to it. A shape nobody
//! declared (`records:create/4` of an unknown record) gets a definition of its
//! own. That difference is visible: `==` compares the values of two records of
//! one canonical definition exactly (`#r{a = 1} == #r{a = 1.0}` is false)
//! and everything else by the term order (see [`crate::order`]). So the
//! intern table is keyed by shape *and* canonicity, and [`RecordDef::resolve`]
//! picks the canonical definition whenever the declared one has that shape.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use super::header::Subtag;
use super::word::Term;
use crate::atom::Atom;

/// The shape of a native record.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct RecordDef {
    /// The module that declares (or, for `records:create/4`, names) it.
    pub module: Atom,
    /// The record's name.
    pub name: Atom,
    /// Whether other modules may read and build it (`-export_record`).
    pub exported: bool,
    /// Field names in declaration order; values are stored in this order.
    pub fields: Box<[Atom]>,
    /// True for a definition some loaded module declared.
    pub canonical: bool,
}

type Key = (Atom, Atom, bool, Box<[Atom]>, bool);
static DEFS: LazyLock<Mutex<HashMap<Key, &'static RecordDef>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
/// The canonical definition of each `(module, name)` whose module is loaded.
static DECLARED: LazyLock<Mutex<HashMap<(Atom, Atom), &'static RecordDef>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

impl RecordDef {
    /// The interned definition of this shape and canonicity, created on
    /// first use.
    pub fn intern(
        module: Atom,
        name: Atom,
        exported: bool,
        fields: &[Atom],
        canonical: bool,
    ) -> &'static RecordDef {
        let key: Key = (module, name, exported, fields.into(), canonical);
        let mut table = DEFS.lock().unwrap_or_else(|e| e.into_inner());
        table.entry(key).or_insert_with(|| {
            Box::leak(Box::new(RecordDef {
                module,
                name,
                exported,
                fields: fields.into(),
                canonical,
            }))
        })
    }

    /// Records `def` as the canonical definition of its module's record
    /// (a module declaring it was loaded), or forgets the declaration of
    /// `(module, name)` when `def` is `None` (the module was deleted).
    pub fn declare(module: Atom, name: Atom, def: Option<&'static RecordDef>) {
        let mut table = DECLARED.lock().unwrap_or_else(|e| e.into_inner());
        match def {
            Some(d) => table.insert((module, name), d),
            None => table.remove(&(module, name)),
        };
    }

    /// The canonical definition of `module`'s record `name`, if a loaded
    /// module declares it.
    pub fn declared(module: Atom, name: Atom) -> Option<&'static RecordDef> {
        let table = DECLARED.lock().unwrap_or_else(|e| e.into_inner());
        table.get(&(module, name)).copied()
    }

    /// The definition a record of this shape built outside its module
    /// (`records:create/4`, `binary_to_term/1`) gets: the declared one when
    /// it has exactly this shape, else one of its own.
    pub fn resolve(
        module: Atom,
        name: Atom,
        exported: bool,
        fields: &[Atom],
    ) -> &'static RecordDef {
        match RecordDef::declared(module, name) {
            Some(d) if d.exported == exported && *d.fields == *fields => d,
            _ => RecordDef::intern(module, name, exported, fields, false),
        }
    }

    /// The position of field `f` in the value words, if the record has it.
    #[inline]
    pub fn field_index(&self, f: Atom) -> Option<usize> {
        self.fields.iter().position(|&k| k == f)
    }

    /// True when `self` and `other` describe the same shape (whatever their
    /// canonicity).
    pub fn same_shape(&self, other: &RecordDef) -> bool {
        std::ptr::eq(self, other)
            || (self.module == other.module
                && self.name == other.name
                && self.exported == other.exported
                && self.fields == other.fields)
    }
}

/// A read-only view of a native record.
#[derive(Copy, Clone, Debug)]
pub struct RecordView<'a> {
    /// The record's definition.
    pub def: &'static RecordDef,
    /// The field values, in the definition's field order.
    pub values: &'a [Term],
}

impl RecordView<'_> {
    /// The value of field `f`, if the record has it.
    pub fn get(&self, f: Atom) -> Option<Term> {
        self.def.field_index(f).map(|i| self.values[i])
    }
}

impl Term {
    /// A view of a native record, borrowed from this term (see [`Term`]'s
    /// validity rule).
    pub fn as_record(&self) -> Option<RecordView<'_>> {
        self.record_parts()
    }

    /// [`Term::as_record`] for this crate's own traversals.
    pub(crate) fn record_parts(self) -> Option<RecordView<'static>> {
        if !self.is_boxed_with(Subtag::Record) {
            return None;
        }
        let words = self.boxed_words();
        // SAFETY: a record's first word is a `&'static RecordDef` written by
        // `Heap::record` from an interned definition, which is never freed.
        let def = unsafe { &*(words[0] as *const RecordDef) };
        Some(RecordView {
            def,
            values: self.boxed_terms(1),
        })
    }

    /// True for a native record.
    #[inline]
    pub fn is_record(self) -> bool {
        self.is_boxed_with(Subtag::Record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Heap;

    fn atoms(names: &[&str]) -> Vec<Atom> {
        names.iter().map(|n| Atom::new(n).expect("atom")).collect()
    }

    #[test]
    fn interning_is_by_shape_and_canonicity() {
        let [m, n] = atoms(&["rec_test_m", "rec_test_n"])[..] else {
            unreachable!()
        };
        let fs = atoms(&["a", "b"]);
        let d1 = RecordDef::intern(m, n, true, &fs, false);
        assert!(std::ptr::eq(d1, RecordDef::intern(m, n, true, &fs, false)));
        assert!(!std::ptr::eq(
            d1,
            RecordDef::intern(m, n, false, &fs, false)
        ));
        let canon = RecordDef::intern(m, n, true, &fs, true);
        assert!(!std::ptr::eq(d1, canon) && d1.same_shape(canon));
        assert!(std::ptr::eq(RecordDef::resolve(m, n, true, &fs), d1));
        RecordDef::declare(m, n, Some(canon));
        assert!(std::ptr::eq(RecordDef::resolve(m, n, true, &fs), canon));
        assert!(std::ptr::eq(
            RecordDef::resolve(m, n, false, &fs),
            RecordDef::intern(m, n, false, &fs, false)
        ));
        RecordDef::declare(m, n, None);
        assert!(RecordDef::declared(m, n).is_none());
    }

    #[test]
    fn a_record_reads_back_its_definition_and_values() {
        let fs = atoms(&["x", "y"]);
        let def = RecordDef::intern(
            Atom::new("rec_view_m").unwrap(),
            Atom::new("p").unwrap(),
            false,
            &fs,
            true,
        );
        let mut heap = Heap::new();
        let r = heap.record(def, &[Term::small_unchecked(1), Term::small_unchecked(2)]);
        assert!(r.is_record() && !r.is_tuple());
        let v = r.as_record().expect("record");
        assert!(std::ptr::eq(v.def, def));
        assert_eq!(v.get(fs[1]).and_then(Term::as_small), Some(2));
        assert_eq!(v.get(Atom::new("z").unwrap()), None);
        assert_eq!(r.kind(), crate::term::Kind::Record);
    }
}
