/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_io.c -- byte sources (plain, gzip, memory, peek) and sinks (temp + rename, gzip). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char tmpdir[256];

static int setup(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pb_test_io.%ld", (long)getpid());
    return mkdir(tmpdir, 0700);
}
static int teardown(void) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : 1;
}
static const char *tmp_path(const char *name) {
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, name);
    return p;
}

static char *read_all_text(pb_source *s, size_t *n) {
    const uint8_t *d;
    pb_error err;
    pb_error_clear(&err);
    if (pb_source_read_all(s, &d, n, &err)) return NULL;
    char *c = malloc(*n + 1);
    memcpy(c, d, *n);
    c[*n] = 0;
    return c;
}

static void io__memory_source_peeks_without_consuming(void) {
    const char text[] = "{\"version\":\"1.1.0\"}";
    pb_source *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&s, text, strlen(text), "m", &err), 0);
    const uint8_t *h;
    size_t n;
    CU_ASSERT_EQUAL(pb_source_peek(s, &h, &n, &err), 0);
    CU_ASSERT_EQUAL(n, strlen(text));
    CU_ASSERT_EQUAL(memcmp(h, text, n), 0);
    char buf[5];
    size_t got;
    CU_ASSERT_EQUAL(pb_source_read(s, buf, 5, &got, &err), 0);
    CU_ASSERT_EQUAL(got, 5);
    CU_ASSERT_EQUAL(memcmp(buf, text, 5), 0);
    char *rest = read_all_text(s, &n);
    CU_ASSERT_STRING_EQUAL(rest, text + 5);
    free(rest);
    CU_ASSERT_FALSE(pb_source_is_gzip(s));
    pb_source_free(s);
}

static void io__file_source_reads_gzip_made_by_the_gzip_tool(void) {
    const char *plain = tmp_path("g.txt");
    FILE *f = fopen(plain, "w");
    for (int i = 0; i < 20000; i++) fprintf(f, "line %d\n", i);
    fclose(f);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s.gz'", plain, plain);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    size_t want_n;
    char *want = tu_slurp(plain, &want_n);
    char gz[1024];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    pb_source *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, gz, &err), 0);
    const uint8_t *h;
    size_t n;
    CU_ASSERT_EQUAL(pb_source_peek(s, &h, &n, &err), 0);
    CU_ASSERT_EQUAL(memcmp(h, "line 0\n", 7), 0);
    CU_ASSERT_TRUE(pb_source_is_gzip(s));
    char *got = read_all_text(s, &n);
    CU_ASSERT_EQUAL(n, want_n);
    CU_ASSERT(got && memcmp(got, want, n) == 0);
    free(got);
    free(want);
    pb_source_free(s);
}

static void io__truncated_gzip_is_an_error_not_a_crash(void) {
    const char *plain = tmp_path("t.txt");
    FILE *f = fopen(plain, "w");
    for (int i = 0; i < 5000; i++) fprintf(f, "%d,", i * 7919);
    fclose(f);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s.gz'", plain, plain);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    char gz[1024];
    snprintf(gz, sizeof gz, "%s.gz", plain);
    size_t n;
    uint8_t *bytes = (uint8_t *)tu_slurp(gz, &n);
    for (size_t cut = 3; cut < n; cut += 97) {
        pb_source *s = NULL;
        pb_error err;
        pb_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&s, bytes, cut, "cut.gz", &err), 0);
        const uint8_t *d;
        size_t len;
        int rc = pb_source_read_all(s, &d, &len, &err);
        CU_ASSERT(rc == PB_ETRUNC || rc == PB_EFORMAT);
        pb_source_free(s);
    }
    free(bytes);
}

static void io__missing_file_names_the_file(void) {
    pb_source *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_source_open_file(&s, "/nonexistent/x.iprof", &err), PB_EIO);
    CU_ASSERT_PTR_NULL(s);
    char msg[512];
    pb_error_format(&err, msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "/nonexistent/x.iprof: No such file or directory");
}

