/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * prefetch.h -- PBU_PREFETCH(p): asks the CPU to start loading the cache
 * line at p, for walks whose next targets are known a few steps ahead but
 * lie scattered in memory (hash slots, names sorted or looked up out of
 * their memory order). A hint only: a compiler without the builtin, or an
 * address that is never read, costs nothing but the evaluation of p.
 */
#ifndef PB_PREFETCH_H
#define PB_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define PBU_PREFETCH(p) __builtin_prefetch(p)
#else
#define PBU_PREFETCH(p) ((void)(p))
#endif

#endif
