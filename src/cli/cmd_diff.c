#include "cli.h"
#include "opts.h"
int pbc_cmd_diff(int argc, char **argv) { (void)argc; (void)argv; return PBC_EXIT_USAGE; }