static void io__file_sink_appears_only_after_commit(void) {
    const char *out = tmp_path("out.bin");
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, out, 0, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_write(s, "hello ", 6, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_printf(s, &err, "%d", 42), 0);
    CU_ASSERT_FALSE(tu_exists(out));
    CU_ASSERT_EQUAL(pb_sink_offset(s), 8);
    CU_ASSERT_EQUAL(pb_sink_commit(s, &err), 0);
    pb_sink_free(s);
    size_t n;
    char *got = tu_slurp(out, &n);
    CU_ASSERT_STRING_EQUAL(got, "hello 42");
    free(got);
}

static void io__uncommitted_sink_leaves_old_file_and_no_temp(void) {
    const char *out = tmp_path("keep.bin");
    FILE *f = fopen(out, "w");
    fputs("old", f);
    fclose(f);
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, out, 0, &err), 0);
    char big[100000];
    memset(big, 'x', sizeof big);
    CU_ASSERT_EQUAL(pb_sink_write(s, big, sizeof big, &err), 0);
    pb_sink_free(s); /* no commit: as after a failed conversion */
    size_t n;
    char *got = tu_slurp(out, &n);
    CU_ASSERT_STRING_EQUAL(got, "old");
    free(got);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q pbtmp", tmpdir);
    CU_ASSERT_NOT_EQUAL(system(cmd), 0);
}

static void io__gzip_sink_is_readable_by_gunzip(void) {
    const char *out = tmp_path("z.txt.gz");
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, out, 1, &err), 0);
    for (int i = 0; i < 30000; i++) CU_ASSERT_EQUAL(pb_sink_printf(s, &err, "%d\n", i), 0);
    CU_ASSERT_EQUAL(pb_sink_commit(s, &err), 0);
    pb_sink_free(s);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s' | tail -n 1 | grep -qx 29999 && gzip -dc '%s' | wc -l | grep -qx 30000", out, out);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void io__memory_sink_collects_bytes(void) {
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    for (int i = 0; i < 1000; i++) CU_ASSERT_EQUAL(pb_sink_write(s, "ab", 2, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_commit(s, &err), 0);
    size_t n;
    const uint8_t *d = pb_sink_memory(s, &n);
    CU_ASSERT_EQUAL(n, 2000);
    CU_ASSERT_EQUAL(memcmp(d + 1998, "ab", 2), 0);
    pb_sink_free(s);
}

static void write_file(const char *path, const void *d, size_t n) {
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(d, 1, n, f), n);
    fclose(f);
}

static int temps_left(void) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -q pbtmp", tmpdir);
    return system(cmd) == 0;
}

/* Issue 12: an input stops at its size limit with PB_ELIMIT at the limit's offset. */
static void io__source_stops_at_the_size_limit(void) {
    const char *in = tmp_path("limit.txt");
    char big[5000];
    memset(big, 'a', sizeof big);
    write_file(in, big, sizeof big);
    pb_source *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, in, &err), 0);
    pb_source_set_limits(s, 4096, 0);
    const uint8_t *d;
    size_t n;
    CU_ASSERT_EQUAL(pb_source_read_all(s, &d, &n, &err), PB_ELIMIT);
    CU_ASSERT_EQUAL(err.offset, 4096);
    pb_source_free(s);
    /* the same through pb_read_options, and the limit is not reached at 5000 */
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "text";
    ro.max_input_size = 4999;
    pb_profile *p = NULL;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_read_file(&p, in, &ro, &err), PB_ELIMIT);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, in, &err), 0);
    pb_source_set_limits(s, 5000, 0);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_source_read_all(s, &d, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 5000);
    pb_source_free(s);
}

/* Issue 12: a broken gzip stream names the offset in the compressed bytes. */
static void io__gzip_error_gives_the_compressed_offset(void) {
    const char *in = tmp_path("bad.gz");
    static const uint8_t bad[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 'g', 'a', 'r', 'b', 'a', 'g', 'e'};
    write_file(in, bad, sizeof bad);
    pb_source *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, in, &err), 0);
    const uint8_t *h;
    size_t n;
    CU_ASSERT_EQUAL(pb_source_peek(s, &h, &n, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 0xb);
    CU_ASSERT_STRING_EQUAL(err.path, "compressed");
    pb_source_free(s);
}

