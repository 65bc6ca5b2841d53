/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * order.c -- `llvm-profdata order`: a function order from temporal profile
 * traces by LLVM's balanced partitioning (llvm/lib/Support/
 * BalancedPartitioning.cpp; the nodes from TemporalProfTraceTy::
 * createBPFunctionNodes in llvm/lib/ProfileData/InstrProf.cpp; the output
 * from order_main in llvm-profdata.cpp). docs/order.md explains the steps.
 *
 * The order must come out function for function as LLVM's, so this follows
 * LLVM's steps with LLVM's arithmetic: float gains summed in the same order,
 * log2 rounded double -> float as std::log2 is, std::mt19937 seeded with
 * the bucket number and libstdc++'s uniform_real_distribution<float>
 * (mt19937.c), and the element order libstdc++'s std::partition and
 * std::nth_element leave (ties between equal gains are broken by position,
 * so positions matter). Sorts whose keys are distinct (input positions,
 * (timestamp, id) pairs) or stable (gains) are plain sorts here.
 *
 * LLVM runs the two halves of each bisection on a thread pool; each half
 * has its own generator (seeded with its bucket) and its own nodes, so the
 * result does not depend on the threads, and this runs them in turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/intern.h"
#include "llvm/target.h"
#include "llvm/mt19937.h"
#include "profbridge/order.h"
#include "model/profile_records.h"
#include "llvm/stl_algo.h"
#include "util/api.h"
#include "util/grow.h"

/* ---- what differs between releases ----------------------------------------
 * The ORDER_* rows of src/llvm/target.h, each compared with the real
 * llvm-profdata-17, -18, -19, -21, -22, -23 and -24 by
 * tests/interop/order_llvm.sh; this is their view for one run. */

typedef struct order_rules {
    /* createBPFunctionNodes: 0 = LLVM 17/18 (utility node per trace and log2
     * of the timestamp, nodes in first-timestamp order across traces);
     * 1 = LLVM 19+ (one utility node per doubling of the timestamp, nodes
     * that are too rare or too common dropped, nodes sorted by (first
     * timestamp, id)). */
    int nodes_v2;
    /* BalancedPartitioning::split: 0 = std::nth_element, 1 = llvm::sort. */
    int split_sorts;
    /* The file-name prefix of local functions: ':' (LLVM 17, split only if
     * present) or ';' (LLVM 18+, getParsedIRPGOName). */
    char file_delim;
    /* The "# Warning: Mach-O ..." line (LLVM 18+). */
    int macho_warning;
    /* Names of vtables also resolve (getFuncOrVarName, LLVM 19+; from the
     * sources: traces never name vtables in practice). */
    int var_names;
    /* "# Ordered N functions" is the first output line (LLVM 18+); LLVM 17
     * prints it as a note on stderr. */
    int count_line;
    /* --num-test-traces exists (LLVM 19+). */
    int test_traces;
    /* The test traces' area is printed divided by their number ("Average",
     * LLVM 24+) instead of summed ("Total"). */
    int average_area;
} order_rules;

static int rules_for(int release, order_rules *r, pb_error *err) {
    pbi_llvm_target t;
    if (release == 0) release = PBI_LLVM_DEFAULT;
    if (pbi_llvm_target_of(release, &t) || !pbi_llvm_has(&t, PBI_LF_ORDER))
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "llvm_release",
                            "llvm-profdata order exists from LLVM 17 on (17..24), not in %d", release);
    r->nodes_v2 = pbi_llvm_has(&t, PBI_LF_ORDER_NODES_V2);
    r->split_sorts = pbi_llvm_has(&t, PBI_LF_ORDER_SPLIT_SORTS);
    r->file_delim = pbi_llvm_has(&t, PBI_LF_ORDER_SEMICOLON_PREFIX) ? ';' : ':';
    r->macho_warning = pbi_llvm_has(&t, PBI_LF_ORDER_MACHO_WARNING);
    r->var_names = pbi_llvm_has(&t, PBI_LF_ORDER_VAR_NAMES);
    r->count_line = pbi_llvm_has(&t, PBI_LF_ORDER_COUNT_LINE);
    r->test_traces = pbi_llvm_has(&t, PBI_LF_ORDER_TEST_TRACES);
    r->average_area = pbi_llvm_has(&t, PBI_LF_ORDER_AVERAGE_AREA);
    return 0;
}

