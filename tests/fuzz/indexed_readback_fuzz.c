/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_readback_fuzz.c -- libFuzzer target: any bytes through every reader
 * (detected); a model that reads goes through the indexed writer, which must
 * refuse with a message or write what the indexed reader reads back, stable on a
 * second trip (tests/fuzz/readback.h; issue 12, item 5). Seeds: every
 * folder of tests/fuzz/ (scripts/fuzz-run.sh).
 */
#include <stdio.h>
#include <stdlib.h>

#include "readback.h"

PBT_READBACK_FUZZ_TARGET("indexed")
