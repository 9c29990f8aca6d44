//! The control server's request decoder on arbitrary bytes: a frame read
//! from them, then its payload decoded. Neither may panic, hang or
//! allocate past the frame; a request that decodes, encoded again, decodes
//! to itself.
#![no_main]

use beamr_ctl::protocol::{decode_request, encode_request, read_frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(payload) = read_frame(&mut &data[..]) {
        if let Ok(request) = decode_request(&payload) {
            assert_eq!(decode_request(&encode_request(&request)), Ok(request));
        }
    }
    if let Ok(request) = decode_request(data) {
        assert_eq!(decode_request(&encode_request(&request)), Ok(request));
    }
});
