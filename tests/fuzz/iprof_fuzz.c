/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * iprof_fuzz.c -- libFuzzer target for the iprof plugin. Reads the input from
 * memory strictly and leniently (with and without report-all), writes every
 * profile that was accepted to a memory sink and checks that our own output
 * reads back in the same mode: anything else is a bug and traps. The reader
 * as shipped (its streaming fast path, iprof_stream.c, falling back to the
 * tree reader) must also answer exactly as the tree reader alone does: the
 * same code, the same error text, the same model.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profbridge/profbridge.h"
#include "profbridge/sys/format.h" /* the plugin's own slots (read, probe, dump, read_prepared) */
#include "../../formats/iprof/iprof_int.h" /* the tree reader alone */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void trap_unless(int ok) {
    if (!ok) __builtin_trap();
}

static int read_via(pb_profile **p, const void *data, size_t size, int lenient, int report_all,
                    int tree, char *msg, size_t cap) {
    const pb_format *f = pb_format_lookup("iprof");
    pb_source *src = NULL;
    pb_error err;
    pb_read_options o = PB_READ_OPTIONS_INIT;
    pb_error_clear(&err);
    *p = NULL;
    o.lenient = lenient;
    o.report_all = report_all;
    if (pb_source_open_memory(&src, data, size, "fuzz.iprof", &err)) return -1;
    int rc = tree ? pbi_iprof_read_tree(p, src, &o, &err) : f->read(p, src, &o, &err);
    pb_source_free(src);
    trap_unless(rc ? *p == NULL && err.code != 0 : *p != NULL);
    if (msg) pb_error_format(&err, msg, cap);
    return rc;
}

static int read_mem(pb_profile **p, const void *data, size_t size, int lenient, int report_all) {
    char got[1200], want[1200];
    pb_profile *t = NULL;
    int rc = read_via(p, data, size, lenient, report_all, 0, got, sizeof got);
    int rt = read_via(&t, data, size, lenient, report_all, 1, want, sizeof want);
    trap_unless(rc == rt && (rc ? strcmp(got, want) == 0 : pb_profile_equal(*p, t, NULL, 0)));
    pb_profile_free(t);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const pb_format *f = pb_format_lookup("iprof");
    trap_unless(f != NULL);
    (void)f->probe(data, size < PB_PEEK_MAX ? size : PB_PEEK_MAX);
    for (int mode = 0; mode < 3; mode++) {
        int lenient = mode == 1, report_all = mode == 2;
        pb_profile *p = NULL, *q = NULL;
        if (read_mem(&p, data, size, lenient, report_all)) continue;
        pb_sink *s = NULL;
        pb_error err;
        pb_error_clear(&err);
        if (pb_sink_open_memory(&s, &err) == 0) {
            pb_write_options wo = PB_WRITE_OPTIONS_INIT;
            if (f->write(p, s, &wo, &err) == 0) {
                size_t n = 0;
                const uint8_t *out = pb_sink_memory(s, &n);
                trap_unless(read_mem(&q, out, n, lenient, 0) == 0);
                /* 0.2.0 is written as 1.0.0, so only its version may differ. */
                size_t vl = 0;
                const char *v = pb_profile_prop(p, "iprof.version", &vl);
                if (!v || strcmp(v, "0.2.0") != 0) trap_unless(pb_profile_equal(p, q, NULL, 0));
                pb_profile_free(q);
            }
            pb_sink_free(s);
        }
        pb_profile_free(p);
    }
    return 0;
}
