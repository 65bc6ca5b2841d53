#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# run-sample.sh -- the main job on the bundled sample: installs what is
# missing, builds a Release profbridge and runs it on
# testdata/samples/fib-doc.iprof (GraalVM's documented Fibonacci profile):
# validate, convert (iprof -> out/fib.iprof, out/fib.iprof.gz and the LLVM
# indexed out/fib.profdata, shown by llvm-profdata-19 itself), show.
# Works from any directory; results land in <repo>/out/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
die() { echo "run-sample: $*" >&2; exit 1; }

bash scripts/install-deps.sh || die "installing the dependencies failed"

build="$root/build-release"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null \
  || die "cmake configure failed"
cmake --build "$build" -j2 >/dev/null || die "build failed (run 'cmake --build $build' to see why)"
pb="$build/profbridge"
sample="testdata/samples/fib-doc.iprof"
mkdir -p out

step() { echo; echo "== $*"; }

step "profbridge validate $sample"
"$pb" validate "$sample" || die "the sample does not validate"

step "profbridge convert $sample -o out/fib.iprof"
"$pb" convert "$sample" -o out/fib.iprof || die "conversion to out/fib.iprof failed"
step "profbridge convert $sample -o out/fib.iprof.gz"
"$pb" convert "$sample" -o out/fib.iprof.gz || die "conversion to out/fib.iprof.gz failed"
gzip -t out/fib.iprof.gz || die "out/fib.iprof.gz is not a valid gzip file"
"$pb" validate out/fib.iprof out/fib.iprof.gz || die "the converted files do not validate"

step "profbridge convert $sample -o out/fib.profdata   (iprof -> LLVM indexed v12)"
"$pb" convert "$sample" -o out/fib.profdata || die "conversion to out/fib.profdata failed"
if command -v llvm-profdata-19 >/dev/null; then
  step "llvm-profdata-19 show --all-functions --counts --show-vtables out/fib.profdata"
  llvm-profdata-19 show --all-functions --counts --show-vtables out/fib.profdata \
    || die "llvm-profdata-19 cannot read out/fib.profdata"
fi

step "profbridge show $sample"
"$pb" show "$sample" || die "show failed"

echo
echo "run-sample: done; outputs in $root/out/"
