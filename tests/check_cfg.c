/*
 * tests/check_cfg.c: post-dominators, the CFG builder and reconvergence
 * points.
 *
 *  - postdom: hand-made graphs with hand-computed immediate post-
 *    dominators, one row each (tcase_add_loop_test).
 *  - random: ir_postdom against a naive reference (bit-set dataflow on
 *    the reverse graph) on 200 random graphs of 2..40 nodes.  The random
 *    graphs include infinite loops and dead ends; the reference adds the
 *    same virtual exit edges as postdom.h describes (one from the highest-
 *    numbered node of each closed SCC), but finds them naively through a
 *    reachability matrix.
 *  - big: 100k-node graphs, to catch recursion and quadratic behaviour.
 *  - ir: ir_cfg_build on hand-built functions (blocks, edges, ipdoms,
 *    reconvergence PCs), independent of the parser.
 *  - dot: ptx_print_cfg_dot on a hand-built function.
 *  - parse: small PTX kernels through the parser (which builds the CFG),
 *    checking blocks, edges, ipdoms and f->reconv.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/arena.h"
#include "ptx/cfg.h"
#include "ptx/opcode.h"
#include "ptx/postdom.h"
#include "ptx/ptx.h"

Suite *cfg_suite(void);

#define X IR_EXIT_BLOCK

/* ---- graphs written as text ----
 *
 * succ: one field per node, separated by '|'; each field lists the
 * node's successors separated by spaces, "X" being the exit.  An empty
 * field is a node without successors.  ipdom: one entry per node. */

typedef struct Graph {
    uint32_t n;
    uint32_t *off;
    uint32_t *succ;
} Graph;

static uint32_t parse_node(const char **p)
{
    char *end;
    unsigned long v;

    while (**p == ' ') {
        (*p)++;
    }
    if (**p == 'X') {
        (*p)++;
        return X;
    }
    v = strtoul(*p, &end, 10);
    ck_assert_ptr_ne(end, *p);
    *p = end;
    return (uint32_t)v;
}

static void graph_parse(Graph *g, const char *text)
{
    const char *p;
    uint32_t cap = 64, m = 0;

    g->n = 1;
    for (p = text; *p; p++) {
        g->n += *p == '|';
    }
    g->off = calloc(g->n + 1, sizeof(*g->off));
    g->succ = malloc(cap * sizeof(*g->succ));
    ck_assert(g->off && g->succ);
    p = text;
    for (uint32_t u = 0; u < g->n; u++) {
        g->off[u] = m;
        for (;;) {
            while (*p == ' ') {
                p++;
            }
            if (*p == '|' || *p == '\0') {
                break;
            }
            if (m == cap) {
                cap *= 2;
                g->succ = realloc(g->succ, cap * sizeof(*g->succ));
                ck_assert(g->succ);
            }
            g->succ[m++] = parse_node(&p);
        }
        if (*p == '|') {
            p++;
        }
    }
    g->off[g->n] = m;
}

static void graph_free(Graph *g)
{
    free(g->off);
    free(g->succ);
}

static void format_ipdom(char *buf, size_t len, const uint32_t *ip,
                         uint32_t n)
{
    size_t at = 0;

    buf[0] = '\0';
    for (uint32_t u = 0; u < n && at < len; u++) {
        if (ip[u] == X) {
            at += (size_t)snprintf(buf + at, len - at, "%sX", u ? " " : "");
        } else {
            at += (size_t)snprintf(buf + at, len - at, "%s%u", u ? " " : "",
                                   ip[u]);
        }
    }
}

/* ---- (a) hand-made graphs ---- */

typedef struct PdCase {
    const char *name;
    const char *succ;
    const char *ipdom;
} PdCase;

static const PdCase pd_cases[] = {
    /* 0 -> 1 -> 2 -> exit */
    { "straight line", "1|2|X", "1 2 X" },
    { "single node", "X", "X" },
    /* if (c) A else B; join */
    { "diamond", "1 2|3|3|X", "3 3 3 X" },
    /* if (c) A; join */
    { "if without else", "1 2|2|X", "2 2 X" },
    /* if (a) { if (b) C else D; E } F */
    { "nested ifs", "1 5|2 3|4|4|5|X", "5 4 4 4 5 X" },
    /* 0; while (1: c) { 2 } 3 */
    { "while loop", "1|2 3|1|X", "1 3 1 X" },
    /* 0; do { 1; 2 } while (c); 3 */
    { "do-while", "1|2|1 3|X", "1 2 3 X" },
    /* 0; while (1: c) { if (2: a) break; if (3: b) continue; 4; 5 } 6 */
    { "loop with break and continue", "1|2 6|3 6|1 4|5|1|X",
      "1 6 6 1 5 1 X" },
    /* 0; while (1: c) { if (2: d) return; 3 } 4: return */
    { "early return in a loop", "1|2 4|3 X|1|X", "1 X X 1 X" },
    { "two returns", "1 2|X|X", "X X X" },
    { "return on one side", "1 2|X|3|X", "X X 3 X" },
    /* guarded ret: @p ret; 1 */
    { "guarded ret", "X 1|X", "X X" },
    /* brx.idx with four targets that all join at 5 */
    { "switch", "1 2 3 4|5|5|5|5|X", "5 5 5 5 5 X" },
    /* case 1 falls into case 2 */
    { "switch with fall-through", "1 2 3|2|4|4|X", "4 2 4 4 X" },
    /* one case returns early */
    { "switch with return", "1 2 3|4|X|4|X", "X 4 X 4 X" },
    /* AFR Fig. 3.2: A=0 B=1 C=2 D=3 E=4 F=5 G=6, then exit block 7 */
    { "AFR do-while with nested ifs", "1 5|2 3|4|4|6|6|0 7|X",
      "6 4 4 4 6 6 7 X" },
    /* outer while (1) { inner while (2) { 3 } 4 } 5 */
    { "nested loops", "1|2 5|3 4|2|1|X", "1 5 4 2 1 X" },
    /* for (;;) { 1; 2 }: virtual exit edge from 2 (the bottom) */
    { "infinite loop", "1|2|1", "1 2 X" },
    /* for (;;) { if (1) 2 else 3; 4 }: the if joins at 4, not at exit */
    { "infinite loop with if/else", "1|2 3|4|4|1", "1 4 4 4 X" },
    /* if (0) for (;;) { 1 2 } else 3 */
    { "infinite loop on one side", "1 3|2|1|X", "X 2 X X" },
    /* for (;;) { 1; while (2) ; 3 } */
    { "infinite loop around a loop", "1|2|2 3|1", "1 2 3 X" },
    /* two diverging paths into a closed loop {3,4}: only 4 gets the
     * virtual edge, so 0's paths still join at 3 */
    { "paths into an infinite loop", "1 2|3|3|4|3", "3 3 3 4 X" },
    { "two infinite loops", "1 3|2|1|4|3", "X 2 X 4 X" },
    /* 1 and 2 jump into each other: two loop entries */
    { "irreducible loop", "1 2|2 3|1 3|X", "3 3 3 X" },
    { "irreducible, exits from both", "1 2|2 X|1 X", "X X X" },
    /* 2 is reachable from nowhere; 3 is unreachable and a dead end */
    { "unreachable nodes", "1|X|1|", "1 X 1 X" },
    { "self-loop", "1|1 2|X", "1 2 X" },
    { "infinite self-loop", "1 2|1|X", "X X X" },
    /* multigraph: both edges of a branch go to the same block */
    { "duplicate edges", "1 1|X", "1 X" },
    /* a loop whose only way out is through its header */
    { "exit from the header", "1|2 X|3 4|1|1", "1 X 1 1 1" },
};

