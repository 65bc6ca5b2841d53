/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * commands.h -- the subcommands of `profbridge`, one line each:
 *   PBC_COMMAND(name, function, one-line summary)
 * main.c builds the dispatch table and the global --help from this list and
 * cli.h declares the functions from it, so a new subcommand is one line here
 * plus its cmd_<name>.c. Each function gets argv[0] = "profbridge <name>"
 * and returns the process exit code (opts.h: PBC_EXIT_*).
 */
PBC_COMMAND(convert, pbc_cmd_convert, "convert a profile to another format (iprof, raw, indexed, text, json)")
PBC_COMMAND(show, pbc_cmd_show, "print a profile: Java view for iprof, llvm-profdata-N show output otherwise")
PBC_COMMAND(validate, pbc_cmd_validate, "check profiles and report every problem found")
PBC_COMMAND(dump, pbc_cmd_dump, "explain the bytes of a profile file, field by field")
PBC_COMMAND(merge, pbc_cmd_merge, "merge profiles as llvm-profdata merge does (weights, sparse, function filters)")
PBC_COMMAND(types, pbc_cmd_types, "type-profile analysis: receiver/instanceof/monitor types, indirect-call and vtable sites")
PBC_COMMAND(flame, pbc_cmd_flame, "flame graphs of iprof sampling profiles: folded stacks, speedscope JSON or an interactive SVG")
PBC_COMMAND(overlap, pbc_cmd_overlap, "how much two profiles overlap, as llvm-profdata overlap reports it")
PBC_COMMAND(diff, pbc_cmd_diff, "records only in A, only in B and changed, largest change first; exit 1 if different")
PBC_COMMAND(order, pbc_cmd_order, "a function order from temporal profile traces, as llvm-profdata order prints it")
PBC_COMMAND(cov, pbc_cmd_cov, "source coverage as llvm-cov-N export and report print it (JSON, lcov, tables)")
