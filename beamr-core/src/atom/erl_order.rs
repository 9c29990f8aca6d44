//! erl's boot atom order, which OTP 26 and later show in a flat map's key
//! order.
//!
//! From OTP 26 on, erl keeps two atom keys of a small map in atom-index
//! order (`erts_cmp_flatmap_keys`), and `maps:keys/1`, `maps:to_list/1`,
//! `~p` and `term_to_binary/1` show that order. erl's atom indices follow
//! creation: first the emulator's built-in atoms (`false`, `true`, then a
//! fixed list), then the atoms of the preloaded modules and of the modules
//! `init` loads, then whatever the program creates. The first part is the
//! same on every run of one release; after it, erl's boot loads modules
//! from several processes at once, and the order of those atoms differs
//! from run to run (eight runs of `erl -noshell -s M main` on OTP 27 agree
//! on their first 3,164 atoms and then part).
//!
//! beamr ranks atoms the same way where erl is deterministic: the atoms of
//! that common prefix, recorded per release in `data/erl_atom_order/`
//! (`cargo xtask erl-atom-order` records them from erl), rank by erl's
//! index; every other atom ranks after them in beamr's creation order,
//! which for a program's own atoms is erl's too (both create a module's
//! atoms in its atom chunk's order when it loads).

use std::collections::HashMap;
use std::sync::RwLock;

/// The ranks of atoms outside the recorded order start here, above any
/// recorded position, and add the atom's index in beamr's table.
const UNLISTED_BASE: u32 = 1 << 21;

/// erl 27's boot atoms in index order (the runs' common prefix).
const OTP27: &str = include_str!("../../data/erl_atom_order/otp27.txt");

/// erl 29's boot atoms in index order (the runs' common prefix).
const OTP29: &str = include_str!("../../data/erl_atom_order/otp29.txt");

/// The installed order: name to erl's index.
static ORDER: RwLock<Option<&'static HashMap<&'static str, u32>>> = RwLock::new(None);

/// The recorded order that stands for `release`: OTP 27's for 26 and 27,
/// OTP 29's for 28 and later, none before 26 (whose flat maps keep term
/// order).
fn recorded(release: u32) -> Option<&'static str> {
    match release {
        0..=25 => None,
        26 | 27 => Some(OTP27),
        _ => Some(OTP29),
    }
}

/// Installs the recorded order for `release` (none before OTP 26).
pub(super) fn install(release: u32) {
    let order = recorded(release).map(|text| {
        let map: HashMap<&'static str, u32> = text
            .lines()
            .enumerate()
            .map(|(i, name)| (name, i as u32))
            .collect();
        &*Box::leak(Box::new(map))
    });
    *ORDER.write().unwrap_or_else(|e| e.into_inner()) = order;
}

/// The rank of the atom `name`, the `index`th in beamr's table.
pub(super) fn rank_of(name: &str, index: usize) -> u32 {
    let order = ORDER.read().unwrap_or_else(|e| e.into_inner());
    order
        .and_then(|order| order.get(name).copied())
        .unwrap_or(UNLISTED_BASE + index as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_orders_begin_with_false_and_true_and_hold_each_name_once() {
        for text in [OTP27, OTP29] {
            let names: Vec<&str> = text.lines().collect();
            assert_eq!(&names[..2], ["false", "true"]);
            let distinct: std::collections::HashSet<&&str> = names.iter().collect();
            assert_eq!(distinct.len(), names.len());
            assert!(names.len() < UNLISTED_BASE as usize);
        }
    }
}