/* ---- growable u32 arrays --------------------------------------------------- */

typedef struct u32vec {
    uint32_t *v;
    uint32_t n;
    size_t cap;
} u32vec;

static int u32_push(u32vec *a, uint32_t x) {
    if (pbu_grow((void **)&a->v, &a->cap, (size_t)a->n + 1, sizeof *a->v)) return PB_ENOMEM;
    a->v[a->n++] = x;
    return 0;
}

/* ---- the function nodes (createBPFunctionNodes) ---------------------------- */

typedef struct bp_node {
    uint64_t id;   /* the function's NameRef */
    u32vec uns;    /* its utility nodes, ascending */
    uint32_t bucket;
} bp_node;

typedef struct bp_trace {
    const uint64_t *refs;
    size_t n;
} bp_trace;

typedef struct fn_info { /* per distinct function, in first-seen order */
    uint64_t id;
    size_t first_ts;  /* smallest timestamp in any trace */
    uint32_t last_trace; /* v2: trace index + 1 where first_un was set */
    uint32_t first_un;
    u32vec uns;
} fn_info;

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_fn_ts_id(const void *a, const void *b) {
    const fn_info *x = a, *y = b;
    if (x->first_ts != y->first_ts) return x->first_ts < y->first_ts ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static unsigned log2_floor(uint64_t x) { /* llvm::Log2_64 for x > 0 */
    unsigned k = 0;
    while (x >>= 1) k++;
    return k;
}

typedef struct fn_table {
    fn_info *f;
    size_t n, cap;
    pbu_map index; /* id -> position in f */
} fn_table;

static int fn_get(fn_table *t, uint64_t id, size_t ts, uint32_t *out) {
    uint32_t k;
    if (pbu_map_get(&t->index, id, &k) == 0) {
        if (ts < t->f[k].first_ts) t->f[k].first_ts = ts;
        *out = k;
        return 0;
    }
    if (t->n == UINT32_MAX - 1) return PB_ENOMEM;
    if (pbu_grow((void **)&t->f, &t->cap, t->n + 1, sizeof *t->f)) return PB_ENOMEM;
    k = (uint32_t)t->n;
    if (pbu_map_put(&t->index, id, k)) return PB_ENOMEM;
    memset(&t->f[k], 0, sizeof t->f[k]);
    t->f[k].id = id;
    t->f[k].first_ts = ts;
    t->n++;
    *out = k;
    return 0;
}

static void fn_table_free(fn_table *t) {
    for (size_t i = 0; i < t->n; i++) free(t->f[i].uns.v);
    free(t->f);
    pbu_map_free(&t->index);
}

/* LLVM 17/18: for trace number T and a function first seen at timestamp s
 * in it, utility nodes T*N + floor(log2(s+1)) .. T*N + N-1, N = floor(log2
 * of the longest trace) + 1; the nodes in the order the functions appear
 * when the traces are walked timestamp by timestamp, all traces at once. */
static int nodes_v1(fn_table *t, const bp_trace *tr, size_t ntr) {
    size_t longest = 0;
    for (size_t k = 0; k < ntr; k++)
        if (tr[k].n > longest) longest = tr[k].n;
    uint32_t k;
    for (size_t ts = 0; ts < longest; ts++)
        for (size_t i = 0; i < ntr; i++)
            if (ts < tr[i].n && fn_get(t, tr[i].refs[ts], ts, &k)) return PB_ENOMEM;
    if (longest == 0) return 0;
    uint32_t n = log2_floor(longest) + 1;
    for (size_t i = 0; i < ntr; i++)
        for (size_t ts = 0; ts < tr[i].n; ts++) {
            if (pbu_map_get(&t->index, tr[i].refs[ts], &k)) return PB_ENOMEM; /* cannot happen */
            for (uint32_t l = log2_floor(ts + 1); l < n; l++)
                if (u32_push(&t->f[k].uns, (uint32_t)i * n + l)) return PB_ENOMEM;
        }
    for (size_t i = 0; i < t->n; i++) { /* llvm::sort + std::unique */
        u32vec *u = &t->f[i].uns;
        if (u->n < 2) continue;
        qsort(u->v, u->n, sizeof *u->v, cmp_u32);
        uint32_t w = 1;
        for (uint32_t r = 1; r < u->n; r++)
            if (u->v[r] != u->v[w - 1]) u->v[w++] = u->v[r];
        u->n = w;
    }
    return 0;
}

/* LLVM 19+: within a trace the utility node number goes up by one at
 * timestamps 1, 2, 4, 8, ... (the cutoff doubles); a function gets every
 * node from the one current at its first timestamp in the trace to the
 * trace's last; each trace starts a new node. Nodes used by one function
 * only, or by more than half of them, are dropped (RemoveOutlierUNs); the
 * functions are sorted by (smallest timestamp, NameRef). */
static int nodes_v2(fn_table *t, const bp_trace *tr, size_t ntr) {
    uint32_t max_un = 0, k;
    u32vec seen = {0};
    int rc = 0;
    for (size_t i = 0; i < ntr && !rc; i++) {
        size_t cutoff = 1;
        seen.n = 0;
        for (size_t ts = 0; ts < tr[i].n; ts++) {
            if ((rc = fn_get(t, tr[i].refs[ts], ts, &k))) break;
            if (ts >= cutoff) {
                ++max_un;
                cutoff = 2 * ts;
            }
            if (t->f[k].last_trace != i + 1) { /* IdToFirstUN.try_emplace */
                t->f[k].last_trace = (uint32_t)(i + 1);
                t->f[k].first_un = max_un;
                if ((rc = u32_push(&seen, k))) break;
            }
        }
        for (uint32_t s = 0; s < seen.n && !rc; s++)
            for (uint32_t un = t->f[seen.v[s]].first_un; un <= max_un && !rc; ++un)
                rc = u32_push(&t->f[seen.v[s]].uns, un);
        ++max_un;
    }
    free(seen.v);
    if (rc) return rc;
    uint32_t *freq = calloc((size_t)max_un + 1, sizeof *freq);
    if (!freq) return PB_ENOMEM;
    for (size_t i = 0; i < t->n; i++)
        for (uint32_t j = 0; j < t->f[i].uns.n; j++) freq[t->f[i].uns.v[j]]++;
    for (size_t i = 0; i < t->n; i++) { /* llvm::erase_if keeps the order */
        u32vec *u = &t->f[i].uns;
        uint32_t w = 0;
        for (uint32_t j = 0; j < u->n; j++) {
            uint32_t f = freq[u->v[j]];
            if (!(f <= 1 || 2 * (uint64_t)f > t->n)) u->v[w++] = u->v[j];
        }
        u->n = w;
    }
    free(freq);
    /* Distinct keys: any sort gives llvm::sort's order. */
    if (t->n > 1) qsort(t->f, t->n, sizeof *t->f, cmp_fn_ts_id);
    return 0;
}

/* ---- balanced partitioning ------------------------------------------------- */

#define SPLIT_DEPTH 18          /* BalancedPartitioningConfig defaults */
#define ITERATIONS_PER_SPLIT 40
#define SKIP_PROBABILITY 0.1f
#define LOG_CACHE_SIZE 16384

typedef struct bp_sig {
    uint32_t left, right;
    float gain_lr, gain_rl;
    int valid;
} bp_sig;

typedef struct bp_gain {
    float gain;
    uint32_t node;
} bp_gain;

typedef struct bp {
    const order_rules *rules;
    bp_node *nodes;    /* in input order: node i has InputOrderIndex i */
    uint32_t *perm;    /* LLVM's Nodes vector: node indices, permuted in place */
    size_t n;
    uint32_t *scratch; /* per utility node, 0 between uses */
    uint32_t *touched; /* utility nodes whose scratch entry is set */
    bp_sig *sigs;
    bp_gain *gains, *tmp;
    float log2_cache[LOG_CACHE_SIZE];
} bp;

/* std::log2(i) for an unsigned i: the double log2, rounded to float by
 * LLVM's float table. Computed in long double (atanh series on the
 * mantissa) to avoid needing libm; for every i below 2^21 and a sample up to
 * 2^32 it gives glibc's (float)log2(i) exactly (checked when this was written). */
static float log2_float(uint32_t n) {
    int e = 0;
    while ((n >> e) > 1) e++;
    long double m = (long double)n / (long double)(UINT64_C(1) << e); /* [1, 2) */
    if (m > 1.41421356237309504880L) {
        m /= 2;
        e++;
    }
    long double s = (m - 1) / (m + 1), s2 = s * s, term = s, sum = 0;
    for (int k = 1; k < 60; k += 2) {
        sum += term / k;
        term *= s2;
    }
    return (float)(double)(e + 2 * sum * 1.44269504088896340735992468100189214L);
}

static float log2_cached(const bp *b, uint32_t i) { return i < LOG_CACHE_SIZE ? b->log2_cache[i] : log2_float(i); }

/* A float product rounded to float before it is added: no fused multiply-add
 * even where the compiler may contract (LLVM's x86-64 build has no FMA). */
static float mulf(float a, float b) {
    volatile float r = a * b;
    return r;
}

/* logCost(X, Y) = -(X * log2(X + 1) + Y * log2(Y + 1)), in float. */
static float log_cost(const bp *b, uint32_t x, uint32_t y) {
    return -(mulf((float)x, log2_cached(b, x + 1)) + mulf((float)y, log2_cached(b, y + 1)));
}

/* libstdc++'s std::partition for random-access (= bidirectional) iterators:
 * from both ends, swapping the first misplaced pair. Returns the split. */
static size_t partition_nodes(bp *b, size_t first, size_t last, uint32_t left) {
    for (;;) {
        for (;;) {
            if (first == last) return first;
            if (b->nodes[b->perm[first]].bucket == left) first++;
            else break;
        }
        last--;
        for (;;) {
            if (first == last) return first;
            if (b->nodes[b->perm[last]].bucket != left) last--;
            else break;
        }
        uint32_t t = b->perm[first];
        b->perm[first] = b->perm[last];
        b->perm[last] = t;
        first++;
    }
}

static size_t partition_gains(bp *b, bp_gain *g, size_t first, size_t last, uint32_t left) {
    for (;;) {
        for (;;) {
            if (first == last) return first;
            if (b->nodes[g[first].node].bucket == left) first++;
            else break;
        }
        last--;
        for (;;) {
            if (first == last) return first;
            if (b->nodes[g[last].node].bucket != left) last--;
            else break;
        }
        bp_gain t = g[first];
        g[first] = g[last];
        g[last] = t;
        first++;
    }
}

/* llvm::stable_sort by descending gain: any stable sort gives its order. */
static void sort_gains_desc(bp_gain *g, bp_gain *tmp, size_t n) {
    if (n < 2) return;
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            bp_gain x = g[i];
            size_t k = i;
            while (k > 0 && x.gain > g[k - 1].gain) {
                g[k] = g[k - 1];
                k--;
            }
            g[k] = x;
        }
        return;
    }
    size_t h = n / 2;
    sort_gains_desc(g, tmp, h);
    sort_gains_desc(g + h, tmp, n - h);
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) tmp[o++] = g[j].gain > g[i].gain ? g[j++] : g[i++];
    while (i < h) tmp[o++] = g[i++];
    while (j < n) tmp[o++] = g[j++];
    memcpy(g, tmp, n * sizeof *g);
}

