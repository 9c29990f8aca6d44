//! Terms: the 64-bit tagged [`Term`] word and read-only views of the objects
//! it points to.
//!
//! The layout of the word is drawn in [`tag`]; boxed objects and their
//! subtags in [`header`]. Objects are built by [`crate::heap`]; this module
//! only reads them.

mod binary;
mod fun;
pub mod header;
mod ident;
mod iodata;
mod list;
mod map;
mod match_ctx;
mod number;
mod record;
pub mod tag;
mod tuple;
mod word;

pub use binary::{off_heap_bytes, try_zeroed_bytes, BinaryView, OffHeapBinary, HEAP_BIN_LIMIT};
pub use fun::{ClosureView, Export, FunEntry};
pub use header::{Header, Subtag};
pub(crate) use ident::pack_u32s;
pub use ident::{ExternalPidView, ExternalPortView, RefView};
pub use iodata::{iodata_bytes, iodata_into, walk_iodata, IoPiece, NotIodata};
pub use list::ListIter;
pub use map::{FlatMapView, HashNodeView, FLAT_MAP_LIMIT};
pub use match_ctx::MatchCtxView;
pub use number::{BigView, Integer};
pub use record::{RecordDef, RecordView};
pub use word::{Kind, Term};