#define N_PD_CASES (int)(sizeof(pd_cases) / sizeof(pd_cases[0]))

START_TEST(test_postdom_table)
{
    const PdCase *c = &pd_cases[_i];
    Graph g;
    uint32_t *ip;
    char got[512];

    graph_parse(&g, c->succ);
    ip = malloc(g.n * sizeof(*ip));
    ck_assert_ptr_nonnull(ip);
    ck_assert_int_eq(ir_postdom(g.n, g.off, g.succ, ip), 0);
    format_ipdom(got, sizeof(got), ip, g.n);
    ck_assert_msg(strcmp(got, c->ipdom) == 0, "%s: got \"%s\", want \"%s\"",
                  c->name, got, c->ipdom);
    free(ip);
    graph_free(&g);
}
END_TEST

START_TEST(test_postdom_empty)
{
    uint32_t off[1] = { 0 };

    ck_assert_int_eq(ir_postdom(0, off, NULL, NULL), 0);
}
END_TEST

START_TEST(test_postdom_bad_input)
{
    uint32_t off[3] = { 0, 1, 2 };
    uint32_t succ[2] = { 1, 7 };
    uint32_t ip[2] = { 42, 42 };

    ck_assert_int_eq(ir_postdom(2, off, succ, ip), -1);
    ck_assert_uint_eq(ip[0], 42);
}
END_TEST

/* ---- (b) random graphs against a naive reference ---- */

static uint64_t rng_state;

static uint32_t rng(void)
{
    /* xorshift64*: deterministic per test index. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Naive post-dominators.  Nodes 0..n-1, exit = n; n <= 63 so a node set
 * fits a uint64_t. */
static void ref_postdom(uint32_t n, const uint32_t *off, const uint32_t *succ,
                        uint32_t *ipdom)
{
    uint64_t reach[64], pdom[64], all = (n + 1 == 64) ? ~0ULL
                                                      : (1ULL << (n + 1)) - 1;
    bool vexit[64] = { false };
    bool changed;

    /* reach[u]: nodes reachable from u by one or more edges (exit = bit
     * n), by iterating to a fixpoint. */
    for (uint32_t u = 0; u < n; u++) {
        reach[u] = 0;
        for (uint32_t e = off[u]; e < off[u + 1]; e++) {
            reach[u] |= 1ULL << (succ[e] == X ? n : succ[e]);
        }
    }
    do {
        changed = false;
        for (uint32_t u = 0; u < n; u++) {
            uint64_t r = reach[u];
            for (uint32_t v = 0; v < n; v++) {
                if (r & (1ULL << v)) {
                    r |= reach[v];
                }
            }
            if (r != reach[u]) {
                reach[u] = r;
                changed = true;
            }
        }
    } while (changed);

    /* Virtual exit edges: trapped u is in a closed SCC when every node
     * it reaches reaches it back; the SCC's root is its largest node. */
    for (uint32_t u = 0; u < n; u++) {
        bool closed = true, largest = true;
        if (reach[u] & (1ULL << n)) {
            continue;
        }
        for (uint32_t v = 0; v < n; v++) {
            bool fwd = v == u || (reach[u] & (1ULL << v));
            bool back = v == u || (reach[v] & (1ULL << u));
            if (fwd && !back) {
                closed = false;
            }
            if (fwd && back && v > u) {
                largest = false;
            }
        }
        vexit[u] = closed && largest;
    }

    /* PDom(exit) = {exit}; PDom(u) = {u} | AND of PDom(successors). */
    for (uint32_t u = 0; u < n; u++) {
        pdom[u] = all;
    }
    pdom[n] = 1ULL << n;
    do {
        changed = false;
        for (uint32_t u = 0; u < n; u++) {
            uint64_t p = all;
            for (uint32_t e = off[u]; e < off[u + 1]; e++) {
                p &= pdom[succ[e] == X ? n : succ[e]];
            }
            if (vexit[u]) {
                p &= pdom[n];
            }
            p |= 1ULL << u;
            if (p != pdom[u]) {
                pdom[u] = p;
                changed = true;
            }
        }
    } while (changed);

    /* ipdom(u): the strict post-dominator d that all the others post-
     * dominate, i.e. whose own set holds all of u's strict ones. */
    for (uint32_t u = 0; u < n; u++) {
        uint64_t strict = pdom[u] & ~(1ULL << u);
        ipdom[u] = UINT32_MAX - 1;
        for (uint32_t d = 0; d <= n; d++) {
            if ((strict & (1ULL << d)) && (pdom[d] & strict) == strict) {
                ipdom[u] = d == n ? X : d;
            }
        }
        ck_assert_msg(ipdom[u] != UINT32_MAX - 1, "reference: no ipdom");
    }
}

static void random_graph(Graph *g, uint32_t n, uint32_t exit_pct)
{
    g->n = n;
    g->off = malloc((n + 1) * sizeof(*g->off));
    g->succ = malloc(n * 4 * sizeof(*g->succ));
    ck_assert(g->off && g->succ);
    uint32_t m = 0;
    for (uint32_t u = 0; u < n; u++) {
        /* Mostly one or two successors, like real code; sometimes a
         * switch, rarely a dead end. */
        uint32_t r = rng() % 100, k = r < 3 ? 0 : r < 45 ? 1 : r < 90 ? 2
                                                 : 3 + rng() % 2;
        g->off[u] = m;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t t;
            if (rng() % 100 < exit_pct) {
                t = X;
            } else if (rng() % 2) {
                /* forward edges dominate in laid-out code */
                t = u + 1 < n ? u + 1 + rng() % (n - u - 1) : X;
            } else {
                t = rng() % n;
            }
            g->succ[m++] = t;
        }
    }
    g->off[n] = m;
}