/* moveFunctionNode: one draw; a draw <= SkipProbability skips the move. */
static int move_node(bp *b, uint32_t ni, uint32_t left, uint32_t right, pbi_mt19937 *rng) {
    if (pbi_mt19937_canonical_float(rng) <= SKIP_PROBABILITY) return 0;
    bp_node *node = &b->nodes[ni];
    int from_left = node->bucket == left;
    node->bucket = from_left ? right : left;
    for (uint32_t j = 0; j < node->uns.n; j++) {
        bp_sig *s = &b->sigs[node->uns.v[j]];
        if (from_left) {
            s->left--;
            s->right++;
        } else {
            s->left++;
            s->right--;
        }
        s->valid = 0;
    }
    return 1;
}

/* runIteration: the number of nodes moved. */
static unsigned run_iteration(bp *b, size_t first, size_t last, uint32_t nsigs, uint32_t left,
                              uint32_t right, pbi_mt19937 *rng) {
    for (uint32_t k = 0; k < nsigs; k++) {
        bp_sig *s = &b->sigs[k];
        if (s->valid) continue;
        float cost = log_cost(b, s->left, s->right);
        s->gain_lr = 0.f;
        s->gain_rl = 0.f;
        if (s->left > 0) s->gain_lr = cost - log_cost(b, s->left - 1, s->right + 1);
        if (s->right > 0) s->gain_rl = cost - log_cost(b, s->left + 1, s->right - 1);
        s->valid = 1;
    }
    size_t n = last - first;
    bp_gain *g = b->gains;
    for (size_t i = 0; i < n; i++) {
        const bp_node *node = &b->nodes[b->perm[first + i]];
        int from_left = node->bucket == left;
        float gain = 0.f;
        for (uint32_t j = 0; j < node->uns.n; j++)
            gain += from_left ? b->sigs[node->uns.v[j]].gain_lr : b->sigs[node->uns.v[j]].gain_rl;
        g[i].gain = gain;
        g[i].node = b->perm[first + i];
    }
    size_t mid = partition_gains(b, g, 0, n, left);
    sort_gains_desc(g, b->tmp, mid);
    sort_gains_desc(g + mid, b->tmp, n - mid);
    unsigned moved = 0;
    for (size_t i = 0; i < mid && mid + i < n; i++) { /* llvm::zip */
        if (g[i].gain + g[mid + i].gain <= 0.f) break;
        moved += (unsigned)move_node(b, g[i].node, left, right, rng);
        moved += (unsigned)move_node(b, g[mid + i].node, left, right, rng);
    }
    return moved;
}

