//! Floats and bignums.

use num_bigint::{BigInt, BigUint, Sign};

use super::header::Subtag;
use super::word::Term;

/// A read-only view of a bignum on a heap.
#[derive(Copy, Clone, Debug)]
pub struct BigView<'a> {
    /// True for a negative number.
    pub negative: bool,
    /// The magnitude's 64-bit digits, least significant first.
    pub digits: &'a [u64],
}

impl BigView<'_> {
    /// The value as a `num_bigint::BigInt`.
    pub fn to_bigint(self) -> BigInt {
        // num-bigint takes 32-bit digits (packed back into its own 64-bit
        // ones); from bytes, it went a byte at a time.
        let mut halves = Vec::with_capacity(self.digits.len() * 2);
        for &d in self.digits {
            halves.push(d as u32);
            halves.push((d >> 32) as u32);
        }
        let sign = if self.negative {
            Sign::Minus
        } else {
            Sign::Plus
        };
        BigInt::from_biguint(sign, BigUint::new(halves))
    }
}

/// An integer term of either representation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Integer {
    /// Fits in a small.
    Small(i64),
    /// Anything larger.
    Big(BigInt),
}

impl Integer {
    /// The value as a `BigInt`.
    pub fn to_bigint(&self) -> BigInt {
        match self {
            Integer::Small(v) => BigInt::from(*v),
            Integer::Big(b) => b.clone(),
        }
    }
}

impl Term {
    /// The value of a float.
    #[inline]
    pub fn as_float(self) -> Option<f64> {
        if self.is_boxed_with(Subtag::Float) {
            Some(f64::from_bits(self.boxed_words()[0]))
        } else {
            None
        }
    }

    /// True for a float.
    #[inline]
    pub fn is_float(self) -> bool {
        self.is_boxed_with(Subtag::Float)
    }

    /// A view of a bignum, borrowed from this term (see [`Term`]'s
    /// validity rule).
    #[inline]
    pub fn as_big(&self) -> Option<BigView<'_>> {
        self.big_parts()
    }

    /// [`Term::as_big`] for this crate's own traversals.
    #[inline]
    pub(crate) fn big_parts(self) -> Option<BigView<'static>> {
        match self.subtag()? {
            Subtag::PosBig => Some(BigView {
                negative: false,
                digits: self.boxed_words(),
            }),
            Subtag::NegBig => Some(BigView {
                negative: true,
                digits: self.boxed_words(),
            }),
            _ => None,
        }
    }

    /// True for an integer of either representation.
    #[inline]
    pub fn is_integer(self) -> bool {
        self.is_small() || matches!(self.subtag(), Some(Subtag::PosBig | Subtag::NegBig))
    }

    /// True for an integer or a float.
    #[inline]
    pub fn is_number(self) -> bool {
        self.is_integer() || self.is_float()
    }

    /// The value of an integer of either representation.
    pub fn as_integer(self) -> Option<Integer> {
        if let Some(v) = self.as_small() {
            return Some(Integer::Small(v));
        }
        self.big_parts().map(|b| Integer::Big(b.to_bigint()))
    }
}
