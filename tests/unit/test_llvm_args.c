/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_llvm_args.c -- the command-line parser with LLVM's cl::opt rules
 * (src/cli/llvm_args.c): spellings of values and booleans, positionals,
 * "--", response files (GNU quoting, nested, recursion), suggestions and
 * refused options. Expected behaviour: what llvm-profdata-19 does with the
 * same command lines (checked by hand, docs/llvm-profdata.md).
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/cli/llvm_args.c"
#include "../../src/cli/llvm_options.c"

/* pbc_plugin_opts_free, pbc_parse_bool, pbc_llvm_target and the tool's
 * voice (pbc_args_prog ...) live in opts.c, which needs the whole CLI: small
 * copies with the same behaviour. */
const char *pbc_args_prog = PBC_PROG;
const char *pbc_args_argv0 = NULL;
const char *pbc_args_tool = PBC_PROG;
int pbc_args_llvm_style = 0;
int pbc_llvm_target(const char *cmd, const char *value, pbi_llvm_target *t) {
    (void)cmd;
    (void)value;
    return pbi_llvm_target_of(PBI_LLVM_DEFAULT, t);
}
void pbc_plugin_opts_free(pbc_plugin_opts *po) {
    free(po->kv);
    po->kv = NULL;
    po->n = 0;
}
int pbc_parse_bool(const char *s) {
    if (!s || !strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "TRUE") || !strcmp(s, "True")) return 1;
    if (!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "FALSE") || !strcmp(s, "False")) return 0;
    return -1;
}

static int parse(const pbc_arg_spec *t, pbc_args *a, int release, ...) {
    char *argv[32];
    int argc = 0;
    argv[argc++] = "test";
    va_list ap;
    va_start(ap, release);
    for (char *s; (s = va_arg(ap, char *));) argv[argc++] = s;
    va_end(ap);
    argv[argc] = NULL;
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    int rc = pbc_args_parse("merge", "merge [options] FILES", t, argc, argv, release, 0, a);
    fclose(stderr);
    stderr = saved;
    return rc;
}

static void llvm_args__value_spellings(void) {
    const char *forms[][3] = {{"-output=m", NULL, NULL}, {"--output=m", NULL, NULL}, {"-output", "m", NULL},
                              {"--output", "m", NULL}, {"-o", "m", NULL},          {"-o=m", NULL, NULL}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        pbc_args a;
        CU_ASSERT_EQUAL_FATAL(parse(pbc_llvm_merge_options, &a, 19, "a.profraw", forms[i][0], forms[i][1], NULL), 0);
        const pbc_arg *o = pbc_args_last(&a, PBC_LO_OUTPUT);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        CU_ASSERT_STRING_EQUAL(o->value, "m");
        CU_ASSERT_EQUAL(a.npos, 1);
        CU_ASSERT_STRING_EQUAL(a.pos[0], "a.profraw");
        pbc_args_free(&a);
    }
    pbc_args a;
    /* -j=N and -j N (cl::alias of --num-threads), 0x hex as getAsInteger */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-j=4", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_NUM_THREADS)->u, 4);
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-num-threads", "0x10", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_NUM_THREADS)->u, 16);
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--num-threads=-1", "x", NULL), PBC_EXIT_USAGE);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-output-size-limit=100", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_OUTPUT_SIZE_LIMIT)->u, 100);
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-failure-mode=warn", "x", NULL), 0);
    CU_ASSERT_STRING_EQUAL(pbc_args_last(&a, PBC_LO_FAILURE_MODE)->value, "warn");
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-failure-mode=bad", "x", NULL), PBC_EXIT_USAGE);
    /* a value option at the end without its value */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "x", "-o", NULL), PBC_EXIT_USAGE);
}