/* runIterations: drops the utility nodes of one function only or of all of
 * them, renumbers the rest densely in order of appearance, counts them per
 * side, then iterates until nothing moves. */
static void run_iterations(bp *b, size_t first, size_t last, uint32_t left, uint32_t right, pbi_mt19937 *rng) {
    uint32_t num = (uint32_t)(last - first), ntouched = 0;
    for (size_t i = first; i < last; i++) {
        const u32vec *u = &b->nodes[b->perm[i]].uns;
        for (uint32_t j = 0; j < u->n; j++)
            if (b->scratch[u->v[j]]++ == 0) b->touched[ntouched++] = u->v[j];
    }
    for (size_t i = first; i < last; i++) {
        u32vec *u = &b->nodes[b->perm[i]].uns;
        uint32_t w = 0;
        for (uint32_t j = 0; j < u->n; j++) {
            uint32_t c = b->scratch[u->v[j]];
            if (!(c == 1 || c == num)) u->v[w++] = u->v[j];
        }
        u->n = w;
    }
    for (uint32_t k = 0; k < ntouched; k++) b->scratch[b->touched[k]] = 0;
    /* renumber: scratch = new number + 1 */
    uint32_t nsigs = 0;
    for (size_t i = first; i < last; i++) {
        u32vec *u = &b->nodes[b->perm[i]].uns;
        for (uint32_t j = 0; j < u->n; j++) {
            uint32_t *slot = &b->scratch[u->v[j]];
            if (*slot == 0) {
                *slot = ++nsigs;
                b->touched[nsigs - 1] = u->v[j];
            }
            u->v[j] = *slot - 1;
        }
    }
    for (uint32_t k = 0; k < nsigs; k++) b->scratch[b->touched[k]] = 0;
    memset(b->sigs, 0, (size_t)nsigs * sizeof *b->sigs);
    for (size_t i = first; i < last; i++) {
        const bp_node *node = &b->nodes[b->perm[i]];
        for (uint32_t j = 0; j < node->uns.n; j++) {
            if (node->bucket == left) b->sigs[node->uns.v[j]].left++;
            else b->sigs[node->uns.v[j]].right++;
        }
    }
    for (unsigned it = 0; it < ITERATIONS_PER_SPLIT; it++)
        if (run_iteration(b, first, last, nsigs, left, right, rng) == 0) break;
}