START_TEST(test_postdom_random)
{
    Graph g;
    uint32_t n, ip[40], want[40];
    char got_s[512], want_s[512];

    rng_state = 0x9E3779B97F4A7C15ULL * (uint64_t)(_i + 1);
    n = 2 + rng() % 39;
    /* A spread of exit densities: from nearly closed graphs full of
     * infinite loops to graphs where most nodes return. */
    random_graph(&g, n, (uint32_t)(_i % 5) * 6);
    ck_assert_int_eq(ir_postdom(n, g.off, g.succ, ip), 0);
    ref_postdom(n, g.off, g.succ, want);
    format_ipdom(got_s, sizeof(got_s), ip, n);
    format_ipdom(want_s, sizeof(want_s), want, n);
    ck_assert_msg(memcmp(ip, want, n * sizeof(*ip)) == 0,
                  "graph %d (n=%u): got \"%s\", want \"%s\"", _i, n, got_s,
                  want_s);
    graph_free(&g);
}
END_TEST

/* ---- (c) big graphs ---- */

#define BIG 100000u

/* Each ck_assert records a checkpoint, which valgrind makes slow over
 * 100k nodes: count mismatches instead and assert once. */
static uint32_t big_nbad, big_bad_node, big_bad_got, big_bad_want;

static void big_expect(const uint32_t *ip, uint32_t u, uint32_t want)
{
    if (ip[u] != want && big_nbad++ == 0) {
        big_bad_node = u;
        big_bad_got = ip[u];
        big_bad_want = want;
    }
}

static void big_check(void)
{
    uint32_t nbad = big_nbad;

    big_nbad = 0;
    ck_assert_msg(nbad == 0, "%u wrong ipdoms; first: node %u got %u want %u",
                  nbad, big_bad_node, big_bad_got, big_bad_want);
}

/* A chain of BIG/3 diamonds: 3k -> {3k+1, 3k+2} -> 3k+3. */
START_TEST(test_postdom_big_diamonds)
{
    uint32_t n = BIG / 3 * 3 + 1;
    uint32_t *off = malloc((n + 1) * sizeof(*off));
    uint32_t *succ = malloc(2 * n * sizeof(*succ));
    uint32_t *ip = malloc(n * sizeof(*ip));
    uint32_t m = 0;

    ck_assert(off && succ && ip);
    for (uint32_t u = 0; u < n; u++) {
        off[u] = m;
        if (u == n - 1) {
            succ[m++] = X;
        } else if (u % 3 == 0) {
            succ[m++] = u + 1;
            succ[m++] = u + 2;
        } else {
            succ[m++] = u - u % 3 + 3;
        }
    }
    off[n] = m;
    ck_assert_int_eq(ir_postdom(n, off, succ, ip), 0);
    for (uint32_t u = 0; u + 1 < n; u++) {
        big_expect(ip, u, u - u % 3 + 3);
    }
    big_expect(ip, n - 1, X);
    big_check();
    free(off);
    free(succ);
    free(ip);
}
END_TEST

/* BIG/2 nested ifs, if (c0) { if (c1) { ... } j1 } j0: the post-
 * dominator tree is one path BIG nodes deep. */
START_TEST(test_postdom_big_nested)
{
    uint32_t h = BIG / 2, n = 2 * h + 1;
    uint32_t *off = malloc((n + 1) * sizeof(*off));
    uint32_t *succ = malloc(2 * n * sizeof(*succ));
    uint32_t *ip = malloc(n * sizeof(*ip));
    uint32_t m = 0;

    ck_assert(off && succ && ip);
    /* Branch k < h: then-side k+1, else-side skips to its join 2h-k.
     * Node h is the innermost body; joins 2h-k fall into 2h-k+1; the
     * last node 2h returns. */
    for (uint32_t u = 0; u < n; u++) {
        off[u] = m;
        if (u < h) {
            succ[m++] = u + 1;
            succ[m++] = 2 * h - u;
        } else if (u < 2 * h) {
            succ[m++] = u + 1;
        } else {
            succ[m++] = X;
        }
    }
    off[n] = m;
    ck_assert_int_eq(ir_postdom(n, off, succ, ip), 0);
    for (uint32_t u = 0; u < h; u++) {
        big_expect(ip, u, 2 * h - u);
    }
    for (uint32_t u = h; u < 2 * h; u++) {
        big_expect(ip, u, u + 1);
    }
    big_expect(ip, 2 * h, X);
    big_check();
    free(off);
    free(succ);
    free(ip);
}
END_TEST

/* BIG/2 nested loops inside a for (;;): the whole graph is one closed
 * SCC.  Exercises deep DFS stacks, the SCC pass, and the nesting that
 * makes Cooper-Harvey-Kennedy quadratic (each latch would walk its
 * header's whole post-dominator chain). */
START_TEST(test_postdom_big_loops)
{
    uint32_t h = BIG / 2, n = 2 * h;
    uint32_t *off = malloc((n + 1) * sizeof(*off));
    uint32_t *succ = malloc(2 * n * sizeof(*succ));
    uint32_t *ip = malloc(n * sizeof(*ip));
    uint32_t m = 0;

    ck_assert(off && succ && ip);
    /* Headers 0..h-1 fall into the next; latch n-1-k jumps back to
     * header k or falls through (the outermost latch, n-1, loops back
     * forever: the whole graph is one closed SCC). */
    for (uint32_t u = 0; u < n; u++) {
        off[u] = m;
        if (u < h) {
            succ[m++] = u + 1;
        } else {
            succ[m++] = n - 1 - u;
            if (u + 1 < n) {
                succ[m++] = u + 1;
            }
        }
    }
    off[n] = m;
    ck_assert_int_eq(ir_postdom(n, off, succ, ip), 0);
    /* Virtual exit from n-1; each node's ipdom is the next one. */
    for (uint32_t u = 0; u + 1 < n; u++) {
        big_expect(ip, u, u + 1);
    }
    big_expect(ip, n - 1, X);
    big_check();
    free(off);
    free(succ);
    free(ip);
}
END_TEST

/* A big random graph: no expected values, but it must finish quickly
 * and give every node an ipdom that post-dominates it one step up. */
START_TEST(test_postdom_big_random)
{
    Graph g;
    uint32_t *ip;

    rng_state = 12345;
    random_graph(&g, BIG, 5);
    ip = malloc(BIG * sizeof(*ip));
    ck_assert_ptr_nonnull(ip);
    ck_assert_int_eq(ir_postdom(BIG, g.off, g.succ, ip), 0);
    for (uint32_t u = 0; u < BIG; u++) {
        bool ok = ip[u] == X || (ip[u] < BIG && ip[u] != u);
        big_expect(ip, u, ok ? ip[u] : UINT32_MAX - 1);
    }
    big_check();
    free(ip);
    graph_free(&g);
}
END_TEST

