# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""bench/fleet.sh's Dask side: merges the inputs of LIST (one path a line)
on a LocalCluster of WORKERS processes into OUT and prints
"wall_s worker_peak_kib..." (each worker's peak RSS, from getrusage).

    /usr/bin/python3 bench/fleet_dask.py LIST OUT WORKERS [PARTITIONS]
"""
import logging
import resource
import sys
import time

from dask.distributed import Client, LocalCluster

import profbridge.dask


def peak_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main():
    lst, out, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
    parts = int(sys.argv[4]) if len(sys.argv) > 4 else None
    paths = [ln.strip() for ln in open(lst) if ln.strip()]
    with LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=None,
                      silence_logs=logging.CRITICAL, memory_limit=0) as cl, Client(cl) as c:
        c.wait_for_workers(workers)
        t = time.time()
        inputs = profbridge.dask.merge(paths, out, client=c, partitions=parts)
        wall = time.time() - t
        peaks = sorted(c.run(peak_kib).values())
    failed = sum(i.status == "failed" for i in inputs)
    print(f"{wall:.2f} " + " ".join(str(p) for p in peaks) + f" failed={failed}")


if __name__ == "__main__":
    main()
