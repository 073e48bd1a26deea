/*
 * emu/shlayout.c: the module's shared memory layout (see shlayout.h):
 * what each function names, which kernels reach what, then placement.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/shlayout.h"

/* Sizes are capped here for the arithmetic: a kernel past
 * EMU_SHARED_LIMIT cannot launch anyway. */
#define SIZE_CAP (1ull << 40)

struct EmuShLayout {
    uint64_t **var_off;          /* per function: per var, or NULL */
    uint64_t *dyn_off;           /* per function */
    uint64_t *static_bytes;      /* per function (kernels) */
};

typedef struct Vec {
    uint32_t *v;
    uint32_t n, cap;
} Vec;

/* What one function names, and who reaches it. */
typedef struct FInfo {
    Vec callees;                 /* functions named: called or taken */
    Vec gsyms;                   /* module static .shared variables */
    Vec kernels;                 /* kernels reaching its own .shared */
    bool indirect;               /* calls through a register */
    bool dyn;                    /* names dynamic shared memory */
    bool has_shared;             /* declares static .shared variables */
} FInfo;

typedef struct Ctx {
    EmuModule *m;
    const IrModule *ir;
    FInfo *fi;                   /* per function */
    Vec *gk;                     /* per global: kernels reaching it */
    bool *gall;                  /* per global: an initializer names it */
    uint32_t *stamp;             /* per global: dedup while scanning */
    uint32_t *fstamp;            /* per function: dedup / DFS visits */
    bool *taken;                 /* per function: address taken */
    Vec takenv;
    bool dyn_all;                /* an initializer names dynamic shared */
    Vec kfunc;                   /* kernel number -> function index */
    bool *kd;                    /* per kernel: reaches a .func naming
                                    dynamic shared memory */
    uint64_t *end;               /* per kernel: high-water mark */
    bool oom;
} Ctx;

static void push(Ctx *c, Vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 4;
        uint32_t *p = realloc(a->v, nc * sizeof(*p));
        if (!p) {
            c->oom = true;
            return;
        }
        a->v = p;
        a->cap = nc;
    }
    a->v[a->n++] = x;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static bool is_shared_var(const IrSymbol *s)
{
    return s->kind == IR_SYM_VAR && (s->space == PTX_SPACE_SHARED ||
                                     s->space == PTX_SPACE_SHARED_CLUSTER);
}

bool emu_is_dynamic_shared(const IrSymbol *s)
{
    return s->linkage == IR_LINK_EXTERN && s->size == 0;
}

/* ---------------------------------------------------- what is named */

static void mark_taken(Ctx *c, uint32_t t)
{
    if (t < c->ir->nfuncs && !c->taken[t]) {
        c->taken[t] = true;
        push(c, &c->takenv, t);
    }
}

static void scan_opnd(Ctx *c, uint32_t f, const IrOperand *o, bool target)
{
    FInfo *fi = &c->fi[f];
    switch (o->kind) {
    case IR_O_SYM:
    case IR_O_ADDR: {
        uint32_t g = o->u.sym ? emu_global_index(c->m, o->u.sym)
                              : UINT32_MAX;
        if (g == UINT32_MAX || !is_shared_var(o->u.sym)) {
            break;
        }
        if (emu_is_dynamic_shared(o->u.sym)) {
            fi->dyn = true;
        } else if (c->stamp[g] != f + 1) {
            c->stamp[g] = f + 1;
            push(c, &fi->gsyms, g);
        }
        break;
    }
    case IR_O_FUNC: {
        uint32_t t = emu_func_index(c->m, o->u.func);
        if (t >= c->ir->nfuncs) {
            break;
        }
        if (!target) {
            mark_taken(c, t);
        }
        if (c->fstamp[t] != f + 1) {
            c->fstamp[t] = f + 1;
            push(c, &fi->callees, t);
        }
        break;
    }
    case IR_O_VEC:
    case IR_O_LIST:
    case IR_O_PAIR:
    case IR_O_TUPLE:
        for (uint32_t k = 0; k < o->n; k++) {
            scan_opnd(c, f, &o->u.elems[k], false);
        }
        break;
    default:
        break;
    }
}