/* ---- (d) ir_cfg_build on hand-built functions ----
 *
 * A function is a list of HInsn rows: an optional code label before the
 * instruction, the mnemonic, whether it is guarded (@%p), and its
 * target: a label for bra, a space-separated .branchtargets list for
 * brx.idx.  A row with a label and no mnemonic puts the label at the end
 * of the function; an empty row ends the list.  Target "?" names no label.
 *
 * Expected CFGs are written as "first-end:succ,succ/ipdom" per block
 * (instruction ranges, X = exit) and reconvergence PCs as "insn>pc" for
 * every instruction whose reconv is not UINT32_MAX. */

typedef struct HInsn {
    const char *label;
    const char *op;
    bool guarded;
    const char *target;
} HInsn;

typedef struct HFunc {
    IrModule m;
    IrFunc f;
} HFunc;

static int32_t h_label_id(const IrFunc *f, const char *name, size_t len)
{
    if (len == 1 && name[0] == '?') {
        return 999;
    }
    for (uint32_t k = 0; k < f->nlabels; k++) {
        if (f->labels[k].kind == IR_LABEL_CODE
            && strlen(f->labels[k].name) == len
            && memcmp(f->labels[k].name, name, len) == 0) {
            return (int32_t)k;
        }
    }
    ck_abort_msg("unknown label %.*s", (int)len, name);
    return -1;
}

static void h_build(HFunc *h, const HInsn *rows)
{
    PtxArena *a = ptx_arena_new();
    IrFunc *f = &h->f;
    uint32_t nrows = 0, nlab = 0, nbt = 0;

    memset(h, 0, sizeof(*h));
    h->m.arena = a;
    f->name = "hand";
    while (rows[nrows].label || rows[nrows].op) {
        nlab += rows[nrows].label != NULL;
        nbt += rows[nrows].op && strcmp(rows[nrows].op, "brx.idx") == 0;
        nrows++;
    }
    /* %p guards, %r indexes brx.idx. */
    f->nregs = 2;
    f->regs = ptx_arena_alloc(a, 2 * sizeof(*f->regs));
    f->regs[0].name = "%p";
    f->regs[0].type = PTX_T_PRED;
    f->regs[1].name = "%r";
    f->regs[1].type = PTX_T_U32;
    f->labels = ptx_arena_alloc(a, (nlab + nbt) * sizeof(*f->labels));
    f->insns = ptx_arena_alloc(a, nrows * sizeof(*f->insns));
    for (uint32_t i = 0; i < nrows; i++) {
        if (rows[i].label) {
            IrLabel *l = &f->labels[f->nlabels++];
            l->name = rows[i].label;
            l->kind = IR_LABEL_CODE;
            l->insn = f->ninsns;
        }
        if (rows[i].op) {
            f->ninsns++;
        }
    }
    for (uint32_t i = 0, k = 0; i < nrows; i++) {
        const HInsn *r = &rows[i];
        IrInsn *in;
        size_t used;
        if (!r->op) {
            continue;
        }
        in = &f->insns[k++];
        in->op = (uint16_t)ptx_opcode_lookup(r->op, strlen(r->op), &used);
        ck_assert_msg(in->op != PTX_OP_INVALID && used == strlen(r->op),
                      "opcode %s", r->op);
        in->guard = r->guarded ? 0 : -1;
        in->opnds = ptx_arena_alloc(a, 2 * sizeof(*in->opnds));
        if (strcmp(r->op, "bra") == 0) {
            in->nopnds = 1;
            in->opnds[0].kind = IR_O_LABEL;
            in->opnds[0].id = h_label_id(f, r->target, strlen(r->target));
        } else if (strcmp(r->op, "brx.idx") == 0) {
            IrLabel *bt = &f->labels[f->nlabels];
            const char *p = r->target;
            bt->name = "$ts";
            bt->kind = IR_LABEL_BRANCHTARGETS;
            bt->targets = ptx_arena_alloc(a, 16 * sizeof(*bt->targets));
            while (*p) {
                size_t len = strcspn(p, " ");
                ck_assert(bt->ntargets < 16);
                bt->targets[bt->ntargets++] = h_label_id(f, p, len);
                p += len + (p[len] == ' ');
            }
            in->nopnds = 2;
            in->opnds[0].kind = IR_O_REG;
            in->opnds[0].id = 1;
            in->opnds[1].kind = IR_O_LABEL;
            in->opnds[1].id = (int32_t)f->nlabels++;
        }
    }
}

static void h_free(HFunc *h)
{
    ptx_arena_free(h->m.arena);
}

static void put_node(char *buf, size_t len, size_t *at, uint32_t b)
{
    if (*at >= len) {
        return;
    }
    if (b == X) {
        *at += (size_t)snprintf(buf + *at, len - *at, "X");
    } else {
        *at += (size_t)snprintf(buf + *at, len - *at, "%u", b);
    }
}

static void describe_cfg(const IrFunc *f, char *buf, size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (uint32_t b = 0; b < f->nblocks && at < len; b++) {
        const IrBlock *bk = &f->blocks[b];
        at += (size_t)snprintf(buf + at, len - at, "%s%u-%u:", b ? " " : "",
                               bk->first, bk->end);
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            if (k > 0 && at < len) {
                at += (size_t)snprintf(buf + at, len - at, ",");
            }
            put_node(buf, len, &at, bk->succ[k]);
        }
        if (at < len) {
            at += (size_t)snprintf(buf + at, len - at, "/");
        }
        put_node(buf, len, &at, bk->ipdom);
    }
}

static void describe_reconv(const IrFunc *f, char *buf, size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < f->ninsns && at < len; i++) {
        uint32_t r = ir_reconv_pc(f, i);
        ck_assert_uint_eq(r, f->reconv[i]);
        if (r != UINT32_MAX) {
            at += (size_t)snprintf(buf + at, len - at, "%s%u>%u",
                                   at ? " " : "", i, r);
        }
    }
}

/* What every built CFG must satisfy, whatever the function. */
static void check_cfg_invariants(const IrFunc *f)
{
    uint32_t at = 0;

    if (f->ninsns == 0) {
        ck_assert_uint_eq(f->nblocks, 0);
        return;
    }
    ck_assert_ptr_nonnull(f->blocks);
    ck_assert_ptr_nonnull(f->reconv);
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const IrBlock *bk = &f->blocks[b];
        /* Blocks tile the instructions in order. */
        ck_assert_uint_eq(bk->first, at);
        ck_assert_uint_gt(bk->end, bk->first);
        at = bk->end;
        for (uint32_t i = bk->first; i < bk->end; i++) {
            ck_assert_uint_eq(f->insns[i].block, b);
        }
        ck_assert_uint_gt(bk->nsucc, 0);
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            uint32_t s = bk->succ[k], hits = 0;
            ck_assert(s == X || s < f->nblocks);
            for (uint32_t j = 0; j < bk->nsucc; j++) {
                hits += bk->succ[j] == s;
            }
            ck_assert_uint_eq(hits, 1);
            if (s != X) {
                /* ... and each edge is in its target's pred list. */
                const IrBlock *t = &f->blocks[s];
                hits = 0;
                for (uint32_t j = 0; j < t->npred; j++) {
                    hits += t->pred[j] == b;
                }
                ck_assert_uint_eq(hits, 1);
            }
        }
        for (uint32_t k = 0; k + 1 < bk->npred; k++) {
            ck_assert_uint_lt(bk->pred[k], bk->pred[k + 1]);
        }
        ck_assert(bk->ipdom == X || (bk->ipdom < f->nblocks
                                     && bk->ipdom != b));
    }
    ck_assert_uint_eq(at, f->ninsns);
    ck_assert_uint_eq(ir_reconv_pc(f, f->ninsns), UINT32_MAX);
}

