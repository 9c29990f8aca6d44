//! MD5 (RFC 1321), for a module's `module_info(md5)`: the digest of the
//! chunks that define its code, as `beam_lib:md5/1` and the BEAM's loader
//! compute it.

/// The MD5 digest of `data`.
pub(crate) fn md5(data: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: [u32; 64] =
        std::array::from_fn(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32);
    let mut state: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_le_bytes());
    for block in msg.chunks_exact(64) {
        let m: [u32; 16] = std::array::from_fn(|i| {
            u32::from_le_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ])
        });
        let [mut a, mut b, mut c, mut d] = state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let rotated = a
                .wrapping_add(f)
                .wrapping_add(k[i])
                .wrapping_add(m[g])
                .rotate_left(S[i]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        state[0] = state[0].wrapping_add(a);
        state[1] = state[1].wrapping_add(b);
        state[2] = state[2].wrapping_add(c);
        state[3] = state[3].wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, w) in state.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// The chunks of a `.beam` file (IFF: `FOR1`, size, `BEAM`, then chunks
/// of a 4-byte id, a 4-byte big-endian size and the data padded to 4).
pub(crate) fn chunks(bytes: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let mut out = Vec::new();
    if bytes.len() < 12 || &bytes[0..4] != b"FOR1" || &bytes[8..12] != b"BEAM" {
        return out;
    }
    let mut pos = 12;
    while pos + 8 <= bytes.len() {
        let id = [bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]];
        let size = u32::from_be_bytes([
            bytes[pos + 4],
            bytes[pos + 5],
            bytes[pos + 6],
            bytes[pos + 7],
        ]) as usize;
        let start = pos + 8;
        let Some(data) = bytes.get(start..start + size) else {
            break;
        };
        out.push((id, data));
        pos = start + size.div_ceil(4) * 4;
    }
    out
}

/// The module's MD5: over the atom, code, string, import, export, fun
/// (each entry's `old_uniq`, itself derived from this digest, zeroed),
/// literal and meta chunks, in that order.
pub(crate) fn module_md5(bytes: &[u8]) -> [u8; 16] {
    let chunks = chunks(bytes);
    let mut data = Vec::new();
    for id in [
        b"AtU8", b"Atom", b"Code", b"StrT", b"ImpT", b"ExpT", b"FunT", b"LitT", b"Meta",
    ] {
        let Some((_, c)) = chunks.iter().find(|(i, _)| i == id) else {
            continue;
        };
        if id == b"FunT" && c.len() >= 4 {
            // A count, then entries of six 32-bit words.
            data.extend_from_slice(&c[..4]);
            for entry in c[4..].chunks(24) {
                data.extend_from_slice(&entry[..entry.len().min(20)]);
                data.extend(std::iter::repeat_n(0, entry.len().saturating_sub(20)));
            }
        } else {
            data.extend_from_slice(c);
        }
    }
    md5(&data)
}

#[cfg(test)]
mod tests {
    use super::md5;

    #[test]
    fn rfc_1321_vectors() {
        let hex = |d: [u8; 16]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(md5(b"")), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(hex(md5(b"abc")), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            hex(md5(
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890"
            )),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }
}
