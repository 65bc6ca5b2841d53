/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_raw_layout.c -- the raw layout table against the sizes and offsets of spec §2.4/§2.5/§2.10. */
#include <string.h>

#include "testutil.h"
#include "../../formats/raw/raw_layout.h"

static pbi_raw_layout lay(unsigned v, unsigned ptr) {
    pbi_raw_layout l;
    memset(&l, 0, sizeof l);
    CU_ASSERT_EQUAL_FATAL(pbi_raw_layout_get(&l, v, ptr), 0);
    return l;
}

static void raw_layout__header_sizes_match_the_spec(void) {
    static const struct { unsigned v, size; } want[] = {{5, 80}, {7, 88}, {8, 88}, {9, 112}, {10, 128}, {11, 152}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CU_ASSERT_EQUAL(lay(want[i].v, 8).header_size, want[i].size);
        CU_ASSERT_EQUAL(lay(want[i].v, 4).header_size, want[i].size); /* header words are u64 */
    }
}

static void raw_layout__record_sizes_match_the_spec_for_both_pointer_widths(void) {
    static const struct { unsigned v, s64, s32; } want[] = {
        {5, 48, 40}, {7, 48, 40}, {8, 48, 40}, {9, 64, 48}, {10, 64, 48}, {11, 72, 56}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CU_ASSERT_EQUAL(lay(want[i].v, 8).record_size, want[i].s64);
        CU_ASSERT_EQUAL(lay(want[i].v, 4).record_size, want[i].s32);
    }
}

static void raw_layout__record_field_offsets_match_the_spec(void) {
    pbi_raw_layout l = lay(10, 8);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_CounterPtr], 16);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_BitmapPtr], 24);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_FunctionPointer], 32);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumCounters], 48);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumValueSites01], 52);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumValueSites2], 56);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumBitmapBytes], 60);
    l = lay(10, 4);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_BitmapPtr], 20);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumCounters], 32);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumBitmapBytes], 44);
    l = lay(11, 8);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_UniformCounterPtr], 24);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_OffloadDeviceWaveSize], 66);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumBitmapBytes], 68);
    l = lay(11, 4);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_OffloadDeviceWaveSize], 46);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumBitmapBytes], 48);
    l = lay(9, 4);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumBitmapBytes], 40);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumValueSites2], -1);
    l = lay(8, 4);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_FunctionPointer], 20);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_NumValueSites01], 32);
    CU_ASSERT_EQUAL(l.rec_off[PBI_RD_BitmapPtr], -1);
}

static void raw_layout__header_field_offsets_match_the_spec(void) {
    CU_ASSERT_EQUAL(lay(10, 8).hdr_off[PBI_RH_NamesSize], 72);
    CU_ASSERT_EQUAL(lay(10, 8).hdr_off[PBI_RH_ValueKindLast], 120);
    CU_ASSERT_EQUAL(lay(11, 8).hdr_off[PBI_RH_NumUniformCounters], 72);
    CU_ASSERT_EQUAL(lay(11, 8).hdr_off[PBI_RH_NamesSize], 96);
    CU_ASSERT_EQUAL(lay(11, 8).hdr_off[PBI_RH_ValueKindLast], 144);
    CU_ASSERT_EQUAL(lay(8, 8).hdr_off[PBI_RH_CountersDelta], 64);
    CU_ASSERT_EQUAL(lay(8, 8).hdr_off[PBI_RH_NumData], 24);
    CU_ASSERT_EQUAL(lay(5, 8).hdr_off[PBI_RH_NumData], 16);
    CU_ASSERT_EQUAL(lay(5, 8).hdr_off[PBI_RH_BinaryIdsSize], -1);
    CU_ASSERT_EQUAL(lay(9, 8).hdr_off[PBI_RH_BitmapDelta], 88);
}

static void raw_layout__vtable_records_are_24_and_16_bytes_from_v10(void) {
    CU_ASSERT_EQUAL(lay(10, 8).vtable_size, 24);
    CU_ASSERT_EQUAL(lay(10, 4).vtable_size, 16);
    CU_ASSERT_EQUAL(lay(10, 4).vt_off[PBI_RV_VTableSize], 12);
    CU_ASSERT_EQUAL(lay(9, 8).vtable_size, 0);
}

static void raw_layout__refuses_v6_v12_and_odd_pointer_widths(void) {
    pbi_raw_layout l;
    CU_ASSERT_EQUAL(pbi_raw_layout_get(&l, 6, 8), -1);
    CU_ASSERT_EQUAL(pbi_raw_layout_get(&l, 4, 8), -1);
    CU_ASSERT_EQUAL(pbi_raw_layout_get(&l, 12, 8), -1);
    CU_ASSERT_EQUAL(pbi_raw_layout_get(&l, 10, 2), -1);
}

static void raw_layout__encodes_and_decodes_every_header_field(void) {
    for (unsigned v = 5; v <= PBI_RAW_VERSION_MAX; v++) {
        if (v == 6) continue;
        pbi_raw_layout l = lay(v, 8);
        pbi_raw_header h, back;
        uint8_t buf[256];
        for (int i = 0; i < PBI_RH_COUNT; i++) h.f[i] = l.hdr_off[i] < 0 ? 0 : 0x0102030405060700u + (uint64_t)i;
        pbi_raw_header_encode(&l, &h, PB_ORDER_BE, buf);
        pbi_raw_header_decode(&l, buf, PB_ORDER_BE, &back);
        CU_ASSERT_EQUAL(memcmp(&h, &back, sizeof h), 0);
        CU_ASSERT_EQUAL(buf[l.hdr_off[PBI_RH_NumData] + 7], (uint8_t)PBI_RH_NumData);
    }
}

static CU_TestInfo tests[] = {
    {"raw_layout__header_sizes_match_the_spec", raw_layout__header_sizes_match_the_spec},
    {"raw_layout__record_sizes_match_the_spec_for_both_pointer_widths",
     raw_layout__record_sizes_match_the_spec_for_both_pointer_widths},
    {"raw_layout__record_field_offsets_match_the_spec", raw_layout__record_field_offsets_match_the_spec},
    {"raw_layout__header_field_offsets_match_the_spec", raw_layout__header_field_offsets_match_the_spec},
    {"raw_layout__vtable_records_are_24_and_16_bytes_from_v10", raw_layout__vtable_records_are_24_and_16_bytes_from_v10},
    {"raw_layout__refuses_v6_v12_and_odd_pointer_widths", raw_layout__refuses_v6_v12_and_odd_pointer_widths},
    {"raw_layout__encodes_and_decodes_every_header_field", raw_layout__encodes_and_decodes_every_header_field},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_raw_layout[] = {{"raw_layout", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