static void scan_func(Ctx *c, uint32_t f)
{
    const IrFunc *fn = c->ir->funcs[f];
    FInfo *fi = &c->fi[f];
    for (uint32_t v = 0; v < fn->nvars; v++) {
        if (is_shared_var(fn->vars[v])) {
            if (emu_is_dynamic_shared(fn->vars[v])) {
                fi->dyn = true;
            } else {
                fi->has_shared = true;
            }
        }
    }
    for (uint32_t pc = 0; pc < fn->ninsns; pc++) {
        const IrInsn *in = &fn->insns[pc];
        int target = -1;
        if (in->op == PTX_OP_CALL) {
            /* the callee is the first operand that is not a list
             * (as emu/ops_ctrl.c reads it) */
            for (int k = 0; k < in->nopnds; k++) {
                if (in->opnds[k].kind != IR_O_LIST) {
                    target = k;
                    break;
                }
            }
            if (target >= 0 && in->opnds[target].kind == IR_O_REG) {
                fi->indirect = true;
            }
        }
        for (int k = 0; k < in->nopnds; k++) {
            scan_opnd(c, f, &in->opnds[k], k == target);
        }
    }
    for (uint32_t l = 0; l < fn->nlabels; l++) {
        const IrLabel *lb = &fn->labels[l];
        if (lb->kind == IR_LABEL_CALLTARGETS && lb->ftargets) {
            for (uint32_t t = 0; t < lb->ntargets; t++) {
                mark_taken(c, emu_func_index(c->m, lb->ftargets[t]));
            }
        }
    }
}

/* Addresses in initializers: functions are taken, shared variables may
 * be used from any kernel. */
static void scan_relocs(Ctx *c, const IrSymbol *s)
{
    for (uint32_t r = 0; r < s->nrelocs; r++) {
        const IrReloc *rl = &s->relocs[r];
        if (rl->func) {
            mark_taken(c, emu_func_index(c->m, rl->func));
        }
        uint32_t g = rl->sym ? emu_global_index(c->m, rl->sym) : UINT32_MAX;
        if (g != UINT32_MAX && is_shared_var(rl->sym)) {
            if (emu_is_dynamic_shared(rl->sym)) {
                c->dyn_all = true;
            } else {
                c->gall[g] = true;
            }
        }
    }
}

/* ------------------------------------------------------ who reaches */

static void visit(Ctx *c, Vec *stack, uint32_t k, uint32_t t)
{
    if (!c->ir->funcs[t]->is_entry && c->fstamp[t] != k + 1) {
        c->fstamp[t] = k + 1;
        push(c, stack, t);
    }
}

static void reach(Ctx *c, uint32_t k, Vec *stack)
{
    uint32_t kf = c->kfunc.v[k];
    bool took = false;           /* address-taken functions pushed */
    stack->n = 0;
    c->fstamp[kf] = k + 1;
    push(c, stack, kf);
    while (stack->n && !c->oom) {
        uint32_t f = stack->v[--stack->n];
        FInfo *fi = &c->fi[f];
        if (fi->has_shared) {
            push(c, &fi->kernels, k);
        }
        for (uint32_t i = 0; i < fi->gsyms.n; i++) {
            uint32_t g = fi->gsyms.v[i];
            if (c->stamp[g] != k + 1) {
                c->stamp[g] = k + 1;
                push(c, &c->gk[g], k);
            }
        }
        if (fi->dyn && f != kf) {
            c->kd[k] = true;
        }
        for (uint32_t i = 0; i < fi->callees.n; i++) {
            visit(c, stack, k, fi->callees.v[i]);
        }
        if (fi->indirect && !took) {
            took = true;
            for (uint32_t i = 0; i < c->takenv.n; i++) {
                visit(c, stack, k, c->takenv.v[i]);
            }
        }
    }
}

/* -------------------------------------------------------- placement */

typedef struct Unit {
    uint32_t f;                  /* function, or UINT32_MAX: global v */
    uint32_t v;
    uint32_t seq;
    uint32_t nk;                 /* kernels reaching it */
} Unit;

