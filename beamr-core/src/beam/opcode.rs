//! The generic instruction set: every opcode of OTP's `genop.tab` from 1
//! (`label`) to 191 (`get_record_field`, OTP 29), generated from one table.
//!
//! Each row of the table gives the opcode number, the enum variant, the name
//! OTP uses, the arity, whether `genop.tab` marks it obsolete (compilers no
//! longer emit it and the BEAM refuses to load it), and its operands. The
//! [`Opcode`] enum, [`Opcode::name`], [`Opcode::arity`], [`Opcode::is_obsolete`],
//! [`Opcode::operands`] and [`Opcode::from_u8`] are all generated from it.
//! [`RELEASES`] says which release introduced each opcode
//! ([`Opcode::since`]), as `genop.tab`'s section comments do.

macro_rules! opcodes {
    ($($num:literal $variant:ident, $name:literal, $arity:literal, $obsolete:literal, $operands:literal;)*) => {
        /// A generic BEAM instruction opcode, numbered as in `genop.tab`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode {
            $(
                #[doc = concat!("`", $name, "/", stringify!($arity), "`: operands `", $operands, "`.")]
                $variant = $num,
            )*
        }

        impl Opcode {
            /// The opcode with number `n`, if `genop.tab` defines one.
            pub fn from_u8(n: u8) -> Option<Opcode> {
                match n {
                    $($num => Some(Opcode::$variant),)*
                    _ => None,
                }
            }

            /// The name OTP uses (`"label"`, `"call_ext"`, ...).
            pub fn name(self) -> &'static str {
                match self {
                    $(Opcode::$variant => $name,)*
                }
            }

            /// The number of operands.
            pub fn arity(self) -> usize {
                match self {
                    $(Opcode::$variant => $arity,)*
                }
            }

            /// True when `genop.tab` marks the opcode obsolete.
            pub fn is_obsolete(self) -> bool {
                match self {
                    $(Opcode::$variant => $obsolete,)*
                }
            }

            /// The operands' names, space-separated (`"Fail Arg1 Arg2"`).
            pub fn operands(self) -> &'static str {
                match self {
                    $(Opcode::$variant => $operands,)*
                }
            }
        }
    };
}

