/*
 * ptx/postdom.c: immediate post-dominators (see postdom.h for the
 * contract and for how infinite loops are treated).
 *
 * Post-dominators are dominators of the reverse graph, rooted at the
 * virtual exit X (internally node n).  We use Lengauer and Tarjan's
 * algorithm with simple path compression, O(m log n).  Cooper, Harvey
 * and Kennedy's iterative algorithm is shorter, but it is quadratic on
 * deeply nested loops (each latch intersects its header's whole chain of
 * post-dominators): 50k nested loops took seconds, where this takes
 * milliseconds, and fuzzed or generated PTX can be that deep.
 *
 * Steps:
 *  1. Build the reverse adjacency (CFG predecessors) in CSR form.
 *  2. DFS the reverse graph from X in preorder, recording DFS parents;
 *     what is left unvisited cannot reach the exit ("trapped").
 *  3. Split the trapped nodes into SCCs (Tarjan); give each closed SCC a
 *     virtual exit edge from its highest-numbered node, and continue the
 *     DFS from those nodes as further children of X.
 *  4. Lengauer-Tarjan over the preorder numbers.
 *
 * All traversals keep their own stacks (path compression included):
 * 100k-block functions must not depend on the size of the C stack.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/postdom.h"

#define UNDEF UINT32_MAX

typedef struct PdFrame {
    uint32_t node;
    uint32_t next;      /* next edge position to look at */
} PdFrame;

typedef struct PdState {
    uint32_t n;                 /* real nodes; X == n */
    const uint32_t *succ_off;
    const uint32_t *succ;
    uint32_t *rev_off;          /* n + 2 entries */
    uint32_t *rev;              /* CFG predecessors; X's list at the end */
    bool *vexit;                /* node has a virtual edge to X */
    PdFrame *stack;             /* n + 1 frames */
    /* DFS preorder of the reverse graph: node -> number and back, and
     * each number's DFS parent (a number). */
    uint32_t *num;
    uint32_t *vertex;
    uint32_t *parent;
    uint32_t nnum;
} PdState;

/* Preorder DFS of the reverse graph from `start`, a child of the node
 * numbered `pnum`; visited nodes are skipped. */
static void pd_dfs(PdState *s, uint32_t start, uint32_t pnum)
{
    uint32_t sp = 0;

    if (s->num[start] != UNDEF) {
        return;
    }
    s->num[start] = s->nnum;
    s->vertex[s->nnum] = start;
    s->parent[s->nnum++] = pnum;
    s->stack[sp++] = (PdFrame){ start, s->rev_off[start] };
    while (sp > 0) {
        PdFrame *f = &s->stack[sp - 1];
        if (f->next < s->rev_off[f->node + 1]) {
            uint32_t w = s->rev[f->next++];
            if (s->num[w] == UNDEF) {
                s->num[w] = s->nnum;
                s->vertex[s->nnum] = w;
                s->parent[s->nnum++] = s->num[f->node];
                s->stack[sp++] = (PdFrame){ w, s->rev_off[w] };
            }
        } else {
            sp--;
        }
    }
}

/* Step 3: virtual exit edges for the nodes the DFS did not reach.  Their
 * CFG successors are all trapped too (else they would reach the exit), so
 * Tarjan runs on the forward edges without meeting the exit.  Writes the
 * roots to `roots` and returns how many, or -1 without memory. */
