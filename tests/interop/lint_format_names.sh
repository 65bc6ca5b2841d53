#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What a format is, is data: code asks pb_format_form_of, pb_format_family_of,
# pb_format_version_option or pb_format_streams (an origin: its plugin through
# pb_format_lookup, or pbi_origin_form below the registry) instead of
# comparing a plugin's or an origin's name with "raw", "indexed", "text",
# "iprof" or "json". A user's option value (--show-format text) is no plugin
# name and is not looked at.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
. "$(dirname "$0")/lib/lint-grep.bash"
name='(->name|\.name|pb_format_name\([^)]*\)|->format|origin\.format|format\[)'
lint_grep "format names compared (ask pb_format_form_of/pb_format_family_of, or pbi_origin_form below the registry):" \
  "ok: no plugin or origin names compared" \
  "strn?cmp\([^;]*$name\s*,\s*\"(raw|indexed|text|iprof|json)\"|strn?cmp\(\s*\"(raw|indexed|text|iprof|json)\"\s*,[^;]*$name" \
  '' 'src/*.c' 'formats/*.c'
