//! Compressed terms: inflating `COMPRESSED` payloads within a size bound,
//! and deflating encoded terms as `term_to_binary(T, [compressed])` does.
//!
//! ```text
//! 131 | 80 | uncompressed size: u32 BE | zlib stream (RFC 1950) of the term, without its version byte
//! ```
//!
//! beamr-core builds flate2 on the system zlib (the library `erl` links), so
//! the deflated bytes are the ones OTP writes, byte for byte.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use super::error::EtfErrorKind;

/// Deflate cannot do better than about 1032:1 (a 258-byte match per 2 bits
/// at best), so no zlib stream of `n` bytes inflates to more than this.
fn max_inflated_from(compressed_len: usize) -> u64 {
    (compressed_len as u64)
        .saturating_mul(1032)
        .saturating_add(64)
}

/// Inflates the zlib stream at the start of `data`, which must inflate to
/// exactly `declared` bytes, at most `limit`. Returns the bytes and how many
/// bytes of `data` the stream took.
pub(crate) fn inflate(
    data: &[u8],
    declared: u32,
    limit: usize,
) -> Result<(Vec<u8>, usize), EtfErrorKind> {
    let declared = declared as u64;
    let bound = (limit as u64).min(max_inflated_from(data.len()));
    if declared > bound {
        return Err(EtfErrorKind::InflateLimit {
            declared,
            limit: bound,
        });
    }
    let declared = declared as usize;
    // One byte more than declared, to notice a stream that goes over.
    let cap = declared + 1;
    let mut out: Vec<u8> = Vec::with_capacity(cap.min(64 * 1024));
    let mut z = Decompress::new(true);
    loop {
        if out.len() == out.capacity() {
            if out.len() >= cap {
                return Err(EtfErrorKind::InflateSize {
                    declared: declared as u64,
                    actual: out.len() as u64,
                });
            }
            out.reserve_exact(out.len().max(64 * 1024).min(cap - out.len()));
        }
        let consumed = z.total_in() as usize;
        let produced = out.len();
        let status = z
            .decompress_vec(&data[consumed..], &mut out, FlushDecompress::None)
            .map_err(|e| EtfErrorKind::BadZlib(e.to_string()))?;
        if out.len() > declared {
            return Err(EtfErrorKind::InflateSize {
                declared: declared as u64,
                actual: out.len() as u64,
            });
        }
        match status {
            Status::StreamEnd => break,
            Status::Ok | Status::BufError => {
                let stalled = z.total_in() as usize == consumed && out.len() == produced;
                if stalled && out.len() < out.capacity() {
                    return Err(EtfErrorKind::BadZlib("truncated stream".into()));
                }
            }
        }
    }
    if out.len() != declared {
        return Err(EtfErrorKind::InflateSize {
            declared: declared as u64,
            actual: out.len() as u64,
        });
    }
    Ok((out, z.total_in() as usize))
}

/// The zlib stream of `data` at `level` (0 to 9), or `None` when it would
/// be longer than `max_len` bytes.
pub(crate) fn deflate(data: &[u8], level: u32, max_len: usize) -> Option<Vec<u8>> {
    let mut z = Compress::new(Compression::new(level.min(9)), true);
    let mut out = Vec::with_capacity(max_len);
    match z.compress_vec(data, &mut out, FlushCompress::Finish) {
        Ok(Status::StreamEnd) if out.len() <= max_len => Some(out),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflate_round_trips_and_reports_consumed_bytes() {
        let data = vec![7u8; 10_000];
        let mut z = deflate(&data, 6, 10_000).unwrap();
        let zlen = z.len();
        z.extend_from_slice(b"trailing");
        let (back, used) = inflate(&z, 10_000, 1 << 20).unwrap();
        assert_eq!(back, data);
        assert_eq!(used, zlen);
    }

    #[test]
    fn inflate_refuses_wrong_and_excessive_sizes() {
        let data = vec![1u8; 1000];
        let z = deflate(&data, 6, 1000).unwrap();
        assert!(matches!(
            inflate(&z, 999, 1 << 20),
            Err(EtfErrorKind::InflateSize { declared: 999, .. })
        ));
        assert!(matches!(
            inflate(&z, 1001, 1 << 20),
            Err(EtfErrorKind::InflateSize {
                declared: 1001,
                actual: 1000
            })
        ));
        assert!(matches!(
            inflate(&z, 1000, 500),
            Err(EtfErrorKind::InflateLimit {
                declared: 1000,
                limit: 500
            })
        ));
        // 8 bytes of zlib cannot hold 4 GiB.
        assert!(matches!(
            inflate(&z[..8], u32::MAX, usize::MAX),
            Err(EtfErrorKind::InflateLimit { .. })
        ));
        assert!(matches!(
            inflate(&z[..z.len() / 2], 1000, 1 << 20),
            Err(EtfErrorKind::BadZlib(_))
        ));
        assert!(matches!(
            inflate(b"not zlib at all", 10, 1 << 20),
            Err(EtfErrorKind::BadZlib(_))
        ));
    }

    #[test]
    fn deflate_gives_up_when_the_output_would_not_be_smaller() {
        let noise: Vec<u8> = (0..200u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        assert_eq!(deflate(&noise, 6, noise.len() - 5), None);
    }
}