/* Issue 12: a symbolic link's target is replaced, the link stays a link. */
static void io__sink_replaces_a_links_target(void) {
    write_file(tmp_path("target.txt"), "old", 3);
    char link[512];
    snprintf(link, sizeof link, "%s", tmp_path("link.txt"));
    CU_ASSERT_EQUAL_FATAL(symlink("target.txt", link), 0);
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, link, 0, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_write(s, "new", 3, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_commit(s, &err), 0);
    pb_sink_free(s);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(link, &st), 0);
    CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
    size_t n;
    char *got = tu_slurp(tmp_path("target.txt"), &n);
    CU_ASSERT_STRING_EQUAL(got, "new");
    free(got);
}

/* Issue 12: a name of 254 bytes works (the temporary name fits NAME_MAX),
 * and an existing file keeps its mode. */
static void io__sink_long_name_and_old_mode(void) {
    char name[255];
    memset(name, 'q', 254);
    name[254] = 0;
    char path[1024];
    snprintf(path, sizeof path, "%s", tmp_path(name));
    write_file(path, "old", 3);
    CU_ASSERT_EQUAL(chmod(path, 0604), 0);
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, path, 0, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_write(s, "new", 3, &err), 0);
    CU_ASSERT_EQUAL(pb_sink_commit(s, &err), 0);
    pb_sink_free(s);
    struct stat st;
    CU_ASSERT_EQUAL(stat(path, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0604);
    CU_ASSERT_EQUAL(st.st_size, 3);
    unlink(path);
}

/* Issue 12: what a signal handler calls removes the temporary file. */
static void io__remove_temps_removes_an_open_sinks_file(void) {
    pb_sink *s = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_file(&s, tmp_path("sig.bin"), 0, &err), 0);
    CU_ASSERT_TRUE(temps_left());
    pb_sink_remove_temps();
    CU_ASSERT_FALSE(temps_left());
    CU_ASSERT_NOT_EQUAL(pb_sink_commit(s, &err), 0); /* the rename has nothing to rename */
    pb_sink_free(s);
    CU_ASSERT_FALSE(tu_exists(tmp_path("sig.bin")));
}

/* Issue 12: a directory or a missing directory is refused, naming the output. */
static void io__sink_check_names_the_output(void) {
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_sink_check(tmpdir, &err), PB_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, tmpdir);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_sink_check("/no/such/dir/x.profdata", &err), PB_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "/no/such/dir/x.profdata");
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_sink_check(tmp_path("fresh.profdata"), &err), 0);
    CU_ASSERT_FALSE(tu_exists(tmp_path("fresh.profdata")));
}

static void error__format_uses_offset_or_line(void) {
    pb_error e;
    pb_error_clear(&e);
    pb_error_set_source(&e, "big.profraw");
    pb_error_set_ef(&e, PB_EFORMAT, 0x28, "header.NumCounters", "<= 1024", "4294967295");
    char m[512];
    pb_error_format(&e, m, sizeof m);
    CU_ASSERT_STRING_EQUAL(m, "big.profraw: byte 0x28 (header.NumCounters): expected <= 1024, found 4294967295");
    /* first error wins */
    pb_error_set(&e, PB_EIO, 0, NULL, "later");
    CU_ASSERT_EQUAL(e.code, PB_EFORMAT);
    pb_error_clear(&e);
    pb_error_set_source(&e, "fib.iprof");
    pb_error_set_ef(&e, PB_EFORMAT, PB_NO_OFFSET, "conditionalProfiles[17].records",
                    "a multiple of 3 values", "4");
    e.line = 88;
    e.column = 12;
    pb_error_format(&e, m, sizeof m);
    CU_ASSERT_STRING_EQUAL(m, "fib.iprof:88:12: conditionalProfiles[17].records: expected a multiple of 3 values, found 4");
}

