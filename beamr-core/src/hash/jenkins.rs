//! Bob Jenkins' 96-bit mix and lookup2 block hash, with the constants OTP's
//! hash functions (`make_hash2`, `make_internal_hash`) build on.
//!
//! `HCONST` is the golden ratio; OTP's type constants `HCONST_n` are
//! `HCONST * n mod 2^32`.

/// The golden ratio, Jenkins' arbitrary start value.
pub const HCONST: u32 = 0x9e37_79b9;
/// `HCONST * 2`, wrapping.
pub const HCONST_2: u32 = HCONST.wrapping_mul(2);
/// `HCONST * 3`, wrapping.
pub const HCONST_3: u32 = HCONST.wrapping_mul(3);
/// `HCONST * 4`, wrapping.
pub const HCONST_4: u32 = HCONST.wrapping_mul(4);
/// `HCONST * 5`, wrapping.
pub const HCONST_5: u32 = HCONST.wrapping_mul(5);
/// `HCONST * 6`, wrapping.
pub const HCONST_6: u32 = HCONST.wrapping_mul(6);
/// `HCONST * 7`, wrapping.
pub const HCONST_7: u32 = HCONST.wrapping_mul(7);
/// `HCONST * 8`, wrapping.
pub const HCONST_8: u32 = HCONST.wrapping_mul(8);
/// `HCONST * 9`, wrapping.
pub const HCONST_9: u32 = HCONST.wrapping_mul(9);
/// `HCONST * 10`, wrapping.
pub const HCONST_10: u32 = HCONST.wrapping_mul(10);
/// `HCONST * 11`, wrapping.
pub const HCONST_11: u32 = HCONST.wrapping_mul(11);
/// `HCONST * 12`, wrapping.
pub const HCONST_12: u32 = HCONST.wrapping_mul(12);
/// `HCONST * 13`, wrapping.
pub const HCONST_13: u32 = HCONST.wrapping_mul(13);
/// `HCONST * 14`, wrapping.
pub const HCONST_14: u32 = HCONST.wrapping_mul(14);
/// `HCONST * 15`, wrapping.
pub const HCONST_15: u32 = HCONST.wrapping_mul(15);
/// `HCONST * 16`, wrapping.
pub const HCONST_16: u32 = HCONST.wrapping_mul(16);
/// `HCONST * 17`, wrapping.
pub const HCONST_17: u32 = HCONST.wrapping_mul(17);
/// `HCONST * 18`, wrapping.
pub const HCONST_18: u32 = HCONST.wrapping_mul(18);
/// `HCONST * 19`, wrapping.
pub const HCONST_19: u32 = HCONST.wrapping_mul(19);
/// `HCONST * 20`, wrapping.
pub const HCONST_20: u32 = HCONST.wrapping_mul(20);
/// `HCONST * 21`, wrapping.
pub const HCONST_21: u32 = HCONST.wrapping_mul(21);
/// `HCONST * 22`, wrapping.
pub const HCONST_22: u32 = HCONST.wrapping_mul(22);
/// `HCONST * 23`: native records (OTP 29).
pub const HCONST_23: u32 = HCONST.wrapping_mul(23);

/// Jenkins' 96-bit mix (OTP's `MIX` macro), all three words.
#[inline(always)]
pub fn mix3(mut a: u32, mut b: u32, mut c: u32) -> (u32, u32, u32) {
    a = a.wrapping_sub(b).wrapping_sub(c) ^ (c >> 13);
    b = b.wrapping_sub(c).wrapping_sub(a) ^ (a << 8);
    c = c.wrapping_sub(a).wrapping_sub(b) ^ (b >> 13);
    a = a.wrapping_sub(b).wrapping_sub(c) ^ (c >> 12);
    b = b.wrapping_sub(c).wrapping_sub(a) ^ (a << 16);
    c = c.wrapping_sub(a).wrapping_sub(b) ^ (b >> 5);
    a = a.wrapping_sub(b).wrapping_sub(c) ^ (c >> 3);
    b = b.wrapping_sub(c).wrapping_sub(a) ^ (a << 10);
    c = c.wrapping_sub(a).wrapping_sub(b) ^ (b >> 15);
    (a, b, c)
}

/// OTP's `MIX2`: the running `hash` after mixing `x` and `y` with the type
/// constant `k` (`a = k + x`, `b = k + y`, `mix(a, b, hash)`).
#[inline(always)]
pub fn mix2(hash: u32, x: u32, y: u32, k: u32) -> u32 {
    mix3(k.wrapping_add(x), k.wrapping_add(y), hash).2
}

/// Jenkins' lookup2 hash of `bytes` with `initval`, as OTP's `block_hash`.
pub fn block_hash(bytes: &[u8], initval: u32) -> u32 {
    let le = |k: &[u8]| u32::from_le_bytes([k[0], k[1], k[2], k[3]]);
    let (mut a, mut b, mut c) = (HCONST, HCONST, initval);
    let mut k = bytes;
    while k.len() >= 12 {
        (a, b, c) = mix3(
            a.wrapping_add(le(&k[0..4])),
            b.wrapping_add(le(&k[4..8])),
            c.wrapping_add(le(&k[8..12])),
        );
        k = &k[12..];
    }
    c = c.wrapping_add(bytes.len() as u32);
    // The tail: bytes 0..4 into a, 4..8 into b, 8..11 into c's upper three
    // bytes (its lowest byte holds the length).
    for (i, &byte) in k.iter().enumerate() {
        let v = byte as u32;
        match i {
            0..=3 => a = a.wrapping_add(v << (8 * i)),
            4..=7 => b = b.wrapping_add(v << (8 * (i - 4))),
            _ => c = c.wrapping_add(v << (8 * (i - 7))),
        }
    }
    mix3(a, b, c).2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_constants_are_multiples_of_the_golden_ratio() {
        // The values OTP's erl_utils.h spells out.
        assert_eq!(HCONST_2, 0x3c6e_f372);
        assert_eq!(HCONST_9, 0x8ff3_4781);
        assert_eq!(HCONST_22, 0x98c4_75e6);
    }
}
