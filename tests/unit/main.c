/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* main.c -- runs every CUnit suite (the list is generated from tests/unit/test_*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#define PB_SUITES(name) extern CU_SuiteInfo pb_suites_##name[];
#include "pb_suites.inc"
#undef PB_SUITES

int main(int argc, char **argv) {
    if (CU_initialize_registry() != CUE_SUCCESS) return 2;
#define PB_SUITES(name)                                                   \
    if (CU_register_suites(pb_suites_##name) != CUE_SUCCESS) {            \
        fprintf(stderr, "cannot register %s: %s\n", #name, CU_get_error_msg()); \
        return 2;                                                         \
    }
#include "pb_suites.inc"
#undef PB_SUITES
    CU_basic_set_mode(CU_BRM_VERBOSE);
    /* Optional argument: run only the suite of that name. */
    if (argc > 1) {
        CU_pSuite s = CU_get_suite(argv[1]);
        if (!s) {
            fprintf(stderr, "no suite %s\n", argv[1]);
            return 2;
        }
        CU_basic_run_suite(s);
    } else {
        CU_basic_run_tests();
    }
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (ran == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}
