//! Bignum results built in place on the heap, without a `BigInt` between:
//! a bignum times a small integer (`N * fact(N - 1)`), which would
//! otherwise copy the bignum into a `BigInt`, multiply into another and
//! copy that back, three allocations for one pass over the digits.
//!
//! Digits are the heap's: 64-bit, least significant first, the magnitude
//! with the sign in the header's subtag ([`BigView`]).

use super::process_heap::Heap;
use crate::term::{BigView, Header, Subtag, Term};

impl Heap {
    /// `big * factor` as a bignum, written straight onto the heap, when
    /// the product cannot be a small integer: `|factor| >= 2`, so that
    /// the magnitude is at least twice a bignum's. `None` otherwise (the
    /// caller takes the general path).
    pub fn big_times_small(&mut self, big: BigView<'_>, factor: i64) -> Option<Term> {
        let m = factor.unsigned_abs();
        let digits = big.digits;
        if m < 2 || digits.is_empty() {
            return None;
        }
        let len = digits.len() + usize::from(carry_out(digits, m) != 0);
        let negative = big.negative != (factor < 0);
        let subtag = if negative {
            Subtag::NegBig
        } else {
            Subtag::PosBig
        };
        let p = self.alloc(1 + len);
        // SAFETY: `alloc` returned 1 + len writable words: the header, then
        // the digits. `digits` lives in another object (a heap never moves
        // its objects while allocating), so the two do not overlap.
        unsafe {
            p.write(Header::new(subtag, len).0);
            let body = p.add(1);
            let mut carry = 0u64;
            for (i, &d) in digits.iter().enumerate() {
                let wide = u128::from(d) * u128::from(m) + u128::from(carry);
                body.add(i).write(wide as u64);
                carry = (wide >> 64) as u64;
            }
            if len > digits.len() {
                body.add(digits.len()).write(carry);
            }
        }
        Some(super::process_heap::boxed(p))
    }
}

/// The digit that `digits * m` carries out of the top of `digits`: from
/// the top digit alone unless the carry into it could tip it over, which
/// takes the whole chain.
fn carry_out(digits: &[u64], m: u64) -> u64 {
    let top = u128::from(digits[digits.len() - 1]) * u128::from(m);
    // The carry into the top digit is below m.
    let least = (top >> 64) as u64;
    let most = ((top + u128::from(m - 1)) >> 64) as u64;
    if least == most {
        return least;
    }
    digits.iter().fold(0u64, |carry, &d| {
        ((u128::from(d) * u128::from(m) + u128::from(carry)) >> 64) as u64
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn big(h: &mut Heap, v: &BigInt) -> Term {
        let t = h.bigint(v);
        assert!(t.as_big().is_some(), "{v} is a bignum");
        t
    }

    #[test]
    fn matches_bigint_products() {
        let mut h = Heap::new();
        let two64 = BigInt::from(1u8) << 64;
        let values = [
            BigInt::from(1i64 << 59),
            -(BigInt::from(1i64 << 59) + 1u8),
            BigInt::from(u64::MAX),
            &two64 - 1u8,
            (&two64 * &two64) - 1u8,
            // The top digit's product one short of carrying: the carry
            // from below decides (the slow branch of `carry_out`).
            (BigInt::from(u64::MAX / 3) << 64) + BigInt::from(u64::MAX),
            BigInt::parse_bytes(b"123456789012345678901234567890123456789", 10).unwrap(),
        ];
        let factors = [2, -2, 3, 1000, -(1i64 << 59), (1i64 << 59) - 1];
        for v in &values {
            for &f in &factors {
                let t = big(&mut h, v);
                let r = h.big_times_small(t.as_big().unwrap(), f).unwrap();
                let want = v * f;
                assert_eq!(r.as_integer().unwrap().to_bigint(), want, "{v} * {f}");
                let view = r.as_big().unwrap();
                assert_ne!(view.digits.last(), Some(&0), "{v} * {f}: normalised");
            }
        }
    }

    #[test]
    fn leaves_unit_factors_to_the_general_path() {
        let mut h = Heap::new();
        let t = big(&mut h, &BigInt::from(1i64 << 59));
        for f in [-1, 0, 1] {
            assert!(h.big_times_small(t.as_big().unwrap(), f).is_none());
        }
    }
}
