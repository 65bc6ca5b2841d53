# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""peak_rss.py CMD...: runs CMD and prints its peak resident set size in KiB
on stderr's last line ("peak_rss_kib N"); exits with CMD's status."""
import resource
import subprocess
import sys

rc = subprocess.call(sys.argv[1:])
print("peak_rss_kib %d" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(rc)