typedef struct IrCase {
    const char *name;
    HInsn rows[16];
    const char *cfg;
    const char *reconv;
} IrCase;

#define G true
static const IrCase ir_cases[] = {
    { "straight line",
      { { NULL, "add", 0, NULL }, { NULL, "add", 0, NULL },
        { NULL, "ret", 0, NULL } },
      "0-3:X/X", "" },
    /* @p bra ELSE; then; bra END; ELSE: else; END: ret */
    { "if/else",
      { { NULL, "bra", G, "ELSE" }, { NULL, "add", 0, NULL },
        { NULL, "bra", 0, "END" }, { "ELSE", "add", 0, NULL },
        { "END", "ret", 0, NULL } },
      "0-1:2,1/3 1-3:3/3 3-4:3/3 4-5:X/X", "0>4 2>4" },
    { "if without else",
      { { NULL, "bra", G, "END" }, { NULL, "add", 0, NULL },
        { "END", "ret", 0, NULL } },
      "0-1:2,1/2 1-2:2/2 2-3:X/X", "0>2" },
    /* do { @p bra BRK; body } while (q); BRK: ret */
    { "loop with break",
      { { NULL, "add", 0, NULL }, { "LOOP", "add", 0, NULL },
        { NULL, "bra", G, "BRK" }, { NULL, "add", 0, NULL },
        { NULL, "bra", G, "LOOP" }, { "BRK", "ret", 0, NULL } },
      "0-1:1/1 1-3:3,2/3 3-5:1,3/3 5-6:X/X", "2>5 4>5" },
    /* a guarded ret has the exit as a successor, so its reconvergence
     * point is always the exit */
    { "early ret",
      { { NULL, "ret", G, NULL }, { NULL, "add", 0, NULL },
        { NULL, "exit", 0, NULL } },
      "0-1:X,1/X 1-3:X/X", "" },
    { "early ret in a loop",
      { { "TOP", "add", 0, NULL }, { NULL, "exit", G, NULL },
        { NULL, "bra", G, "TOP" }, { NULL, "ret", 0, NULL } },
      "0-2:X,1/X 2-3:0,2/X 3-4:X/X", "" },
    { "guarded trap",
      { { NULL, "trap", G, NULL }, { NULL, "ret", 0, NULL } },
      "0-1:X,1/X 1-2:X/X", "" },
    /* a switch whose target list repeats C0 */
    { "brx.idx switch",
      { { NULL, "brx.idx", 0, "C0 C1 C2 C0" }, { "C0", "add", 0, NULL },
        { NULL, "bra", 0, "END" }, { "C1", "add", 0, NULL },
        { NULL, "bra", 0, "END" }, { "C2", "add", 0, NULL },
        { "END", "ret", 0, NULL } },
      "0-1:1,2,3/4 1-3:4/4 3-5:4/4 5-6:4/4 6-7:X/X", "0>6 2>6 4>6" },
    { "guarded brx.idx",
      { { NULL, "brx.idx", G, "A B" }, { NULL, "add", 0, NULL },
        { "A", "add", 0, NULL }, { "B", "ret", 0, NULL } },
      "0-1:2,3,1/3 1-2:2/2 2-3:3/3 3-4:X/X", "0>3" },
    /* calls do not end blocks; a call reconverges after itself, or at
     * exit when it is the last instruction */
    { "calls",
      { { NULL, "call", 0, NULL }, { NULL, "add", 0, NULL },
        { NULL, "call", G, NULL } },
      "0-3:X/X", "0>1" },
    /* branching to a label at the very end is leaving the function */
    { "label at the end",
      { { NULL, "bra", G, "END" }, { NULL, "add", 0, NULL },
        { "END", NULL, 0, NULL } },
      "0-1:X,1/X 1-2:X/X", "" },
    /* for (;;) { if (p) a else b; bar.sync }: reconverge at the bar */
    { "infinite loop with if/else",
      { { NULL, "add", 0, NULL }, { "TOP", "bra", G, "ELSE" },
        { NULL, "add", 0, NULL }, { NULL, "bra", 0, "JOIN" },
        { "ELSE", "add", 0, NULL }, { "JOIN", "bar.sync", 0, NULL },
        { NULL, "bra", 0, "TOP" } },
      "0-1:1/1 1-2:3,2/4 2-4:4/4 4-5:4/4 5-7:1/X", "1>5 3>5" },
    { "unreachable code",
      { { NULL, "bra", 0, "L" }, { NULL, "add", 0, NULL },
        { "L", "ret", 0, NULL } },
      "0-1:2/2 1-2:2/2 2-3:X/X", "0>2" },
    { "label without branch",
      { { NULL, "add", 0, NULL }, { "L", "add", 0, NULL },
        { NULL, "ret", 0, NULL } },
      "0-1:1/1 1-3:X/X", "" },
    { "guarded bra to the next insn",
      { { NULL, "bra", G, "N" }, { "N", "ret", 0, NULL } },
      "0-1:1/1 1-2:X/X", "0>1" },
    { "falling off the end",
      { { NULL, "bra", G, "L" }, { NULL, "add", 0, NULL },
        { "L", "add", 0, NULL } },
      "0-1:2,1/2 1-2:2/2 2-3:X/X", "0>2" },
    /* a target that names no label: the bra is a no-op */
    { "bad target",
      { { NULL, "bra", 0, "?" }, { NULL, "ret", 0, NULL } },
      "0-1:1/1 1-2:X/X", "0>1" },
};
#undef G

#define N_IR_CASES (int)(sizeof(ir_cases) / sizeof(ir_cases[0]))

START_TEST(test_ir_table)
{
    const IrCase *c = &ir_cases[_i];
    HFunc h;
    char got[512];

    h_build(&h, c->rows);
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    check_cfg_invariants(&h.f);
    describe_cfg(&h.f, got, sizeof(got));
    ck_assert_msg(strcmp(got, c->cfg) == 0, "%s: cfg \"%s\", want \"%s\"",
                  c->name, got, c->cfg);
    describe_reconv(&h.f, got, sizeof(got));
    ck_assert_msg(strcmp(got, c->reconv) == 0,
                  "%s: reconv \"%s\", want \"%s\"", c->name, got, c->reconv);
    h_free(&h);
}
END_TEST

