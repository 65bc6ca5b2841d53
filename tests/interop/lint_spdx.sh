#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every source file -- code, scripts, build files, the linker script and the
# man page -- names its licence in an SPDX line near its top (REUSE's rule),
# so a file copied out of the tree still says under which terms. Profiles,
# fuzz corpora and Markdown are data and documentation: LICENSE covers them.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
want='SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.sh' '*.bash' '*.py' '*.cmake' '*.in' '*.map' \
                         '*CMakeLists.txt' 'docs/*.1' 'scripts/*' 'completion/*' '.ci/*')
else
  echo "lint_spdx: not a git checkout; skipped"
  exit 77
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  # the first five lines: after a shebang or roff's '\" t line
  head -n 5 -- "$f" | grep -qF "$want" || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "files without '$want' in their first five lines:"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "ok: ${#files[@]} source files carry the SPDX line"
