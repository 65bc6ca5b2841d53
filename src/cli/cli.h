/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cli.h -- shared declarations of the profbridge command-line tool.
 *
 * Subcommands live in cmd_<name>.c. The `show` printers (llvm-profdata's and
 * the Java view) are the library's: profbridge/show.h.
 */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "profbridge/profbridge.h"

/* Subcommands (commands.h): int pbc_cmd_<name>(int argc, char **argv),
 * argv[0] = "profbridge <name>"; the return value is the exit code. */
#define PBC_COMMAND(name, fn, summary) int fn(int argc, char **argv);
#include "commands.h"
#undef PBC_COMMAND

#endif
