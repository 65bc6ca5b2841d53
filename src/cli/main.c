/* main.c -- placeholder until the CLI lands (see issue 2, section 5). */
#include <stdio.h>

#include "profbridge/profbridge.h"

int main(void) {
    printf("profbridge %s\n", pb_version());
    return 0;
}
