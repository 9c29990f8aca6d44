//! The `bif_convert` fixture against `erl`: every case (results and caught
//! error reasons) must print the same with `~w`.

mod support;

#[test]
fn cases_match_erl() {
    support::assert_cases_match("bif_convert", "cases");
}