START_TEST(test_ir_rebuild)
{
    static const HInsn rows[] = {
        { NULL, "bra", true, "E" }, { NULL, "add", false, NULL },
        { "E", "ret", false, NULL }, { NULL, NULL, false, NULL }
    };
    HFunc h;
    char first[256], second[256];

    h_build(&h, rows);
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    describe_cfg(&h.f, first, sizeof(first));
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    check_cfg_invariants(&h.f);
    describe_cfg(&h.f, second, sizeof(second));
    ck_assert_str_eq(first, second);
    ck_assert_uint_eq(ir_reconv_pc(&h.f, 0), 2);
    h_free(&h);
}
END_TEST

START_TEST(test_ir_no_body)
{
    static const HInsn none[] = { { NULL, NULL, false, NULL } };
    HFunc h;

    h_build(&h, none);
    ck_assert_uint_eq(ir_reconv_pc(&h.f, 0), UINT32_MAX);
    /* An empty body is a body: no blocks, entry runs into exit. */
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    ck_assert_uint_eq(h.f.nblocks, 0);
    ck_assert_uint_eq(ir_reconv_pc(&h.f, 0), UINT32_MAX);
    h.f.is_decl = true;
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), -1);
    h.f.is_decl = false;
    h.f.is_proto = true;
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), -1);
    h_free(&h);
}
END_TEST

/* 100k blocks through the whole builder: a chain of ifs. */
START_TEST(test_ir_big)
{
    enum { NDIAMOND = 50000 };
    HFunc h;
    IrFunc *f = &h.f;
    PtxArena *a = ptx_arena_new();
    PtxOpcode bra, add, ret;
    size_t used;
    uint32_t bad = 0;

    memset(&h, 0, sizeof(h));
    h.m.arena = a;
    bra = ptx_opcode_lookup("bra", 3, &used);
    add = ptx_opcode_lookup("add", 3, &used);
    ret = ptx_opcode_lookup("ret", 3, &used);
    /* If k, at 3k: @p bra Ek; add; Ek: add; ...  Two blocks per if,
     * every branch reconverging two instructions later. */
    f->ninsns = 3 * NDIAMOND + 1;
    f->insns = ptx_arena_alloc(a, f->ninsns * sizeof(*f->insns));
    f->nlabels = NDIAMOND;
    f->labels = ptx_arena_alloc(a, f->nlabels * sizeof(*f->labels));
    for (uint32_t k = 0; k < NDIAMOND; k++) {
        IrInsn *in = &f->insns[3 * k];
        f->labels[k].name = "E";
        f->labels[k].insn = 3 * k + 2;
        in[0].op = (uint16_t)bra;
        in[0].guard = 0;
        in[0].nopnds = 1;
        in[0].opnds = ptx_arena_alloc(a, sizeof(*in[0].opnds));
        in[0].opnds[0].kind = IR_O_LABEL;
        in[0].opnds[0].id = (int32_t)k;
        in[1].op = (uint16_t)add;
        in[1].guard = -1;
        in[2].op = (uint16_t)add;
        in[2].guard = -1;
    }
    f->insns[f->ninsns - 1].op = (uint16_t)ret;
    f->insns[f->ninsns - 1].guard = -1;
    ck_assert_int_eq(ir_cfg_build(&h.m, f), 0);
    ck_assert_uint_eq(f->nblocks, 2 * NDIAMOND + 1);
    for (uint32_t k = 0; k < NDIAMOND; k++) {
        bad += f->reconv[3 * k] != 3 * k + 2;
    }
    ck_assert_uint_eq(bad, 0);
    h_free(&h);
}
END_TEST

/* ---- (e) the dot printer ---- */

START_TEST(test_dot)
{
    static const HInsn rows[] = {
        { NULL, "add", false, NULL }, { "TOP", "bra", true, "ELSE" },
        { NULL, "add", false, NULL }, { NULL, "bra", false, "JOIN" },
        { "ELSE", "brx.idx", true, "TOP JOIN" },
        { "JOIN", "ret", true, NULL }, { NULL, "bra", false, "TOP" },
        { NULL, NULL, false, NULL }
    };
    HFunc h;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int depth = 0;

    ck_assert_ptr_nonnull(out);
    h_build(&h, rows);
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    ptx_print_cfg_dot(out, &h.m, &h.f);
    ck_assert_int_eq(fclose(out), 0);
    ck_assert_msg(strncmp(buf, "digraph \"hand\" {\n", 17) == 0, "%s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "ENTRY -> B0;"));
    ck_assert_ptr_nonnull(strstr(buf, "B1 -> B3;"));
    ck_assert_ptr_nonnull(strstr(buf, "B1 -> B2;"));
    ck_assert_ptr_nonnull(strstr(buf, "B4 -> EXIT;"));
    ck_assert_ptr_nonnull(strstr(buf, "TOP:\\l"));
    ck_assert_ptr_nonnull(strstr(buf, "@%p bra ELSE;"));
    /* The branch at the bottom of B1 reconverges at B4 (JOIN); the ret
     * in B4 diverges too and reconverges at the exit. */
    ck_assert_ptr_nonnull(strstr(buf, "B1 -> B4 [style=dashed"));
    ck_assert_ptr_nonnull(strstr(buf, "B4 -> EXIT [style=dashed"));
    ck_assert_ptr_null(strstr(buf, "B2 -> B4 [style=dashed"));
    /* Every quote is closed and braces balance outside strings. */
    for (const char *p = buf; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\\') {
                    p++;
                }
            }
            ck_assert_msg(*p == '"', "unterminated string");
        } else if (*p == '{') {
            depth++;
        } else if (*p == '}') {
            depth--;
        }
    }
    ck_assert_int_eq(depth, 0);
    free(buf);
    h_free(&h);
}
END_TEST

START_TEST(test_dot_empty)
{
    static const HInsn none[] = { { NULL, NULL, false, NULL } };
    HFunc h;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(out);
    h_build(&h, none);
    h.f.name = "we\\ird\"{name}";
    ck_assert_int_eq(ir_cfg_build(&h.m, &h.f), 0);
    ptx_print_cfg_dot(out, &h.m, &h.f);
    ck_assert_int_eq(fclose(out), 0);
    ck_assert_ptr_nonnull(strstr(buf, "digraph \"we\\\\ird\\\"\\{name\\}\""));
    ck_assert_ptr_nonnull(strstr(buf, "ENTRY -> EXIT;"));
    free(buf);
    h_free(&h);
}
END_TEST

/* ---- (f) parsed kernels ----
 *
 * The instruction indices in the comments are what the expected strings
 * refer to.  The parser runs ir_cfg_build on every function with a body. */