static int64_t pd_trapped_roots(PdState *s, uint32_t *roots)
{
    uint32_t n = s->n;
    uint32_t *idx = malloc((size_t)n * sizeof(*idx));
    uint32_t *low = malloc((size_t)n * sizeof(*low));
    uint32_t *comp = malloc((size_t)n * sizeof(*comp));
    uint32_t *sccstack = malloc((size_t)n * sizeof(*sccstack));
    uint32_t *best = malloc((size_t)n * sizeof(*best));
    bool *closed = malloc((size_t)n * sizeof(*closed));
    uint32_t counter = 1, ncomp = 0, ssp = 0;
    int64_t nroots = -1;

    if (!idx || !low || !comp || !sccstack || !best || !closed) {
        goto out;
    }
    for (uint32_t u = 0; u < n; u++) {
        idx[u] = 0;
        comp[u] = UNDEF;
    }
    for (uint32_t r = 0; r < n; r++) {
        uint32_t sp = 0;
        if (s->num[r] != UNDEF || idx[r] != 0) {
            continue;
        }
        idx[r] = low[r] = counter++;
        sccstack[ssp++] = r;
        s->stack[sp++] = (PdFrame){ r, s->succ_off[r] };
        while (sp > 0) {
            PdFrame *f = &s->stack[sp - 1];
            uint32_t v = f->node;
            if (f->next < s->succ_off[v + 1]) {
                uint32_t w = s->succ[f->next++];
                if (idx[w] == 0) {
                    idx[w] = low[w] = counter++;
                    sccstack[ssp++] = w;
                    s->stack[sp++] = (PdFrame){ w, s->succ_off[w] };
                } else if (comp[w] == UNDEF && idx[w] < low[v]) {
                    /* w is still on the SCC stack: a back or cross edge
                     * inside the component being built. */
                    low[v] = idx[w];
                }
                continue;
            }
            sp--;
            if (low[v] == idx[v]) {
                uint32_t w;
                best[ncomp] = v;
                closed[ncomp] = true;
                do {
                    w = sccstack[--ssp];
                    comp[w] = ncomp;
                    if (w > best[ncomp]) {
                        best[ncomp] = w;
                    }
                } while (w != v);
                ncomp++;
            }
            if (sp > 0) {
                uint32_t p = s->stack[sp - 1].node;
                if (low[v] < low[p]) {
                    low[p] = low[v];
                }
            }
        }
    }
    /* A component with an edge into another one is not closed: its nodes
     * reach a closed component and inherit its virtual edge. */
    for (uint32_t u = 0; u < n; u++) {
        if (comp[u] == UNDEF) {
            continue;
        }
        for (uint32_t e = s->succ_off[u]; e < s->succ_off[u + 1]; e++) {
            if (comp[s->succ[e]] != comp[u]) {
                closed[comp[u]] = false;
                break;
            }
        }
    }
    nroots = 0;
    for (uint32_t c = 0; c < ncomp; c++) {
        if (closed[c]) {
            roots[nroots++] = best[c];
        }
    }
out:
    free(idx);
    free(low);
    free(comp);
    free(sccstack);
    free(best);
    free(closed);
    return nroots;
}

/* Lengauer-Tarjan forest, all indexed by preorder number. */
typedef struct PdLt {
    uint32_t *semi;
    uint32_t *label;
    uint32_t *anc;              /* forest parent, UNDEF at a tree root */
    uint32_t *chain;            /* scratch for pd_compress */
} PdLt;

/* Path compression without recursion: collect the path up to the node
 * just below the tree root, then fold labels downwards. */
static void pd_compress(PdLt *t, uint32_t v)
{
    uint32_t sp = 0;

    while (t->anc[t->anc[v]] != UNDEF) {
        t->chain[sp++] = v;
        v = t->anc[v];
    }
    while (sp > 0) {
        uint32_t x = t->chain[--sp], a = t->anc[x];
        if (t->semi[t->label[a]] < t->semi[t->label[x]]) {
            t->label[x] = t->label[a];
        }
        t->anc[x] = t->anc[a];
    }
}

/* The node of minimal semi-dominator on v's forest path. */
static uint32_t pd_eval(PdLt *t, uint32_t v)
{
    if (t->anc[v] == UNDEF) {
        return v;
    }
    pd_compress(t, v);
    return t->label[v];
}

/* Step 4: dominators of the reverse graph; dom[] gets numbers. */
static int pd_lt(PdState *s, uint32_t *dom)
{
    uint32_t nn = s->nnum;
    PdLt t;
    uint32_t *bucket = malloc((size_t)nn * sizeof(*bucket));
    uint32_t *bnext = malloc((size_t)nn * sizeof(*bnext));
    int rc = -1;

    t.semi = malloc((size_t)nn * sizeof(*t.semi));
    t.label = malloc((size_t)nn * sizeof(*t.label));
    t.anc = malloc((size_t)nn * sizeof(*t.anc));
    t.chain = malloc((size_t)nn * sizeof(*t.chain));
    if (!bucket || !bnext || !t.semi || !t.label || !t.anc || !t.chain) {
        goto out;
    }
    for (uint32_t i = 0; i < nn; i++) {
        t.semi[i] = i;
        t.label[i] = i;
        t.anc[i] = UNDEF;
        bucket[i] = UNDEF;
    }
    for (uint32_t w = nn - 1; w > 0; w--) {
        uint32_t node = s->vertex[w], p = s->parent[w];
        /* Reverse-graph predecessors of w: its CFG successors. */
        for (uint32_t e = s->succ_off[node]; e < s->succ_off[node + 1];
             e++) {
            uint32_t v = s->succ[e] == IR_EXIT_BLOCK ? s->n : s->succ[e];
            uint32_t u = pd_eval(&t, s->num[v]);
            if (t.semi[u] < t.semi[w]) {
                t.semi[w] = t.semi[u];
            }
        }
        if (s->vexit[node]) {
            /* X is number 0, the smallest semi-dominator there is. */
            t.semi[w] = 0;
        }
        bnext[w] = bucket[t.semi[w]];
        bucket[t.semi[w]] = w;
        t.anc[w] = p;
        /* Every v whose semi-dominator is p now has its path in the
         * forest: decide its dominator, or defer it to the last pass. */
        for (uint32_t v = bucket[p]; v != UNDEF; v = bnext[v]) {
            uint32_t u = pd_eval(&t, v);
            dom[v] = t.semi[u] < t.semi[v] ? u : p;
        }
        bucket[p] = UNDEF;
    }
    dom[0] = 0;
    for (uint32_t w = 1; w < nn; w++) {
        if (dom[w] != t.semi[w]) {
            dom[w] = dom[dom[w]];
        }
    }
    rc = 0;
out:
    free(bucket);
    free(bnext);
    free(t.semi);
    free(t.label);
    free(t.anc);
    free(t.chain);
    return rc;
}