static int unit_cmp(const void *a, const void *b)
{
    const Unit *x = a, *y = b;
    if (x->nk != y->nk) {
        return x->nk > y->nk ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t place(Ctx *c, const Unit *u, const IrSymbol *s)
{
    const Vec *ks = u->f == UINT32_MAX ? &c->gk[u->v]
                                       : &c->fi[u->f].kernels;
    bool all = u->f == UINT32_MAX && c->gall[u->v];
    uint32_t n = all ? c->kfunc.n : ks->n;
    if (!n) {
        return 0;                /* dead */
    }
    uint64_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t e = c->end[all ? i : ks->v[i]];
        off = e > off ? e : off;
    }
    off = align_up(off, emu_sym_align(s));
    uint64_t sz = emu_sym_size(s);
    uint64_t e = off + (sz < SIZE_CAP ? sz : SIZE_CAP);
    e = e < SIZE_CAP ? e : SIZE_CAP;
    for (uint32_t i = 0; i < n; i++) {
        c->end[all ? i : ks->v[i]] = e;
    }
    return off;
}

static bool layout_static(Ctx *c, struct EmuShLayout *lay)
{
    const IrModule *ir = c->ir;
    uint32_t nu = 0;
    for (uint32_t g = 0; g < ir->nglobals; g++) {
        nu += is_shared_var(ir->globals[g]);
    }
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        for (uint32_t v = 0; v < ir->funcs[f]->nvars; v++) {
            nu += is_shared_var(ir->funcs[f]->vars[v]);
        }
    }
    Unit *u = calloc(nu + 1, sizeof(*u));
    if (!u) {
        return false;
    }
    uint32_t n = 0;
    for (uint32_t g = 0; g < ir->nglobals; g++) {
        const IrSymbol *s = ir->globals[g];
        if (is_shared_var(s) && !emu_is_dynamic_shared(s)) {
            u[n] = (Unit){ UINT32_MAX, g, n,
                           c->gall[g] ? c->kfunc.n : c->gk[g].n };
            n++;
        }
    }
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        const IrFunc *fn = ir->funcs[f];
        for (uint32_t v = 0; v < fn->nvars; v++) {
            const IrSymbol *s = fn->vars[v];
            if (is_shared_var(s) && !emu_is_dynamic_shared(s)) {
                u[n] = (Unit){ f, v, n, c->fi[f].kernels.n };
                n++;
            }
        }
    }
    qsort(u, n, sizeof(*u), unit_cmp);
    for (uint32_t i = 0; i < n; i++) {
        if (u[i].f == UINT32_MAX) {
            c->m->shared_offset[u[i].v] =
                place(c, &u[i], ir->globals[u[i].v]);
        } else {
            lay->var_off[u[i].f][u[i].v] =
                place(c, &u[i], ir->funcs[u[i].f]->vars[u[i].v]);
        }
    }
    free(u);
    return true;
}

static void layout_dynamic(Ctx *c, struct EmuShLayout *lay)
{
    const IrModule *ir = c->ir;
    uint64_t dal = 16;           /* CUDA aligns dynamic shared to 16 */
    for (uint32_t g = 0; g < ir->nglobals; g++) {
        const IrSymbol *s = ir->globals[g];
        if (is_shared_var(s) && emu_is_dynamic_shared(s) &&
            emu_sym_align(s) > dal) {
            dal = emu_sym_align(s);
        }
    }
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        for (uint32_t v = 0; v < ir->funcs[f]->nvars; v++) {
            const IrSymbol *s = ir->funcs[f]->vars[v];
            if (is_shared_var(s) && emu_is_dynamic_shared(s) &&
                emu_sym_align(s) > dal) {
                dal = emu_sym_align(s);
            }
        }
    }
    uint64_t d = 0;
    for (uint32_t k = 0; k < c->kfunc.n; k++) {
        if ((c->kd[k] || c->dyn_all) && c->end[k] > d) {
            d = c->end[k];
        }
    }
    d = align_up(d, dal);
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        lay->dyn_off[f] = d;
    }
    for (uint32_t k = 0; k < c->kfunc.n; k++) {
        uint32_t f = c->kfunc.v[k];
        lay->static_bytes[f] = c->end[k];
        if (!c->kd[k] && !c->dyn_all) {
            lay->dyn_off[f] = align_up(c->end[k], dal);
        }
    }
    for (uint32_t g = 0; g < ir->nglobals; g++) {
        const IrSymbol *s = ir->globals[g];
        if (is_shared_var(s) && emu_is_dynamic_shared(s)) {
            c->m->shared_offset[g] = d;
        }
    }
    for (uint32_t f = 0; f < ir->nfuncs; f++) {
        for (uint32_t v = 0; v < ir->funcs[f]->nvars; v++) {
            const IrSymbol *s = ir->funcs[f]->vars[v];
            if (is_shared_var(s) && emu_is_dynamic_shared(s)) {
                lay->var_off[f][v] = lay->dyn_off[f];
            }
        }
    }
}

/* ------------------------------------------------------------ driver */

static struct EmuShLayout *layout_new(const IrModule *ir)
{
    struct EmuShLayout *lay = calloc(1, sizeof(*lay));
    if (!lay) {
        return NULL;
    }
    lay->var_off = calloc(ir->nfuncs + 1, sizeof(*lay->var_off));
    lay->dyn_off = calloc(ir->nfuncs + 1, sizeof(*lay->dyn_off));
    lay->static_bytes = calloc(ir->nfuncs + 1, sizeof(uint64_t));
    bool ok = lay->var_off && lay->dyn_off && lay->static_bytes;
    for (uint32_t f = 0; ok && f < ir->nfuncs; f++) {
        const IrFunc *fn = ir->funcs[f];
        bool any = false;
        for (uint32_t v = 0; v < fn->nvars; v++) {
            any |= is_shared_var(fn->vars[v]);
        }
        if (any) {
            lay->var_off[f] = calloc(fn->nvars, sizeof(uint64_t));
            ok = lay->var_off[f] != NULL;
        }
    }
    if (!ok) {
        for (uint32_t f = 0; lay->var_off && f < ir->nfuncs; f++) {
            free(lay->var_off[f]);
        }
        free(lay->var_off);
        free(lay->dyn_off);
        free(lay->static_bytes);
        free(lay);
        return NULL;
    }
    return lay;
}