static void bisect(bp *b, size_t first, size_t last, unsigned depth, uint32_t root) {
    size_t n = last - first;
    if (n <= 1 || depth >= SPLIT_DEPTH) { /* back to input order */
        if (n > 1) qsort(b->perm + first, n, sizeof *b->perm, cmp_u32);
        return;
    }
    pbi_mt19937 rng;
    pbi_mt19937_seed(&rng, root);
    uint32_t left = 2 * root, right = 2 * root + 1;
    /* split: the first (n + 1) / 2 nodes in input order go left */
    size_t half = (n + 1) / 2;
    if (b->rules->split_sorts) qsort(b->perm + first, n, sizeof *b->perm, cmp_u32);
    else pbi_stl_nth_element_u32(b->perm + first, n, half);
    for (size_t i = first; i < last; i++) b->nodes[b->perm[i]].bucket = i - first < half ? left : right;
    run_iterations(b, first, last, left, right, &rng);
    size_t mid = partition_nodes(b, first, last, left);
    bisect(b, first, mid, depth + 1, left);
    bisect(b, mid, last, depth + 1, right);
}

/* ---- the whole computation ------------------------------------------------- */

static int nomem(pb_error *err) {
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory ordering functions");
}

/* --num-test-traces: a release that has it, and fewer than the traces. */
static int check_test_traces(uint64_t ntest, size_t ntr, const order_rules *r, pb_error *err) {
    if (ntest && !r->test_traces)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "llvm-profdata order has --num-test-traces from LLVM 19 on");
    if (ntest && ntest >= ntr)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, PB_ORDER_NUM_TEST_TRACES,
                            "--num-test-traces must be smaller than the total number of traces: "
                            "expected: < %zu, actual: %llu",
                            ntr, (unsigned long long)ntest);
    return 0;
}

