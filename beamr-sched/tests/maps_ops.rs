//! Map instructions and map BIFs against `erl`: every case of the
//! `maps_ops` fixture (literals, updates, matches, the BIFs of `maps`,
//! iterators and their errors) must print the same.

mod support;

#[test]
fn map_cases_match_erl() {
    support::assert_cases_match("maps_ops", "cases");
}