static void ctx_free(Ctx *c)
{
    for (uint32_t f = 0; c->fi && f < c->ir->nfuncs; f++) {
        free(c->fi[f].callees.v);
        free(c->fi[f].gsyms.v);
        free(c->fi[f].kernels.v);
    }
    for (uint32_t g = 0; c->gk && g < c->ir->nglobals; g++) {
        free(c->gk[g].v);
    }
    free(c->fi);
    free(c->gk);
    free(c->gall);
    free(c->stamp);
    free(c->fstamp);
    free(c->taken);
    free(c->takenv.v);
    free(c->kfunc.v);
    free(c->kd);
    free(c->end);
}

static bool analyse(Ctx *c)
{
    const IrModule *ir = c->ir;
    uint32_t nf = ir->nfuncs, ng = ir->nglobals;
    c->fi = calloc(nf + 1, sizeof(*c->fi));
    c->gk = calloc(ng + 1, sizeof(*c->gk));
    c->gall = calloc(ng + 1, sizeof(*c->gall));
    c->stamp = calloc(ng + 1, sizeof(*c->stamp));
    c->fstamp = calloc(nf + 1, sizeof(*c->fstamp));
    c->taken = calloc(nf + 1, sizeof(*c->taken));
    if (!c->fi || !c->gk || !c->gall || !c->stamp || !c->fstamp ||
        !c->taken) {
        return false;
    }
    for (uint32_t f = 0; f < nf; f++) {
        scan_func(c, f);
        const IrFunc *fn = ir->funcs[f];
        for (uint32_t v = 0; v < fn->nvars; v++) {
            scan_relocs(c, fn->vars[v]);
        }
        if (fn->is_entry && !fn->is_decl && !fn->is_proto) {
            push(c, &c->kfunc, f);
        }
    }
    for (uint32_t g = 0; g < ng; g++) {
        scan_relocs(c, ir->globals[g]);
    }
    c->kd = calloc(c->kfunc.n + 1, sizeof(*c->kd));
    c->end = calloc(c->kfunc.n + 1, sizeof(*c->end));
    if (c->oom || !c->kd || !c->end) {
        return false;
    }
    memset(c->stamp, 0, (ng + 1) * sizeof(*c->stamp));
    memset(c->fstamp, 0, (nf + 1) * sizeof(*c->fstamp));
    Vec stack = { 0 };
    for (uint32_t k = 0; k < c->kfunc.n && !c->oom; k++) {
        reach(c, k, &stack);
    }
    free(stack.v);
    return !c->oom;
}

bool emu_shared_layout(EmuModule *m, char **msg)
{
    Ctx c = { .m = m, .ir = m->ir };
    struct EmuShLayout *lay = layout_new(m->ir);
    bool ok = lay && analyse(&c) && layout_static(&c, lay);
    if (ok) {
        layout_dynamic(&c, lay);
        m->shlayout = lay;
    } else {
        m->shlayout = lay;
        emu_shared_layout_free(m);
        if (msg && !*msg) {
            *msg = strdup("out of memory laying out shared memory");
        }
    }
    ctx_free(&c);
    return ok;
}

void emu_shared_layout_free(EmuModule *m)
{
    struct EmuShLayout *lay = m->shlayout;
    if (!lay) {
        return;
    }
    for (uint32_t f = 0; f < m->ir->nfuncs; f++) {
        free(lay->var_off[f]);
    }
    free(lay->var_off);
    free(lay->dyn_off);
    free(lay->static_bytes);
    free(lay);
    m->shlayout = NULL;
}

uint64_t emu_shared_var_offset(const EmuModule *m, uint32_t fi, uint32_t v)
{
    const struct EmuShLayout *lay = m->shlayout;
    return lay && fi < m->ir->nfuncs && lay->var_off[fi]
        ? lay->var_off[fi][v] : 0;
}

uint64_t emu_shared_dyn_offset(const EmuModule *m, uint32_t fi)
{
    const struct EmuShLayout *lay = m->shlayout;
    return lay && fi < m->ir->nfuncs ? lay->dyn_off[fi] : 0;
}

uint32_t emu_shared_static_bytes(const EmuModule *m, uint32_t fi)
{
    const struct EmuShLayout *lay = m->shlayout;
    if (!lay || fi >= m->ir->nfuncs) {
        return 0;
    }
    uint64_t b = lay->static_bytes[fi];
    return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}