/* What a pb_progress_fn saw. */
typedef struct progress_log {
    uint64_t done[64], total[64];
    size_t n;
} progress_log;

static void log_progress(void *ctx, uint64_t done, uint64_t total) {
    progress_log *l = ctx;
    if (l->n < 64) {
        l->done[l->n] = done;
        l->total[l->n] = total;
    }
    l->n++;
}

/* pb_source_map after a peek gives every byte of the file: one below 4 MiB
 * (read into memory) and one above (mapped). */
static void io__source_map_gives_the_file_after_a_peek(void) {
    const size_t sizes[2] = {1048576 + 12345, 4 * 1048576 + 4096};
    for (int k = 0; k < 2; k++) {
        size_t size = sizes[k];
        char *bytes = malloc(size);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
        for (size_t i = 0; i < size; i++) bytes[i] = (char)(i * 7 + i / 4099);
        const char *path = tmp_path("map.bin");
        FILE *f = fopen(path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(fwrite(bytes, 1, size, f), size);
        fclose(f);
        pb_error err;
        pb_error_clear(&err);
        pb_source *s = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, path, &err), 0);
        const uint8_t *head, *d;
        size_t hlen, len;
        CU_ASSERT_EQUAL_FATAL(pb_source_peek(s, &head, &hlen, &err), 0);
        CU_ASSERT(hlen > 0);
        CU_ASSERT_EQUAL_FATAL(pb_source_map(s, &d, &len, &err), 0);
        CU_ASSERT_EQUAL_FATAL(len, size);
        CU_ASSERT(memcmp(d, bytes, size) == 0);
        pb_source_map_done_before(s, size / 2); /* the bytes stay readable */
        CU_ASSERT(memcmp(d, bytes, size) == 0);
        pb_source_free(s);
        free(bytes);
    }
}

/* A 3.5 MiB file read in pieces: a call after each PB_PROGRESS_STEP (1 MiB)
 * read, three of them, then one at the end with done == total == the size;
 * mapped, the same file reports its size once; gzip counts compressed bytes. */