/* The functions of p's first ntr traces with their utility nodes, as the
 * release builds them. 0 or PB_ENOMEM (t is freed by the caller). */
static int trace_functions(const pb_profile *p, size_t ntr, const order_rules *r, fn_table *t) {
    bp_trace *tr = malloc((ntr ? ntr : 1) * sizeof *tr);
    if (!tr) return PB_ENOMEM;
    for (size_t i = 0; i < ntr; i++) tr[i].refs = pb_profile_trace(p, i, NULL, &tr[i].n);
    int rc = r->nodes_v2 ? nodes_v2(t, tr, ntr) : nodes_v1(t, tr, ntr);
    free(tr);
    return rc;
}

static void bp_free(bp *b) {
    if (!b) return;
    for (size_t i = 0; b->nodes && i < b->n; i++) free(b->nodes[i].uns.v);
    free(b->nodes);
    free(b->perm);
    free(b->scratch);
    free(b->touched);
    free(b->sigs);
    free(b->gains);
    free(b->tmp);
    free(b);
}

/* The bisection's state for t's functions, their utility nodes moved out
 * of t. NULL when memory runs out. */
static bp *bp_new(fn_table *t, const order_rules *r) {
    size_t n = t->n;
    uint32_t max_un = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < t->f[i].uns.n; j++)
            if (t->f[i].uns.v[j] > max_un) max_un = t->f[i].uns.v[j];
    bp *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->rules = r;
    b->n = n;
    b->nodes = calloc(n ? n : 1, sizeof *b->nodes);
    b->perm = malloc((n ? n : 1) * sizeof *b->perm);
    b->scratch = calloc((size_t)max_un + 1, sizeof *b->scratch);
    b->touched = malloc(((size_t)max_un + 1) * sizeof *b->touched);
    b->sigs = malloc(((size_t)max_un + 1) * sizeof *b->sigs);
    b->gains = malloc((n ? n : 1) * sizeof *b->gains);
    b->tmp = malloc((n ? n : 1) * sizeof *b->tmp);
    if (!b->nodes || !b->perm || !b->scratch || !b->touched || !b->sigs || !b->gains || !b->tmp) {
        bp_free(b);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        b->nodes[i].id = t->f[i].id;
        b->nodes[i].uns = t->f[i].uns; /* moved */
        t->f[i].uns = (u32vec){0};
        b->perm[i] = (uint32_t)i;
    }
    b->log2_cache[0] = 0.f;
    for (uint32_t i = 1; i < LOG_CACHE_SIZE; i++) b->log2_cache[i] = log2_float(i);
    return b;
}