opcodes! {
      1 Label, "label", 1, false, "Lbl";
      2 FuncInfo, "func_info", 3, false, "Module Function Arity";
      3 IntCodeEnd, "int_code_end", 0, false, "";
      4 Call, "call", 2, false, "Arity Label";
      5 CallLast, "call_last", 3, false, "Arity Label Deallocate";
      6 CallOnly, "call_only", 2, false, "Arity Label";
      7 CallExt, "call_ext", 2, false, "Arity Import";
      8 CallExtLast, "call_ext_last", 3, false, "Arity Import Deallocate";
      9 Bif0, "bif0", 2, false, "Import Dst";
     10 Bif1, "bif1", 4, false, "Fail Import Arg Dst";
     11 Bif2, "bif2", 5, false, "Fail Import Arg1 Arg2 Dst";
     12 Allocate, "allocate", 2, false, "StackNeed Live";
     13 AllocateHeap, "allocate_heap", 3, false, "StackNeed HeapNeed Live";
     14 AllocateZero, "allocate_zero", 2, false, "StackNeed Live";
     15 AllocateHeapZero, "allocate_heap_zero", 3, false, "StackNeed HeapNeed Live";
     16 TestHeap, "test_heap", 2, false, "HeapNeed Live";
     17 Init, "init", 1, false, "Y";
     18 Deallocate, "deallocate", 1, false, "N";
     19 Return, "return", 0, false, "";
     20 Send, "send", 0, false, "";
     21 RemoveMessage, "remove_message", 0, false, "";
     22 Timeout, "timeout", 0, false, "";
     23 LoopRec, "loop_rec", 2, false, "Fail Dst";
     24 LoopRecEnd, "loop_rec_end", 1, false, "Label";
     25 Wait, "wait", 1, false, "Label";
     26 WaitTimeout, "wait_timeout", 2, false, "Label Time";
     27 MPlus, "m_plus", 4, true, "Arg1 Arg2 Arg3 Arg4";
     28 MMinus, "m_minus", 4, true, "Arg1 Arg2 Arg3 Arg4";
     29 MTimes, "m_times", 4, true, "Arg1 Arg2 Arg3 Arg4";
     30 MDiv, "m_div", 4, true, "Arg1 Arg2 Arg3 Arg4";
     31 IntDiv, "int_div", 4, true, "Arg1 Arg2 Arg3 Arg4";
     32 IntRem, "int_rem", 4, true, "Arg1 Arg2 Arg3 Arg4";
     33 IntBand, "int_band", 4, true, "Arg1 Arg2 Arg3 Arg4";
     34 IntBor, "int_bor", 4, true, "Arg1 Arg2 Arg3 Arg4";
     35 IntBxor, "int_bxor", 4, true, "Arg1 Arg2 Arg3 Arg4";
     36 IntBsl, "int_bsl", 4, true, "Arg1 Arg2 Arg3 Arg4";
     37 IntBsr, "int_bsr", 4, true, "Arg1 Arg2 Arg3 Arg4";
     38 IntBnot, "int_bnot", 3, true, "Arg1 Arg2 Arg3";
     39 IsLt, "is_lt", 3, false, "Fail Arg1 Arg2";
     40 IsGe, "is_ge", 3, false, "Fail Arg1 Arg2";
     41 IsEq, "is_eq", 3, false, "Fail Arg1 Arg2";
     42 IsNe, "is_ne", 3, false, "Fail Arg1 Arg2";
     43 IsEqExact, "is_eq_exact", 3, false, "Fail Arg1 Arg2";
     44 IsNeExact, "is_ne_exact", 3, false, "Fail Arg1 Arg2";
     45 IsInteger, "is_integer", 2, false, "Fail Arg";
     46 IsFloat, "is_float", 2, false, "Fail Arg";
     47 IsNumber, "is_number", 2, false, "Fail Arg";
     48 IsAtom, "is_atom", 2, false, "Fail Arg";
     49 IsPid, "is_pid", 2, false, "Fail Arg";
     50 IsReference, "is_reference", 2, false, "Fail Arg";
     51 IsPort, "is_port", 2, false, "Fail Arg";
     52 IsNil, "is_nil", 2, false, "Fail Arg";
     53 IsBinary, "is_binary", 2, false, "Fail Arg";
     54 IsConstant, "is_constant", 2, true, "Fail Arg";
     55 IsList, "is_list", 2, false, "Fail Arg";
     56 IsNonemptyList, "is_nonempty_list", 2, false, "Fail Arg";
     57 IsTuple, "is_tuple", 2, false, "Fail Arg";
     58 TestArity, "test_arity", 3, false, "Fail Tuple Arity";
     59 SelectVal, "select_val", 3, false, "Arg Fail Destinations";
     60 SelectTupleArity, "select_tuple_arity", 3, false, "Tuple Fail Destinations";
     61 Jump, "jump", 1, false, "Label";
     62 Catch, "catch", 2, false, "Y Label";
     63 CatchEnd, "catch_end", 1, false, "Y";
     64 Move, "move", 2, false, "Src Dst";
     65 GetList, "get_list", 3, false, "Src Head Tail";
     66 GetTupleElement, "get_tuple_element", 3, false, "Src Index Dst";
     67 SetTupleElement, "set_tuple_element", 3, false, "Value Tuple Index";
     68 PutString, "put_string", 3, true, "Arg1 Arg2 Arg3";
     69 PutList, "put_list", 3, false, "Head Tail Dst";
     70 PutTuple, "put_tuple", 2, false, "Arity Dst";
     71 Put, "put", 1, false, "Value";
     72 Badmatch, "badmatch", 1, false, "Value";
     73 IfEnd, "if_end", 0, false, "";
     74 CaseEnd, "case_end", 1, false, "Value";
     75 CallFun, "call_fun", 1, false, "Arity";
     76 MakeFun, "make_fun", 3, true, "Arg1 Arg2 Arg3";
     77 IsFunction, "is_function", 2, false, "Fail Arg";
     78 CallExtOnly, "call_ext_only", 2, false, "Arity Import";
     79 BsStartMatch, "bs_start_match", 2, true, "Arg1 Arg2";
     80 BsGetInteger, "bs_get_integer", 5, true, "Arg1 Arg2 Arg3 Arg4 Arg5";
     81 BsGetFloat, "bs_get_float", 5, true, "Arg1 Arg2 Arg3 Arg4 Arg5";
     82 BsGetBinary, "bs_get_binary", 5, true, "Arg1 Arg2 Arg3 Arg4 Arg5";
     83 BsSkipBits, "bs_skip_bits", 4, true, "Arg1 Arg2 Arg3 Arg4";
     84 BsTestTail, "bs_test_tail", 2, true, "Arg1 Arg2";
     85 BsSave, "bs_save", 1, true, "Arg1";
     86 BsRestore, "bs_restore", 1, true, "Arg1";
     87 BsInit, "bs_init", 2, true, "Arg1 Arg2";
     88 BsFinal, "bs_final", 2, true, "Arg1 Arg2";
     89 BsPutInteger, "bs_put_integer", 5, false, "Fail Size Unit Flags Src";
     90 BsPutBinary, "bs_put_binary", 5, false, "Fail Size Unit Flags Src";
     91 BsPutFloat, "bs_put_float", 5, false, "Fail Size Unit Flags Src";
     92 BsPutString, "bs_put_string", 2, false, "Length StringOffset";
     93 BsNeedBuf, "bs_need_buf", 1, true, "Arg1";
     94 Fclearerror, "fclearerror", 0, false, "";
     95 Fcheckerror, "fcheckerror", 1, false, "Fail";
     96 Fmove, "fmove", 2, false, "Src Dst";
     97 Fconv, "fconv", 2, false, "Src FloatReg";
     98 Fadd, "fadd", 4, false, "Fail A B Dst";
     99 Fsub, "fsub", 4, false, "Fail A B Dst";
    100 Fmul, "fmul", 4, false, "Fail A B Dst";
    101 Fdiv, "fdiv", 4, false, "Fail A B Dst";
    102 Fnegate, "fnegate", 3, false, "Fail A Dst";
    103 MakeFun2, "make_fun2", 1, false, "LambdaIndex";
    104 Try, "try", 2, false, "Y Label";
    105 TryEnd, "try_end", 1, false, "Y";
    106 TryCase, "try_case", 1, false, "Y";
    107 TryCaseEnd, "try_case_end", 1, false, "Value";
    108 Raise, "raise", 2, false, "Stacktrace Value";
    109 BsInit2, "bs_init2", 6, false, "Fail Size Words Live Flags Dst";
    110 BsBitsToBytes, "bs_bits_to_bytes", 3, true, "Arg1 Arg2 Arg3";
    111 BsAdd, "bs_add", 5, false, "Fail Src1 Src2 Unit Dst";
    112 Apply, "apply", 1, false, "Arity";
    113 ApplyLast, "apply_last", 2, false, "Arity Deallocate";
    114 IsBoolean, "is_boolean", 2, false, "Fail Arg";
    115 IsFunction2, "is_function2", 3, false, "Fail Arg Arity";
    116 BsStartMatch2, "bs_start_match2", 5, false, "Fail Bin Live Slots Dst";
    117 BsGetInteger2, "bs_get_integer2", 7, false, "Fail Ctx Live Size Unit Flags Dst";
    118 BsGetFloat2, "bs_get_float2", 7, false, "Fail Ctx Live Size Unit Flags Dst";
    119 BsGetBinary2, "bs_get_binary2", 7, false, "Fail Ctx Live Size Unit Flags Dst";
    120 BsSkipBits2, "bs_skip_bits2", 5, false, "Fail Ctx Size Unit Flags";
    121 BsTestTail2, "bs_test_tail2", 3, false, "Fail Ctx Bits";
    122 BsSave2, "bs_save2", 2, false, "Ctx Slot";
    123 BsRestore2, "bs_restore2", 2, false, "Ctx Slot";
    124 GcBif1, "gc_bif1", 5, false, "Fail Live Import Arg Dst";
    125 GcBif2, "gc_bif2", 6, false, "Fail Live Import Arg1 Arg2 Dst";
    126 BsFinal2, "bs_final2", 2, true, "Arg1 Arg2";
    127 BsBitsToBytes2, "bs_bits_to_bytes2", 2, true, "Arg1 Arg2";
    128 PutLiteral, "put_literal", 2, true, "Arg1 Arg2";
    129 IsBitstr, "is_bitstr", 2, false, "Fail Arg";
    130 BsContextToBinary, "bs_context_to_binary", 1, false, "Ctx";
    131 BsTestUnit, "bs_test_unit", 3, false, "Fail Ctx Unit";
    132 BsMatchString, "bs_match_string", 4, false, "Fail Ctx Bits StringOffset";
    133 BsInitWritable, "bs_init_writable", 0, false, "";
    134 BsAppend, "bs_append", 8, false, "Fail Size Extra Live Unit Bin Flags Dst";
    135 BsPrivateAppend, "bs_private_append", 6, false, "Fail Size Unit Bin Flags Dst";
    136 Trim, "trim", 2, false, "N Remaining";
    137 BsInitBits, "bs_init_bits", 6, false, "Fail Size Words Live Flags Dst";
    138 BsGetUtf8, "bs_get_utf8", 5, false, "Fail Ctx Live Flags Dst";
    139 BsSkipUtf8, "bs_skip_utf8", 4, false, "Fail Ctx Live Flags";
    140 BsGetUtf16, "bs_get_utf16", 5, false, "Fail Ctx Live Flags Dst";
    141 BsSkipUtf16, "bs_skip_utf16", 4, false, "Fail Ctx Live Flags";
    142 BsGetUtf32, "bs_get_utf32", 5, false, "Fail Ctx Live Flags Dst";
    143 BsSkipUtf32, "bs_skip_utf32", 4, false, "Fail Ctx Live Flags";
    144 BsUtf8Size, "bs_utf8_size", 3, false, "Fail Src Dst";
    145 BsPutUtf8, "bs_put_utf8", 3, false, "Fail Flags Src";
    146 BsUtf16Size, "bs_utf16_size", 3, false, "Fail Src Dst";
    147 BsPutUtf16, "bs_put_utf16", 3, false, "Fail Flags Src";
    148 BsPutUtf32, "bs_put_utf32", 3, false, "Fail Flags Src";
    149 OnLoad, "on_load", 0, false, "";
    150 RecvMark, "recv_mark", 1, false, "Label";
    151 RecvSet, "recv_set", 1, false, "Label";
    152 GcBif3, "gc_bif3", 7, false, "Fail Live Import Arg1 Arg2 Arg3 Dst";
    153 Line, "line", 1, false, "LineIndex";
    154 PutMapAssoc, "put_map_assoc", 5, false, "Fail Src Dst Live Pairs";
    155 PutMapExact, "put_map_exact", 5, false, "Fail Src Dst Live Pairs";
    156 IsMap, "is_map", 2, false, "Fail Arg";
    157 HasMapFields, "has_map_fields", 3, false, "Fail Src Keys";
    158 GetMapElements, "get_map_elements", 3, false, "Fail Src KeyDstPairs";
    159 IsTaggedTuple, "is_tagged_tuple", 4, false, "Fail Arg Arity Tag";
    160 BuildStacktrace, "build_stacktrace", 0, false, "";
    161 RawRaise, "raw_raise", 0, false, "";
    162 GetHd, "get_hd", 2, false, "Src Head";
    163 GetTl, "get_tl", 2, false, "Src Tail";
    164 PutTuple2, "put_tuple2", 2, false, "Dst Elements";
    165 BsGetTail, "bs_get_tail", 3, false, "Ctx Dst Live";
    166 BsStartMatch3, "bs_start_match3", 4, false, "Fail Bin Live Dst";
    167 BsGetPosition, "bs_get_position", 3, false, "Ctx Dst Live";
    168 BsSetPosition, "bs_set_position", 2, false, "Ctx Pos";
    169 Swap, "swap", 2, false, "Reg1 Reg2";
    170 BsStartMatch4, "bs_start_match4", 4, false, "Fail Live Src Dst";
    171 MakeFun3, "make_fun3", 3, false, "LambdaIndex Dst Env";
    172 InitYregs, "init_yregs", 1, false, "Registers";
    173 RecvMarkerBind, "recv_marker_bind", 2, false, "Marker Reference";
    174 RecvMarkerClear, "recv_marker_clear", 1, false, "Reference";
    175 RecvMarkerReserve, "recv_marker_reserve", 1, false, "Marker";
    176 RecvMarkerUse, "recv_marker_use", 1, false, "Reference";
    177 BsCreateBin, "bs_create_bin", 6, false, "Fail Alloc Live Unit Dst Segments";
    178 CallFun2, "call_fun2", 3, false, "Tag Arity Func";
    179 NifStart, "nif_start", 0, false, "";
    180 Badrecord, "badrecord", 1, false, "Value";
    181 UpdateRecord, "update_record", 5, false, "Hint Size Src Dst Updates";
    182 BsMatch, "bs_match", 3, false, "Fail Ctx Commands";
    183 ExecutableLine, "executable_line", 2, false, "LineIndex Index";
    184 DebugLine, "debug_line", 4, false, "Kind LineIndex Index Live";
    185 Bif3, "bif3", 6, false, "Fail Import Arg1 Arg2 Arg3 Dst";
    186 IsAnyNativeRecord, "is_any_native_record", 2, false, "Fail Term";
    187 IsNativeRecord, "is_native_record", 4, false, "Fail Rec Module Name";
    188 GetRecordElements, "get_record_elements", 3, false, "Fail Rec Elements";
    189 PutRecord, "put_record", 6, false, "Fail Id Src Dst Live Updates";
    190 IsRecordAccessible, "is_record_accessible", 3, false, "Fail Rec Scope";
    191 GetRecordField, "get_record_field", 5, false, "Fail Rec Id Field Dst";
}

