//! The `bif_misc` fixture against `erl`: every case (results and caught
//! error reasons) must print the same with `~w`.

mod bif_support;

#[test]
fn cases_match_erl() {
    bif_support::assert_cases_match("bif_misc", "cases");
}