static void io__source_reports_progress_per_mebibyte_and_at_the_end(void) {
    const size_t size = 3 * 1048576 + 524288;
    char *bytes = malloc(size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    for (size_t i = 0; i < size; i++) bytes[i] = (char)('a' + i % 26);
    const char *path = tmp_path("progress.txt");
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, size, f), size);
    fclose(f);
    free(bytes);

    pb_error err;
    pb_error_clear(&err);
    pb_source *s = NULL;
    progress_log l = {{0}, {0}, 0};
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, path, &err), 0);
    pb_source_set_progress(s, log_progress, &l);
    char buf[10000]; /* not a divisor of the step: calls come when a read passes it */
    size_t got, total = 0;
    do {
        CU_ASSERT_EQUAL_FATAL(pb_source_read(s, buf, sizeof buf, &got, &err), 0);
        total += got;
    } while (got);
    CU_ASSERT_EQUAL(total, size);
    CU_ASSERT_EQUAL_FATAL(l.n, 4);
    for (size_t i = 0; i < 4; i++) CU_ASSERT_EQUAL(l.total[i], size);
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT(l.done[i] >= (i + 1) * PB_PROGRESS_STEP);
        CU_ASSERT(l.done[i] < (i + 1) * PB_PROGRESS_STEP + sizeof buf + 2);
    }
    CU_ASSERT_EQUAL(l.done[3], size);
    /* reading past the end reports nothing more */
    CU_ASSERT_EQUAL(pb_source_read(s, buf, sizeof buf, &got, &err), 0);
    CU_ASSERT_EQUAL(l.n, 4);
    /* read again after a rewind: the same four calls again */
    CU_ASSERT_EQUAL_FATAL(pb_source_rewind(s, &err), 0);
    do {
        CU_ASSERT_EQUAL_FATAL(pb_source_read(s, buf, sizeof buf, &got, &err), 0);
    } while (got);
    CU_ASSERT_EQUAL_FATAL(l.n, 8);
    CU_ASSERT(l.done[4] >= PB_PROGRESS_STEP && l.done[4] < PB_PROGRESS_STEP + sizeof buf + 2);
    CU_ASSERT_EQUAL(l.done[7], size);
    pb_source_free(s);

    l.n = 0;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, path, &err), 0);
    pb_source_set_progress(s, log_progress, &l);
    const uint8_t *d;
    size_t len;
    CU_ASSERT_EQUAL_FATAL(pb_source_map(s, &d, &len, &err), 0);
    CU_ASSERT_EQUAL(len, size);
    CU_ASSERT_EQUAL_FATAL(l.n, 1);
    CU_ASSERT_EQUAL(l.done[0], size);
    CU_ASSERT_EQUAL(l.total[0], size);
    pb_source_free(s);

    char cmd[1200];
    snprintf(cmd, sizeof cmd, "gzip -1 -c '%s' > '%s.gz'", path, path);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s.gz", path);
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(cmd, &st), 0);
    l.n = 0;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&s, cmd, &err), 0);
    pb_source_set_progress(s, log_progress, &l);
    CU_ASSERT_EQUAL_FATAL(pb_source_read_all(s, &d, &len, &err), 0);
    CU_ASSERT_EQUAL(len, size);
    CU_ASSERT(l.n >= 1);
    CU_ASSERT_EQUAL(l.done[l.n - 1], (uint64_t)st.st_size);
    CU_ASSERT_EQUAL(l.total[l.n - 1], (uint64_t)st.st_size);
    pb_source_free(s);

    /* memory handed out in one piece: one call, at the end */
    l.n = 0;
    static const char text[] = "{\"version\":\"1.1.0\"} and more than the peek sees";
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&s, text, sizeof text - 1, "m", &err), 0);
    pb_source_set_progress(s, log_progress, &l);
    CU_ASSERT_EQUAL_FATAL(pb_source_read_all(s, &d, &len, &err), 0);
    CU_ASSERT_EQUAL_FATAL(l.n, 1);
    CU_ASSERT_EQUAL(l.done[0], sizeof text - 1);
    CU_ASSERT_EQUAL(l.total[0], sizeof text - 1);
    pb_source_free(s);
}

static CU_TestInfo io_tests[] = {
    {"io__memory_source_peeks_without_consuming", io__memory_source_peeks_without_consuming},
    {"io__file_source_reads_gzip_made_by_the_gzip_tool", io__file_source_reads_gzip_made_by_the_gzip_tool},
    {"io__truncated_gzip_is_an_error_not_a_crash", io__truncated_gzip_is_an_error_not_a_crash},
    {"io__missing_file_names_the_file", io__missing_file_names_the_file},
    {"io__file_sink_appears_only_after_commit", io__file_sink_appears_only_after_commit},
    {"io__uncommitted_sink_leaves_old_file_and_no_temp", io__uncommitted_sink_leaves_old_file_and_no_temp},
    {"io__gzip_sink_is_readable_by_gunzip", io__gzip_sink_is_readable_by_gunzip},
    {"io__memory_sink_collects_bytes", io__memory_sink_collects_bytes},
    {"io__source_stops_at_the_size_limit", io__source_stops_at_the_size_limit},
    {"io__gzip_error_gives_the_compressed_offset", io__gzip_error_gives_the_compressed_offset},
    {"io__sink_replaces_a_links_target", io__sink_replaces_a_links_target},
    {"io__sink_long_name_and_old_mode", io__sink_long_name_and_old_mode},
    {"io__remove_temps_removes_an_open_sinks_file", io__remove_temps_removes_an_open_sinks_file},
    {"io__sink_check_names_the_output", io__sink_check_names_the_output},
    {"io__source_reports_progress_per_mebibyte_and_at_the_end", io__source_reports_progress_per_mebibyte_and_at_the_end},
    {"io__source_map_gives_the_file_after_a_peek", io__source_map_gives_the_file_after_a_peek},
    {"error__format_uses_offset_or_line", error__format_uses_offset_or_line},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_io[] = {{"io", setup, teardown, NULL, NULL, io_tests}, CU_SUITE_INFO_NULL};