/* The bisection's order of b's nodes as function ids. Leaves got
 * consecutive buckets from their offsets, so the final stable_sort by
 * bucket is the array order. */
static int ordered_ids(const bp *b, uint64_t **ids, size_t *nids) {
    if (!b->n) return 0;
    if (!(*ids = malloc(b->n * sizeof **ids))) return PB_ENOMEM;
    for (size_t i = 0; i < b->n; i++) (*ids)[i] = b->nodes[b->perm[i]].id;
    *nids = b->n;
    return 0;
}

static int order_ids(const pb_profile *p, const pb_order_options *o, const order_rules *r, uint64_t **ids,
                     size_t *nids, pb_error *err) {
    *ids = NULL;
    *nids = 0;
    size_t ntr = pb_profile_trace_count(p);
    uint64_t ntest = o ? o->num_test_traces : 0;
    int rc = check_test_traces(ntest, ntr, r, err);
    if (rc) return rc;
    fn_table t = {0};
    t.index = (pbu_map)PBU_MAP_INIT;
    rc = trace_functions(p, ntr - (size_t)ntest, r, &t);
    bp *b = NULL;
    if (!rc) rc = (b = bp_new(&t, r)) ? 0 : PB_ENOMEM;
    if (!rc) {
        bisect(b, 0, b->n, 0, 1);
        rc = ordered_ids(b, ids, nids);
    }
    bp_free(b);
    fn_table_free(&t);
    if (rc == PB_ENOMEM) return nomem(err);
    return rc;
}

int pb_profile_order(const pb_profile *p, const pb_order_options *o, uint64_t **ids, size_t *n, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (!ids) return pbu_null_arg(err, __func__, "ids");
    if (!n) return pbu_null_arg(err, __func__, "n");
    if (o && pbu_check_version(err, "pb_order_options", o->version, PB_ORDER_OPTIONS_VERSION)) return PB_EINVAL;
    order_rules r;
    if (!p || !ids || !n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "NULL argument");
    int rc = rules_for(o ? o->llvm_release : 0, &r, err);
    if (rc) return rc;
    return order_ids(p, o, &r, ids, n, err);
}

/* ---- output (order_main) --------------------------------------------------- */

/* The name the reader's symbol table gives a NameRef: a function's, or (LLVM
 * 19+, getFuncOrVarName) a vtable's; "" when there is none. */
static int name_of(const pb_profile *p, const order_rules *r, uint64_t ref, const char **name, size_t *len,
                   pb_error *err) {
    size_t idx;
    *name = "";
    *len = 0;
    /* out of memory for the index must not print an empty name (alloc-sweep) */
    if (pbi_profile_build_lookup(p)) return nomem(err);
    if (pb_profile_lookup_ref(p, ref, &idx, 1) > 0)
        return pb_profile_record_name(p, pb_profile_record(p, idx), name, len, NULL, err);
    uint32_t sym;
    if (r->var_names && pb_profile_find_symbol_md5(p, ref, &sym) == 0) {
        const pb_symbol *s = pb_profile_symbol(p, sym);
        if (s->name != PB_NONE) *name = pb_profile_str(p, s->name, len);
    }
    return 0;
}