#define PTX_HEAD ".version 7.8\n.target sm_80\n.address_size 64\n"

typedef struct PtxCase {
    const char *name;
    const char *src;
    const char *func;
    const char *cfg;
    const char *reconv;
} PtxCase;

static const PtxCase ptx_cases[] = {
    { "if/else", PTX_HEAD
      ".visible .entry k(.param .u32 n)\n"
      "{\n"
      "    .reg .pred %p<2>;\n"
      "    .reg .b32 %r<4>;\n"
      "    ld.param.u32 %r1, [n];\n"          /* 0 */
      "    setp.eq.u32 %p1, %r1, 0;\n"        /* 1 */
      "    @%p1 bra $L_else;\n"               /* 2 */
      "    add.u32 %r2, %r1, 1;\n"            /* 3 */
      "    bra.uni $L_end;\n"                 /* 4 */
      "$L_else:\n"
      "    add.u32 %r2, %r1, 2;\n"            /* 5 */
      "$L_end:\n"
      "    ret;\n"                            /* 6 */
      "}\n",
      "k", "0-3:2,1/3 3-5:3/3 5-6:3/3 6-7:X/X", "2>6 4>6" },
    { "loop with break", PTX_HEAD
      ".visible .entry k(.param .u32 n)\n"
      "{\n"
      "    .reg .pred %p<3>;\n"
      "    .reg .b32 %r<4>;\n"
      "    ld.param.u32 %r1, [n];\n"          /* 0 */
      "    mov.u32 %r2, 0;\n"                 /* 1 */
      "$L_top:\n"
      "    add.u32 %r2, %r2, 1;\n"            /* 2 */
      "    setp.eq.u32 %p1, %r2, 7;\n"        /* 3 */
      "    @%p1 bra $L_out;\n"                /* 4: break */
      "    setp.lt.u32 %p2, %r2, %r1;\n"      /* 5 */
      "    @%p2 bra $L_top;\n"                /* 6 */
      "$L_out:\n"
      "    ret;\n"                            /* 7 */
      "}\n",
      "k", "0-2:1/1 2-5:3,2/3 5-7:1,3/3 7-8:X/X", "4>7 6>7" },
    { "early ret", PTX_HEAD
      ".visible .entry k(.param .u32 n)\n"
      "{\n"
      "    .reg .pred %p<3>;\n"
      "    .reg .b32 %r<4>;\n"
      "    ld.param.u32 %r1, [n];\n"          /* 0 */
      "    setp.eq.u32 %p1, %r1, 0;\n"        /* 1 */
      "    @%p1 ret;\n"                       /* 2 */
      "    add.u32 %r1, %r1, 1;\n"            /* 3 */
      "    setp.eq.u32 %p2, %r1, 5;\n"        /* 4 */
      "    @%p2 bra $L_skip;\n"               /* 5 */
      "    add.u32 %r1, %r1, 1;\n"            /* 6 */
      "$L_skip:\n"
      "    ret;\n"                            /* 7 */
      "}\n",
      "k", "0-3:X,1/X 3-6:3,2/3 6-7:3/3 7-8:X/X", "5>7" },
    { "brx.idx switch", PTX_HEAD
      ".visible .entry k(.param .u32 n)\n"
      "{\n"
      "    .reg .b32 %r<4>;\n"
      "    ld.param.u32 %r1, [n];\n"          /* 0 */
      "$L_ts: .branchtargets $L_c0, $L_c1, $L_c2;\n"
      "    brx.idx %r1, $L_ts;\n"             /* 1 */
      "$L_c0:\n"
      "    mov.u32 %r2, 10;\n"                /* 2 */
      "    bra.uni $L_end;\n"                 /* 3 */
      "$L_c1:\n"
      "    mov.u32 %r2, 11;\n"                /* 4 */
      "    bra.uni $L_end;\n"                 /* 5 */
      "$L_c2:\n"
      "    mov.u32 %r2, 12;\n"                /* 6 */
      "$L_end:\n"
      "    ret;\n"                            /* 7 */
      "}\n",
      "k", "0-2:1,2,3/4 2-4:4/4 4-6:4/4 6-7:4/4 7-8:X/X", "1>7 3>7 5>7" },
    { "call", PTX_HEAD
      ".func (.param .b32 r) f_add(.param .b32 a)\n"
      "{\n"
      "    .reg .b32 %r<3>;\n"
      "    ld.param.b32 %r1, [a];\n"
      "    add.s32 %r2, %r1, 1;\n"
      "    st.param.b32 [r], %r2;\n"
      "    ret;\n"
      "}\n"
      ".visible .entry k(.param .u32 n)\n"
      "{\n"
      "    .reg .b32 %r<4>;\n"
      "    ld.param.u32 %r1, [n];\n"          /* 0 */
      "    {\n"
      "        .param .b32 pa;\n"
      "        .param .b32 pr;\n"
      "        st.param.b32 [pa], %r1;\n"     /* 1 */
      "        call.uni (pr), f_add, (pa);\n" /* 2 */
      "        ld.param.b32 %r2, [pr];\n"     /* 3 */
      "    }\n"
      "    ret;\n"                            /* 4 */
      "}\n",
      "k", "0-5:X/X", "2>3" },
    { "indirect call", PTX_HEAD
      ".visible .entry k(.param .u64 fp)\n"
      "{\n"
      "    .reg .b64 %rd<2>;\n"
      "    .reg .b32 %r<3>;\n"
      "    ld.param.u64 %rd1, [fp];\n"        /* 0 */
      "    {\n"
      "        .param .b32 pa;\n"
      "        .param .b32 pr;\n"
      "        st.param.b32 [pa], %r1;\n"     /* 1 */
      "$proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "        call (pr), %rd1, (pa), $proto;\n" /* 2 */
      "        ld.param.b32 %r2, [pr];\n"     /* 3 */
      "    }\n"
      "    ret;\n"                            /* 4 */
      "}\n",
      "k", "0-5:X/X", "2>3" },
    /* for (;;) { if (tid == 0) a else b; bar.sync }: the if must join at
     * the barrier, not at the exit */
    { "infinite loop", PTX_HEAD
      ".visible .entry k()\n"
      "{\n"
      "    .reg .pred %p<2>;\n"
      "    .reg .b32 %r<3>;\n"
      "    mov.u32 %r1, %tid.x;\n"            /* 0 */
      "$L_top:\n"
      "    setp.eq.u32 %p1, %r1, 0;\n"        /* 1 */
      "    @%p1 bra $L_else;\n"               /* 2 */
      "    add.u32 %r2, %r2, 1;\n"            /* 3 */
      "    bra.uni $L_join;\n"                /* 4 */
      "$L_else:\n"
      "    add.u32 %r2, %r2, 2;\n"            /* 5 */
      "$L_join:\n"
      "    bar.sync 0;\n"                     /* 6 */
      "    bra.uni $L_top;\n"                 /* 7 */
      "}\n",
      "k", "0-1:1/1 1-3:3,2/4 3-5:4/4 5-6:4/4 6-8:1/X", "2>6 4>6" },
    /* AFR Fig. 3.2 (seed digest 1.3): A's branch joins at G, B's at E,
     * and the loop branch right after itself. */
    { "AFR example", PTX_HEAD
      ".visible .entry k(.param .u64 data, .param .u32 N)\n"
      "{\n"
      "    .reg .pred %p<4>;\n"
      "    .reg .b32 %r<12>;\n"
      "    .reg .b64 %rd<4>;\n"
      "    ld.param.u64 %rd1, [data];\n"      /* 0 */
      "    ld.param.u32 %r1, [N];\n"          /* 1 */
      "    mov.u32 %r2, %tid.x;\n"            /* 2 */
      "    mov.u32 %r3, 0;\n"                 /* 3 */
      "$A:\n"
      "    mad.lo.u32 %r4, %r2, %r1, %r3;\n"  /* 4 */
      "    mul.wide.u32 %rd2, %r4, 4;\n"      /* 5 */
      "    add.u64 %rd3, %rd1, %rd2;\n"       /* 6 */
      "    ld.global.u32 %r5, [%rd3];\n"      /* 7 */
      "    setp.eq.u32 %p1, %r5, 0;\n"        /* 8 */
      "    @%p1 bra $F;\n"                    /* 9 */
      "$B:\n"
      "    ld.global.u32 %r6, [%rd3];\n"      /* 10 */
      "    setp.eq.u32 %p2, %r6, 0;\n"        /* 11 */
      "    @%p2 bra $D;\n"                    /* 12 */
      "$C:\n"
      "    add.u32 %r7, %r7, 1;\n"            /* 13 */
      "    bra.uni $E;\n"                     /* 14 */
      "$D:\n"
      "    add.u32 %r8, %r8, 2;\n"            /* 15 */
      "$E:\n"
      "    bra.uni $G;\n"                     /* 16 */
      "$F:\n"
      "    add.u32 %r9, %r9, 3;\n"            /* 17 */
      "$G:\n"
      "    add.u32 %r3, %r3, 1;\n"            /* 18 */
      "    setp.le.u32 %p3, %r3, %r1;\n"      /* 19 */
      "    @%p3 bra $A;\n"                    /* 20 */
      "    ret;\n"                            /* 21 */
      "}\n",
      "k",
      "0-4:1/1 4-10:6,2/7 10-13:4,3/5 13-15:5/5 15-16:5/5 16-17:7/7 "
      "17-18:7/7 18-21:1,8/8 21-22:X/X",
      "9>18 12>16 14>16 16>18 20>21" },
};