int ir_postdom(uint32_t n, const uint32_t *succ_off, const uint32_t *succ,
               uint32_t *ipdom)
{
    PdState s;
    uint32_t x = n, m, *cnt = NULL, *dom = NULL;
    int rc = -1;
    int64_t nroots;

    if (n == 0) {
        return 0;
    }
    /* X = n must stay distinct from the UNDEF marker. */
    if (n >= UINT32_MAX - 1) {
        return -1;
    }
    m = succ_off[n];
    for (uint32_t u = 0; u < n; u++) {
        if (succ_off[u] > succ_off[u + 1]) {
            return -1;
        }
    }
    for (uint32_t e = succ_off[0]; e < m; e++) {
        if (succ[e] >= n && succ[e] != IR_EXIT_BLOCK) {
            return -1;
        }
    }
    memset(&s, 0, sizeof(s));
    s.n = n;
    s.succ_off = succ_off;
    s.succ = succ;
    s.rev_off = calloc((size_t)n + 2, sizeof(*s.rev_off));
    /* Room for the CFG edges plus at most n virtual exit edges. */
    s.rev = malloc(((size_t)m + n + 1) * sizeof(*s.rev));
    s.vexit = calloc((size_t)n + 1, sizeof(*s.vexit));
    s.stack = malloc(((size_t)n + 1) * sizeof(*s.stack));
    s.num = malloc(((size_t)n + 1) * sizeof(*s.num));
    s.vertex = malloc(((size_t)n + 1) * sizeof(*s.vertex));
    s.parent = malloc(((size_t)n + 1) * sizeof(*s.parent));
    cnt = calloc((size_t)n + 1, sizeof(*cnt));
    dom = malloc(((size_t)n + 1) * sizeof(*dom));
    if (!s.rev_off || !s.rev || !s.vexit || !s.stack || !s.num || !s.vertex
        || !s.parent || !cnt || !dom) {
        goto out;
    }

    /* Step 1: CSR of predecessors; the exit's list is the last one. */
    for (uint32_t e = succ_off[0]; e < m; e++) {
        uint32_t v = succ[e] == IR_EXIT_BLOCK ? x : succ[e];
        s.rev_off[v + 1]++;
    }
    for (uint32_t v = 0; v <= n; v++) {
        s.rev_off[v + 1] += s.rev_off[v];
    }
    for (uint32_t u = 0; u < n; u++) {
        for (uint32_t e = succ_off[u]; e < succ_off[u + 1]; e++) {
            uint32_t v = succ[e] == IR_EXIT_BLOCK ? x : succ[e];
            s.rev[s.rev_off[v] + cnt[v]++] = u;
        }
    }

    /* Step 2: X is number 0; its children are searched one by one so
     * that step 3 can add more of them. */
    for (uint32_t u = 0; u <= n; u++) {
        s.num[u] = UNDEF;
    }
    s.num[x] = 0;
    s.vertex[0] = x;
    s.parent[0] = UNDEF;
    s.nnum = 1;
    for (uint32_t e = s.rev_off[x]; e < s.rev_off[x + 1]; e++) {
        pd_dfs(&s, s.rev[e], 0);
    }

    /* Step 3: virtual exit edges, appended to X's reverse list. */
    if (s.nnum < n + 1) {
        uint32_t *roots = s.rev + s.rev_off[x + 1];
        nroots = pd_trapped_roots(&s, roots);
        if (nroots < 0) {
            goto out;
        }
        for (int64_t i = 0; i < nroots; i++) {
            s.vexit[roots[i]] = true;
            pd_dfs(&s, roots[i], 0);
        }
        s.rev_off[x + 1] += (uint32_t)nroots;
    }

    /* Step 4.  Every node reaches X now; the check guards pd_lt. */
    if (s.nnum != n + 1 || pd_lt(&s, dom) != 0) {
        goto out;
    }
    for (uint32_t u = 0; u < n; u++) {
        uint32_t d = s.vertex[dom[s.num[u]]];
        ipdom[u] = d == x ? IR_EXIT_BLOCK : d;
    }
    rc = 0;
out:
    free(s.rev_off);
    free(s.rev);
    free(s.vexit);
    free(s.stack);
    free(s.num);
    free(s.vertex);
    free(s.parent);
    free(cnt);
    free(dom);
    return rc;
}