/* The area under the page fault curve of the test traces, 32 functions a
 * page: for each function of a test trace that was ordered, the number of
 * distinct pages the trace has touched so far (unsigned, as LLVM's). */
static uint32_t fault_area(const pb_profile *p, size_t from, const uint64_t *ids, size_t n, int *nomem_) {
    pbu_map page = PBU_MAP_INIT;
    uint32_t area = 0;
    size_t npages = n / 32 + 1;
    unsigned char *touched = calloc(npages, 1);
    uint32_t *list = malloc(npages * sizeof *list);
    *nomem_ = !touched || !list;
    for (size_t i = 0; i < n && !*nomem_; i++)
        if (pbu_map_put(&page, ids[i], (uint32_t)(i / 32))) *nomem_ = 1;
    for (size_t k = from; k < pb_profile_trace_count(p) && !*nomem_; k++) {
        size_t len, distinct = 0;
        const uint64_t *refs = pb_profile_trace(p, k, NULL, &len);
        for (size_t j = 0; j < len; j++) {
            uint32_t pg;
            if (pbu_map_get(&page, refs[j], &pg)) continue;
            if (!touched[pg]) {
                touched[pg] = 1;
                list[distinct++] = pg;
            }
            area += (uint32_t)distinct;
        }
        for (size_t j = 0; j < distinct; j++) touched[list[j]] = 0;
    }
    free(touched);
    free(list);
    pbu_map_free(&page);
    return area;
}

int pb_profile_order_write(const pb_profile *p, const pb_order_options *o, pb_sink *out, size_t *num_ordered,
                           pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (!out) return pbu_null_arg(err, __func__, "out");
    if (o && pbu_check_version(err, "pb_order_options", o->version, PB_ORDER_OPTIONS_VERSION)) return PB_EINVAL;
    order_rules r;
    uint64_t *ids = NULL;
    size_t n = 0;
    if (!p || !out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "NULL argument");
    int rc = rules_for(o ? o->llvm_release : 0, &r, err);
    if (!rc) rc = order_ids(p, o, &r, &ids, &n, err);
    if (!rc && num_ordered) *num_ordered = n;
    if (!rc && r.count_line) rc = pb_sink_printf(out, err, "# Ordered %zu functions\n", n);
    if (!rc && o && o->num_test_traces) {
        int oom = 0;
        uint32_t area = fault_area(p, pb_profile_trace_count(p) - (size_t)o->num_test_traces, ids, n, &oom);
        /* raw_ostream << float: write_double, FloatStyle::Exponent, "%.6e" */
        if (oom) rc = nomem(err);
        else if (r.average_area)
            rc = pb_sink_printf(out, err, "# Average area under the page fault curve: %.6e\n",
                                (double)((float)area / (float)o->num_test_traces));
        else
            rc = pb_sink_printf(out, err, "# Total area under the page fault curve: %.6e\n", (double)(float)area);
    }
    if (!rc && r.macho_warning)
        rc = pb_sink_printf(out, err,
                            "# Warning: Mach-O may prefix symbols with \"_\" depending on the linkage and this "
                            "output does not take that into account. Some post-processing may be required "
                            "before passing to the linker via -order_file.\n");
    for (size_t i = 0; i < n && !rc; i++) {
        const char *name;
        size_t len;
        if ((rc = name_of(p, &r, ids[i], &name, &len, err))) break;
        const char *d = memchr(name, r.file_delim, len);
        /* ';' (getParsedIRPGOName): a prefix only when something follows;
         * ':' (LLVM 17): any colon splits. */
        if (d && (r.file_delim == ':' || d + 1 < name + len)) {
            rc = pb_sink_printf(out, err, "# %.*s\n%.*s\n", (int)(d - name), name, (int)(len - (size_t)(d + 1 - name)),
                                d + 1);
        } else {
            rc = pb_sink_printf(out, err, "%.*s\n", (int)len, name);
        }
    }
    free(ids);
    return rc;
}
