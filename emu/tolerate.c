/*
 * emu/tolerate.c: global accesses that a GPU tolerates (see tolerate.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/tolerate.h"
#include "emu/memory.h"

/* The instructions met: each reported once for the device's life, at
 * the end of the launch that first met it, naming the lowest thread
 * (CTA, then thread in the CTA) that made the access, so that the
 * report is the same whichever host threads ran the CTAs (emu/par.c)
 * and in whatever order.  Under tol_mu (tolerated accesses are rare). */
typedef struct TolSite {
    const void *func;
    uint32_t pc;
    bool pending;                 /* met, not yet reported */
    uint64_t key;                 /* CTA linear << 32 | thread linear */
    EmuTolerated t;               /* that access (t.launch unused) */
    const char *kernel;
    char near[160];
} TolSite;

struct EmuTolSites {
    TolSite *at;
    uint32_t n, cap;
};

static pthread_mutex_t tol_mu = PTHREAD_MUTEX_INITIALIZER;

/* The site of (func, pc), made when new; NULL when out of memory (the
 * warning is then dropped). */
static TolSite *site(EmuDevice *d, const void *func, uint32_t pc,
                     bool *made)
{
    struct EmuTolSites *s = d->tol_sites;
    *made = false;
    if (!s) {
        s = d->tol_sites = calloc(1, sizeof(*s));
        if (!s) {
            return NULL;
        }
    }
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->at[i].func == func && s->at[i].pc == pc) {
            return &s->at[i];
        }
    }
    if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 16;
        void *p = realloc(s->at, nc * sizeof(*s->at));
        if (!p) {
            return NULL;
        }
        s->at = p;
        s->cap = nc;
    }
    TolSite *t = &s->at[s->n++];
    memset(t, 0, sizeof(*t));
    t->func = func;
    t->pc = pc;
    *made = true;
    return t;
}

uint8_t *emu_access_tolerated(EmuCtx *x, unsigned lane, PtxSpace space,
                              uint64_t addr, uint32_t size, bool write)
{
    EmuDevice *d = x->dev;
    if (d->cfg.access != EMU_ACCESS_GPU) {
        return NULL;
    }
    const EmuAlloc *owner;
    uint8_t *p = emu_mem_slack_cached(d->mem, addr, size, &owner,
                                      &x->launch->tol_page);
    if (!p || (write && (space == PTX_SPACE_CONST ||
                         (owner && owner->kind == EMU_ALLOC_CONST)))) {
        return NULL;
    }
    const EmuFunc *fn = x->frame->func;
    EmuTolerated t = {
        .launch = x->launch, .func = fn->ir->name,
        .file = ir_func_file(x->launch->mod->ir, fn->ir), .pc = x->pc,
        .addr = addr, .size = size, .write = write, .space = space,
    };
    if (x->pc < fn->ir->ninsns) {
        t.loc = fn->ir->insns[x->pc].loc;
    }
    for (int c = 0; c < 3; c++) {
        t.ctaid[c] = x->cta->ctaid[c];
        t.tid[c] = x->warp->tid[c][lane & 31];
    }
    if (d->tolerated_hook) {
        d->tolerated_hook(d->tolerated_ctx, &t);
        return p;
    }
    EmuLaunch *l = x->launch;
    const uint32_t *b = l->block;
    const uint64_t key = (uint64_t)x->cta->linear << 32 |
                         (t.tid[0] + b[0] * (t.tid[1] + b[1] * t.tid[2]));
    /* this context recorded the instruction with a key no higher: it
     * cannot lower the site's (the hot path, no lock) */
    const unsigned nseen = sizeof(l->tol_seen) / sizeof(l->tol_seen[0]);
    for (unsigned i = 0; i < nseen; i++) {
        if (l->tol_seen[i].func == fn && l->tol_seen[i].pc == x->pc &&
            l->tol_seen[i].key <= key) {
            return p;
        }
    }
    pthread_mutex_lock(&tol_mu);
    bool made;
    TolSite *s = site(d, fn, x->pc, &made);
    if (s && (made || (s->pending && key < s->key))) {
        s->pending = true;
        s->key = key;
        s->t = t;
        s->t.launch = NULL;
        s->kernel = l->kernel->ir->name;
        emu_mem_describe_near(d->mem, addr, s->near, sizeof(s->near));
    }
    pthread_mutex_unlock(&tol_mu);
    l->tol_seen[l->tol_next % nseen].func = fn;
    l->tol_seen[l->tol_next % nseen].pc = x->pc;
    l->tol_seen[l->tol_next++ % nseen].key = key;
    return p;
}

void emu_tolerate_drop_above(EmuDevice *d, uint64_t cta)
{
    pthread_mutex_lock(&tol_mu);
    struct EmuTolSites *s = d->tol_sites;
    uint32_t k = 0;
    for (uint32_t i = 0; s && i < s->n; i++) {
        if (!(s->at[i].pending && (s->at[i].key >> 32) > cta)) {
            s->at[k++] = s->at[i];
        }
    }
    if (s) {
        s->n = k;
    }
    pthread_mutex_unlock(&tol_mu);
}

/* Report order: by thread, then instruction. */
static int site_cmp(const void *a, const void *b)
{
    const TolSite *x = *(const TolSite *const *)a;
    const TolSite *y = *(const TolSite *const *)b;
    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    if (x->t.loc.line != y->t.loc.line) {
        return x->t.loc.line < y->t.loc.line ? -1 : 1;
    }
    int c = strcmp(x->t.func, y->t.func);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

void emu_tolerate_flush(EmuDevice *d)
{
    pthread_mutex_lock(&tol_mu);
    struct EmuTolSites *s = d->tol_sites;
    uint32_t n = 0;
    for (uint32_t i = 0; s && i < s->n; i++) {
        n += s->at[i].pending;
    }
    TolSite **v = n ? malloc(n * sizeof(*v)) : NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; v && i < s->n; i++) {
        if (s->at[i].pending) {
            v[k++] = &s->at[i];
        }
    }
    if (v) {
        qsort(v, k, sizeof(*v), site_cmp);
    }
    for (uint32_t i = 0; i < k; i++) {
        const EmuTolerated *t = &v[i]->t;
        fprintf(stderr, "ptxemu: warning: %s:%u: kernel '%s', thread "
                "(%u,%u,%u) of CTA (%u,%u,%u): %s of %u bytes at %s "
                "address 0x%llx outside every allocation (%s); a GPU maps "
                "that memory and does not fault, so neither does ptxemu "
                "(reported once per instruction)\n",
                t->file ? t->file : "?", t->loc.line, v[i]->kernel,
                t->tid[0], t->tid[1], t->tid[2],
                t->ctaid[0], t->ctaid[1], t->ctaid[2],
                t->write ? "write" : "read", t->size,
                ptx_space_name(t->space), (unsigned long long)t->addr,
                v[i]->near);
    }
    for (uint32_t i = 0; s && i < s->n; i++) {
        s->at[i].pending = false; /* (dropped when out of memory) */
    }
    free(v);
    pthread_mutex_unlock(&tol_mu);
}

void emu_tolerate_free(EmuDevice *d)
{
    if (d->tol_sites) {
        free(d->tol_sites->at);
        free(d->tol_sites);
        d->tol_sites = NULL;
    }
}