static void llvm_args__booleans_and_flags(void) {
    pbc_args a;
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-sparse=true", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_SPARSE)->u, 1);
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--sparse=0", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_SPARSE)->u, 0);
    pbc_args_free(&a);
    /* "-sparse true": true is a positional (LLVM: "error: true: No such file") */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-sparse", "true", NULL), 0);
    CU_ASSERT_EQUAL(a.npos, 1);
    CU_ASSERT_STRING_EQUAL(a.pos[0], "true");
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--sparse=yes", "x", NULL), PBC_EXIT_USAGE);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-sparse=", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_SPARSE)->u, 1);
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--sparse=True", "x", NULL), 0);
    CU_ASSERT_EQUAL(pbc_args_last(&a, PBC_LO_SPARSE)->u, 1);
    pbc_args_free(&a);
    /* an enum flag takes no value (LLVM: "does not allow a value!") */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--binary=1", "x", NULL), PBC_EXIT_USAGE);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-text", "x", NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(pbc_args_last(&a, PBC_LO_TEXT));
    pbc_args_free(&a);
    /* -hot-func-list is its own option, never -h */
    CU_ASSERT_EQUAL(parse(pbc_llvm_show_options, &a, 19, "-hot-func-list", "x", NULL), 0);
    CU_ASSERT_PTR_NULL(pbc_args_last(&a, PBC_ARG_HELP_ID));
    CU_ASSERT_PTR_NOT_NULL(pbc_args_last(&a, PBC_LO_HOT_FUNC_LIST));
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_show_options, &a, 19, "-h", NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(pbc_args_last(&a, PBC_ARG_HELP_ID));
    pbc_args_free(&a);
}

static void llvm_args__positionals_dashdash_and_unknown(void) {
    pbc_args a;
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-", "a", "--", "-o", "--sparse", NULL), 0);
    CU_ASSERT_EQUAL(a.npos, 4);
    CU_ASSERT_STRING_EQUAL(a.pos[0], "-");
    CU_ASSERT_STRING_EQUAL(a.pos[2], "-o");
    CU_ASSERT_EQUAL(a.nopt, 0);
    pbc_args_free(&a);
    /* never a file: -utput=... is an unknown option */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-outptu=m", "x", NULL), PBC_EXIT_USAGE);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "-ofile", "x", NULL), PBC_EXIT_USAGE);
    const pbc_arg_spec *n = pbc_args_nearest(pbc_llvm_show_options, "conts", 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT_STRING_EQUAL(n->name, "counts"); /* llvm-profdata-19: "Did you mean '--counts'?" */
    n = pbc_args_nearest(pbc_llvm_merge_options, "outptu", 6);
    CU_ASSERT_STRING_EQUAL(n->name, "output");
    /* refused: sample and MemProf, with a message saying why */
    char *argv[] = {"merge", "-sample", "x", NULL};
    FILE *saved = stderr, *tmp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(tmp);
    stderr = tmp;
    CU_ASSERT_EQUAL(pbc_args_parse("merge", NULL, pbc_llvm_merge_options, 3, argv, 19, 0, &a), PBC_EXIT_USAGE);
    stderr = saved;
    char msg[512] = "";
    rewind(tmp);
    size_t got = fread(msg, 1, sizeof msg - 1, tmp);
    msg[got] = '\0';
    fclose(tmp);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "--sample: is for sample profiles"));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "profbridge handles instrumentation profiles only"));
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--memprof-version=3", "x", NULL), PBC_EXIT_USAGE);
    /* releases: --keep-vtable-symbols is 19+, --split-layout 21+ (and refused) */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 18, "--keep-vtable-symbols", "x", NULL), PBC_EXIT_USAGE);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "--keep-vtable-symbols", "x", NULL), 0);
    pbc_args_free(&a);
}

