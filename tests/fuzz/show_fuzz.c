/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* show_fuzz.c -- libFuzzer target: the show printers (profbridge/show.h) on
 * any bytes, any format, must never crash, leak or hang: the streamed
 * indexed and raw paths, the model path (value targets, --text, the detailed
 * summary, --topn), the Java view and its JSON, as two releases print them. */
#include <stddef.h>
#include <stdint.h>

#include "profbridge/profbridge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void show_once(const uint8_t *data, size_t size, const pb_show_options *so) {
    pb_error err;
    pb_error_clear(&err);
    pb_source *src = NULL;
    pb_sink *sink = NULL;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    if (pb_source_open_memory(&src, data, size, "fuzz", &err) == 0 && pb_sink_open_memory(&sink, &err) == 0)
        (void)pb_show_file(sink, src, &ro, so, &err);
    pb_sink_free(sink);
    pb_source_free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    pb_show_options so = PB_SHOW_OPTIONS_INIT;
    so.all_functions = so.counts = so.memop_sizes = so.detailed_summary = 1;
    so.topn = 3;
    show_once(data, size, &so); /* an indexed file: streamed */
    pb_show_options st = PB_SHOW_OPTIONS_INIT;
    st.all_functions = st.counts = st.memop_sizes = st.detailed_summary = st.profile_version = 1;
    show_once(data, size, &st); /* a raw file too: read as it is printed (no --topn) */
    pb_show_options vp = PB_SHOW_OPTIONS_INIT;
    vp.llvm_release = 14;
    vp.all_functions = vp.ic_targets = vp.show_vtables = vp.temporal_traces = vp.binary_ids = vp.llvm = 1;
    show_once(data, size, &vp); /* the model, the LLVM view of any format */
    pb_show_options text = PB_SHOW_OPTIONS_INIT;
    text.llvm_release = 24;
    text.all_functions = text.text = text.json = 1;
    show_once(data, size, &text);
    pb_show_options java = PB_SHOW_OPTIONS_INIT;
    java.json = 1;
    java.topn = 2;
    show_once(data, size, &java); /* the Java view of an iprof */
    return 0;
}