#define N_PTX_CASES (int)(sizeof(ptx_cases) / sizeof(ptx_cases[0]))

static IrModule *parse_ok(const char *src)
{
    PtxDiag d;
    IrModule *m = ptx_parse_string("test.ptx", src, strlen(src), &d, NULL);

    ck_assert_msg(m != NULL, "parse failed:\n%s", d.buf ? d.buf : "");
    ptx_diag_fini(&d);
    return m;
}

START_TEST(test_ptx_table)
{
    const PtxCase *c = &ptx_cases[_i];
    IrModule *m = parse_ok(c->src);
    IrFunc *f = ir_find_func(m, c->func);
    char got[512];

    ck_assert_ptr_nonnull(f);
    check_cfg_invariants(f);
    describe_cfg(f, got, sizeof(got));
    ck_assert_msg(strcmp(got, c->cfg) == 0, "%s: cfg \"%s\", want \"%s\"",
                  c->name, got, c->cfg);
    describe_reconv(f, got, sizeof(got));
    ck_assert_msg(strcmp(got, c->reconv) == 0,
                  "%s: reconv \"%s\", want \"%s\"", c->name, got, c->reconv);
    /* Building again gives the same answer. */
    ck_assert_int_eq(ir_cfg_build(m, f), 0);
    describe_cfg(f, got, sizeof(got));
    ck_assert_str_eq(got, c->cfg);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_ptx_decl)
{
    IrModule *m = parse_ok(PTX_HEAD
                           ".extern .func ext_f(.param .b32 a);\n");
    IrFunc *f = ir_find_func(m, "ext_f");

    ck_assert_ptr_nonnull(f);
    ck_assert(f->is_decl);
    ck_assert_ptr_null(f->blocks);
    ck_assert_int_eq(ir_cfg_build(m, f), -1);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_ptx_dot)
{
    IrModule *m = parse_ok(ptx_cases[0].src);
    IrFunc *f = ir_find_func(m, "k");
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(out);
    ptx_print_cfg_dot(out, m, f);
    ck_assert_int_eq(fclose(out), 0);
    ck_assert_ptr_nonnull(strstr(buf, "digraph \"k\" {"));
    ck_assert_ptr_nonnull(strstr(buf, "$L_else:\\l"));
    ck_assert_ptr_nonnull(strstr(buf, "@%p1 bra $L_else;\\l"));
    ck_assert_ptr_nonnull(strstr(buf, "B0 -> B3 [style=dashed"));
    free(buf);
    ptx_module_free(m);
}
END_TEST

Suite *cfg_suite(void)
{
    Suite *s = suite_create("cfg");
    TCase *tc;

    tc = tcase_create("postdom");
    tcase_add_loop_test(tc, test_postdom_table, 0, N_PD_CASES);
    tcase_add_test(tc, test_postdom_empty);
    tcase_add_test(tc, test_postdom_bad_input);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_add_loop_test(tc, test_postdom_random, 0, 200);
    suite_add_tcase(s, tc);

    tc = tcase_create("big");
    /* Generous: valgrind runs these ~50x slower than native. */
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_postdom_big_diamonds);
    tcase_add_test(tc, test_postdom_big_nested);
    tcase_add_test(tc, test_postdom_big_loops);
    tcase_add_test(tc, test_postdom_big_random);
    suite_add_tcase(s, tc);

    tc = tcase_create("ir");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_ir_table, 0, N_IR_CASES);
    tcase_add_test(tc, test_ir_rebuild);
    tcase_add_test(tc, test_ir_no_body);
    tcase_add_test(tc, test_ir_big);
    suite_add_tcase(s, tc);

    tc = tcase_create("dot");
    tcase_add_test(tc, test_dot);
    tcase_add_test(tc, test_dot_empty);
    suite_add_tcase(s, tc);

    tc = tcase_create("parse");
    tcase_add_loop_test(tc, test_ptx_table, 0, N_PTX_CASES);
    tcase_add_test(tc, test_ptx_decl);
    tcase_add_test(tc, test_ptx_dot);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cfg_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