static void llvm_args__plugin_options_and_release_check(void) {
    char *argv[] = {"dump", "--raw-profile", "1", "-raw-version=8", "in", "--json", NULL};
    static const pbc_arg_spec own[] = {{.name = "json", .id = 7, .kind = PBC_ARG_BOOL}, PBC_ARG_END};
    pbc_args a;
    CU_ASSERT_EQUAL_FATAL(pbc_args_parse("dump", NULL, own, 6, argv, 0, PBC_ARGS_PLUGIN, &a), 0);
    CU_ASSERT_EQUAL_FATAL(a.plugin.n, 2);
    CU_ASSERT_STRING_EQUAL(a.plugin.kv[0].key, "raw-profile");
    CU_ASSERT_STRING_EQUAL(a.plugin.kv[0].value, "1");
    CU_ASSERT_STRING_EQUAL(a.plugin.kv[1].key, "raw-version");
    CU_ASSERT_STRING_EQUAL(a.plugin.kv[1].value, "8");
    CU_ASSERT_EQUAL(a.npos, 1);
    CU_ASSERT_PTR_NOT_NULL(pbc_args_last(&a, 7));
    pbc_args_free(&a);
    /* without PBC_ARGS_PLUGIN a plugin option is unknown */
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    CU_ASSERT_EQUAL(pbc_args_parse("dump", NULL, own, 6, argv, 0, 0, &a), PBC_EXIT_USAGE);
    /* parsed for any release, checked once the release is known */
    char *m[] = {"merge", "--keep-vtable-symbols", "-num-threads=2", "x", NULL};
    CU_ASSERT_EQUAL_FATAL(pbc_args_parse("merge", NULL, pbc_llvm_merge_options, 4, m, 0, 0, &a), 0);
    CU_ASSERT_EQUAL(pbc_args_check_release("merge", &a, 19), 0);
    CU_ASSERT_EQUAL(pbc_args_check_release("merge", &a, 18), PBC_EXIT_USAGE);
    pbc_args_free(&a);
    fclose(stderr);
    stderr = saved;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void llvm_args__response_files(void) {
    char dir[] = "/tmp/pb_llvm_args_XXXXXX", cwd[4096];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
    CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
    /* the quoting llvm-profdata-19 read as: -o, q"x, a b\c, back slash */
    write_file("r4", "-o 'q\\\"x' \"a b\\\\c\" back\\ slash\n");
    /* nested: names relative to the working directory, as LLVM reads them */
    CU_ASSERT_EQUAL(mkdir("sub", 0700), 0);
    write_file("r0", "@sub/r2");
    write_file("sub/r2", "in.profraw @r3");
    write_file("r3", "--sparse");
    write_file("r5", "@r5");
    pbc_args a;
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "@r4", NULL), 0);
    CU_ASSERT_STRING_EQUAL(pbc_args_last(&a, PBC_LO_OUTPUT)->value, "q\"x");
    CU_ASSERT_EQUAL_FATAL(a.npos, 2);
    CU_ASSERT_STRING_EQUAL(a.pos[0], "a b\\c");
    CU_ASSERT_STRING_EQUAL(a.pos[1], "back slash");
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "@r0", NULL), 0);
    CU_ASSERT_EQUAL(a.npos, 1);
    CU_ASSERT_PTR_NOT_NULL(pbc_args_last(&a, PBC_LO_SPARSE));
    pbc_args_free(&a);
    /* a missing file stays a positional; recursion is an error */
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "@nonexistent", NULL), 0);
    CU_ASSERT_STRING_EQUAL(a.pos[0], "@nonexistent");
    pbc_args_free(&a);
    CU_ASSERT_EQUAL(parse(pbc_llvm_merge_options, &a, 19, "@r5", NULL), PBC_EXIT_USAGE);
    char **w = NULL;
    size_t nw = 0;
    CU_ASSERT_EQUAL(pbc_args_tokenize_gnu("  a\t''  b\"c d\"e\n", 16, &w, &nw), 0);
    CU_ASSERT_EQUAL_FATAL(nw, 3);
    CU_ASSERT_STRING_EQUAL(w[0], "a");
    CU_ASSERT_STRING_EQUAL(w[1], "");
    CU_ASSERT_STRING_EQUAL(w[2], "bc de");
    for (size_t i = 0; i < nw; i++) free(w[i]);
    free(w);
    CU_ASSERT_EQUAL(chdir(cwd), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static CU_TestInfo tests[] = {
    {"value_spellings", llvm_args__value_spellings},
    {"booleans_and_flags", llvm_args__booleans_and_flags},
    {"positionals_dashdash_and_unknown", llvm_args__positionals_dashdash_and_unknown},
    {"response_files", llvm_args__response_files},
    {"plugin_options_and_release_check", llvm_args__plugin_options_and_release_check},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_llvm_args[] = {{"llvm_args", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
