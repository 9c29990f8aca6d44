//! A module's `module_info(md5)`: the MD5 digest of the
//! chunks that define its code, as `beam_lib:md5/1` and the BEAM's loader
//! compute it.

/// The MD5 digest of `data`.
pub(crate) fn md5(data: &[u8]) -> [u8; 16] {
    crate::bif::erlang::checksum::md5(data)
}

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