/// The highest opcode this table knows.
pub const MAX_OPCODE: u8 = 191;

/// The release that introduced each opcode: `(first opcode, release)`,
/// ascending; an opcode belongs to the last row whose first opcode is not
/// above it (from `genop.tab`'s section comments).
pub const RELEASES: [(u8, &str); 20] = [
    (1, "R5"),
    (79, "R7"),
    (94, "R8"),
    (104, "R10B"),
    (116, "R11B"),
    (130, "R12B"),
    (149, "R13B03"),
    (150, "R14A"),
    (153, "R15A"),
    (154, "R17"),
    (159, "OTP 20"),
    (160, "OTP 21"),
    (164, "OTP 22"),
    (169, "OTP 23"),
    (171, "OTP 24"),
    (177, "OTP 25"),
    (181, "OTP 26"),
    (183, "OTP 27"),
    (184, "OTP 28"),
    (185, "OTP 29"),
];

impl Opcode {
    /// The opcode's number.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The release that introduced the opcode (`"OTP 26"` for `bs_match`).
    pub fn since(self) -> &'static str {
        let n = self.number();
        RELEASES
            .iter()
            .rev()
            .find(|(first, _)| *first <= n)
            .map_or("R5", |(_, release)| release)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_dense_and_consistent() {
        for n in 1..=MAX_OPCODE {
            let op = Opcode::from_u8(n).expect("every number 1..=191 is defined");
            assert_eq!(op.number(), n);
            let names = op.operands().split_whitespace().count();
            assert_eq!(names, op.arity(), "{}", op.name());
        }
        assert_eq!(Opcode::from_u8(0), None);
        assert_eq!(Opcode::from_u8(MAX_OPCODE + 1), None);
        assert_eq!(Opcode::from_u8(184).map(Opcode::name), Some("debug_line"));
        assert_eq!(
            Opcode::from_u8(191).map(Opcode::name),
            Some("get_record_field")
        );
        assert_eq!(Opcode::from_u8(64).map(Opcode::name), Some("move"));
    }

    #[test]
    fn releases_name_where_each_opcode_came_from() {
        assert_eq!(Opcode::Label.since(), "R5");
        assert_eq!(Opcode::Line.since(), "R15A");
        assert_eq!(Opcode::BsCreateBin.since(), "OTP 25");
        assert_eq!(Opcode::UpdateRecord.since(), "OTP 26");
        assert_eq!(Opcode::BsMatch.since(), "OTP 26");
        assert_eq!(Opcode::ExecutableLine.since(), "OTP 27");
        assert_eq!(Opcode::DebugLine.since(), "OTP 28");
        assert_eq!(Opcode::Bif3.since(), "OTP 29");
        assert_eq!(Opcode::GetRecordField.since(), "OTP 29");
        assert!(RELEASES.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
