/*
 * emu/exec.c: modules, launches, CTAs, the SIMT stack and the step.
 *
 * The SIMT stack follows the seed digest 1.3 exactly: a divergent branch
 * turns the top entry into the reconvergence entry (npc = IPDOM) and
 * pushes one entry per path, the path that runs first last.  After every
 * instruction, settle() pops entries whose npc reached their rpc or whose
 * mask became empty (exited or returned lanes), and finishes a call frame
 * when the stack is back at the depth it had when the frame was entered.
 *
 * Frames: each call pushes an EmuFrame with its own register slots and a
 * slice of every lane's local memory (local_base .. + local_bytes).  A
 * .func's params and return variables live in its frame; call copies the
 * caller's argument variables in and return copies the results out to
 * the caller's return variables, so recursion needs nothing special.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "emu/builtins.h"
#include "emu/cluster.h"
#include "emu/decode.h"
#include "emu/exec.h"
#include "emu/shlayout.h"
#include "emu/texfetch.h"
#include "ptx/opcode.h"
#include "ptx/ptx.h"

/* ------------------------------------------------------------ status */

const char *emu_status_name(EmuStatus s)
{
    static const char *const names[EMU_STATUS_COUNT] = {
        [EMU_OK] = "no error",
        [EMU_ERR_INVALID_VALUE] = "invalid value",
        [EMU_ERR_OUT_OF_MEMORY] = "out of memory",
        [EMU_ERR_INVALID_PTX] = "invalid PTX",
        [EMU_ERR_UNSUPPORTED] = "unsupported by the emulator",
        [EMU_ERR_NOT_FOUND] = "not found",
        [EMU_ERR_LAUNCH_CONFIG] = "invalid launch configuration",
        [EMU_ERR_ILLEGAL_ADDRESS] = "illegal address",
        [EMU_ERR_MISALIGNED] = "misaligned address",
        [EMU_ERR_READ_ONLY] = "write to read-only memory",
        [EMU_ERR_TRAP] = "trap instruction",
        [EMU_ERR_ASSERT] = "device-side assertion",
        [EMU_ERR_TIMEOUT] = "instruction limit reached",
        [EMU_ERR_DEADLOCK] = "deadlock",
        [EMU_ERR_ILLEGAL_INSTRUCTION] = "illegal instruction",
        [EMU_ERR_STACK_OVERFLOW] = "stack overflow",
    };
    if ((unsigned)s >= EMU_STATUS_COUNT || !names[s]) {
        return "unknown error";
    }
    return names[s];
}

void emu_config_default(EmuConfig *c)
{
    memset(c, 0, sizeof(*c));
    c->diverge_order = EMU_TAKEN_FIRST;
    c->watchdog_rounds = 1000;
    c->num_sms = 108;
    c->max_threads_per_block = 1024;
    c->max_shared_per_block = 48 * 1024;
    c->max_call_depth = 1024;
    c->local_bytes_per_thread = 1u << 20;
    c->heap_bytes = 8u << 20;
}

/* ------------------------------------------------------------ device */

EmuDevice *emu_device_new(const EmuConfig *cfg)
{
    EmuDevice *d = calloc(1, sizeof(*d));
    if (!d) {
        return NULL;
    }
    if (cfg) {
        d->cfg = *cfg;
    } else {
        emu_config_default(&d->cfg);
    }
    EmuConfig def;
    emu_config_default(&def);
    if (!d->cfg.watchdog_rounds) {
        d->cfg.watchdog_rounds = def.watchdog_rounds;
    }
    if (!d->cfg.num_sms) {
        d->cfg.num_sms = def.num_sms;
    }
    if (!d->cfg.max_threads_per_block) {
        d->cfg.max_threads_per_block = def.max_threads_per_block;
    }
    if (!d->cfg.max_shared_per_block) {
        d->cfg.max_shared_per_block = def.max_shared_per_block;
    }
    if (!d->cfg.max_call_depth) {
        d->cfg.max_call_depth = def.max_call_depth;
    }
    if (!d->cfg.local_bytes_per_thread) {
        d->cfg.local_bytes_per_thread = def.local_bytes_per_thread;
    }
    if (!d->cfg.heap_bytes) {
        d->cfg.heap_bytes = def.heap_bytes;
    }
    d->gpu = emu_gpu_for(d->cfg.arch ? d->cfg.arch
                                     : EMU_GPU_DEFAULT_ARCH);
    d->gpu.sms = d->cfg.num_sms;
    d->mem = emu_mem_new();
    d->sm_clock = calloc(d->cfg.num_sms, sizeof(uint64_t));
    if (!d->mem || !d->sm_clock) {
        emu_device_free(d);
        return NULL;
    }
    return d;
}

void emu_device_free(EmuDevice *d)
{
    if (!d) {
        return;
    }
    emu_device_flush_output(d);
    emu_builtins_device_free(d);
    emu_mem_free(d->mem);
    if (d->tex) {
        emu_tex_table_free(d->tex);
        free(d->tex);
    }
    free(d->sm_clock);
    free(d->errstr_off);
    free(d);
}

/* ----------------------------------------------------------- modules */

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        p[k] = (uint8_t)(v >> (8 * k));
    }
}

static bool module_globals(EmuModule *m, char **msg)
{
    IrModule *ir = m->ir;
    EmuMemory *mem = m->dev->mem;
    /* .global / .const variables */
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const IrSymbol *s = ir->globals[i];
        if ((s->space != PTX_SPACE_GLOBAL && s->space != PTX_SPACE_CONST)
            || s->kind != IR_SYM_VAR) {
            continue;
        }
        if (s->linkage == IR_LINK_EXTERN && s->size == 0) {
            continue;
        }
        EmuAllocKind k = s->space == PTX_SPACE_CONST ? EMU_ALLOC_CONST
            : s->managed ? EMU_ALLOC_MANAGED : EMU_ALLOC_GLOBAL;
        uint64_t a = emu_mem_alloc(mem, emu_sym_size(s), k, s->name);
        if (!a) {
            if (msg) {
                *msg = strdup("out of device memory for module variables");
            }
            return false;
        }
        m->global_addr[i] = a;
        if (s->init) {
            emu_mem_write(mem, a, s->init, s->size);
        }
    }
    /* relocations */
    for (uint32_t i = 0; i < ir->nglobals; i++) {
        const IrSymbol *s = ir->globals[i];
        if (!s->nrelocs || !m->global_addr[i]) {
            continue;
        }
        const EmuAlloc *al = emu_mem_find(mem, m->global_addr[i], 1);
        for (uint32_t r = 0; r < s->nrelocs; r++) {
            const IrReloc *rl = &s->relocs[r];
            uint64_t v = 0;
            if (rl->func) {
                v = emu_func_index(m, rl->func);
            } else if (rl->sym) {
                for (uint32_t g = 0; g < ir->nglobals; g++) {
                    if (ir->globals[g] == rl->sym) {
                        if (rl->sym->space == PTX_SPACE_SHARED) {
                            v = m->shared_offset[g];
                            if (rl->generic) {
                                v += EMU_SHARED_WINDOW;
                            }
                        } else {
                            v = m->global_addr[g];
                        }
                        break;
                    }
                }
            }
            v += (uint64_t)rl->addend;
            if (rl->mask) {
                v = (v & rl->mask) >> rl->shift;
            }
            if (al && rl->offset + rl->size <= al->size) {
                put_le(al->host + rl->offset, v, rl->size);
            }
        }
    }
    return true;
}

EmuModule *emu_module_load(EmuDevice *d, IrModule *ir, EmuStatus *st,
                           char **msg)
{
    EmuStatus s = EMU_ERR_OUT_OF_MEMORY;
    if (msg) {
        *msg = NULL;
    }
    EmuModule *m = calloc(1, sizeof(*m));
    if (!m) {
        ptx_module_free(ir);
        goto out;
    }
    m->dev = d;
    m->ir = ir;
    m->nfuncs = ir->nfuncs;
    m->funcs = calloc(ir->nfuncs + 1, sizeof(*m->funcs));
    m->global_addr = calloc(ir->nglobals + 1, sizeof(uint64_t));
    m->shared_offset = calloc(ir->nglobals + 1, sizeof(uint64_t));
    if (!m->funcs || !m->global_addr || !m->shared_offset) {
        goto fail;
    }
    /* shared offsets first: initializers may hold them */
    if (!emu_shared_layout(m, msg) || !module_globals(m, msg)) {
        goto fail;
    }
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        const IrFunc *f = ir->funcs[i];
        if (f->is_proto) {
            continue;
        }
        m->funcs[i] = emu_decode_func(m, f, msg);
        if (!m->funcs[i]) {
            s = (msg && *msg && strstr(*msg, "not supported"))
                ? EMU_ERR_UNSUPPORTED : EMU_ERR_OUT_OF_MEMORY;
            goto fail;
        }
    }
    for (uint32_t i = 0; i < ir->nfuncs; i++) {
        if (m->funcs[i] && ir->funcs[i]->is_entry) {
            m->funcs[i]->shared_bytes = emu_shared_static_bytes(m, i);
        }
    }
    emu_shared_layout_free(m);
    if (st) {
        *st = EMU_OK;
    }
    return m;
fail:
    emu_module_free(m);
out:
    if (st) {
        *st = s;
    }
    return NULL;
}

void emu_module_free(EmuModule *m)
{
    if (!m) {
        return;
    }
    if (m->global_addr && m->ir) {
        for (uint32_t i = 0; i < m->ir->nglobals; i++) {
            if (m->global_addr[i]) {
                emu_mem_release(m->dev->mem, m->global_addr[i]);
            }
        }
    }
    if (m->funcs) {
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            EmuFunc *f = m->funcs[i];
            if (!f) {
                continue;
            }
            for (uint32_t v = 0; v < f->ir->nvars; v++) {
                PtxSpace sp = f->ir->vars[v]->space;
                if ((sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_CONST) &&
                    f->var_offset) {
                    emu_mem_release(m->dev->mem, f->var_offset[v]);
                }
            }
            emu_func_free(f);
        }
    }
    emu_symmap_free(m);
    emu_shared_layout_free(m);
    free(m->funcs);
    free(m->global_addr);
    free(m->shared_offset);
    ptx_module_free(m->ir);
    free(m);
}

EmuFunc *emu_module_kernel(EmuModule *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i] && m->funcs[i]->ir->is_entry &&
            strcmp(m->funcs[i]->ir->name, name) == 0) {
            return m->funcs[i];
        }
    }
    return NULL;
}

uint64_t emu_module_global(EmuModule *m, const char *name, uint64_t *size)
{
    for (uint32_t i = 0; i < m->ir->nglobals; i++) {
        const IrSymbol *s = m->ir->globals[i];
        if (m->global_addr[i] && strcmp(s->name, name) == 0) {
            if (size) {
                *size = emu_sym_size(s);
            }
            return m->global_addr[i];
        }
    }
    return 0;
}

/* ----------------------------------------------------------- launch */

EmuStatus emu_launch_begin(EmuModule *m, const EmuFunc *kernel,
                           const uint32_t grid[3], const uint32_t block[3],
                           uint32_t dyn_shared, void **args,
                           EmuLaunch **out)
{
    EmuDevice *d = m->dev;
    *out = NULL;
    if (!kernel || !kernel->ir->is_entry) {
        return EMU_ERR_INVALID_VALUE;
    }
    uint64_t nt = (uint64_t)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !nt ||
        nt > d->cfg.max_threads_per_block ||
        (uint64_t)kernel->shared_bytes + dyn_shared >
        d->cfg.max_shared_per_block ||
        (uint64_t)kernel->shared_bytes + dyn_shared > EMU_SHARED_LIMIT ||
        kernel->dyn_shared_offset + dyn_shared > EMU_SHARED_LIMIT) {
        return EMU_ERR_LAUNCH_CONFIG;
    }
    EmuLaunch *l = calloc(1, sizeof(*l));
    if (!l) {
        return EMU_ERR_OUT_OF_MEMORY;
    }
    l->dev = d;
    l->mod = m;
    l->kernel = kernel;
    memcpy(l->grid, grid, sizeof(l->grid));
    memcpy(l->block, block, sizeof(l->block));
    l->dyn_shared = dyn_shared;
    l->params = calloc(kernel->param_bytes + 1, 1);
    l->sm_clock = d->sm_clock;
    if (!l->params) {
        emu_launch_end(l);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < kernel->ir->nparams; i++) {
        if (!args || !args[i]) {
            emu_launch_end(l);
            return EMU_ERR_INVALID_VALUE;
        }
        memcpy(l->params + kernel->param_offset[i], args[i],
               kernel->param_size[i]);
    }
    bool calls = false;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        /* frames and allocas need the whole per-thread stack */
        if (m->funcs[i] && (m->funcs[i]->has_calls ||
                            m->funcs[i]->has_alloca)) {
            calls = true;
        }
    }
    l->local_stride = calls ? d->cfg.local_bytes_per_thread
                            : align_up(kernel->local_bytes, 16);
    if (!l->local_stride) {
        l->local_stride = 16;
    }
    for (int i = 0; i < 3; i++) {
        l->cluster[i] = 1;     /* no clusters until emu_launch_cluster */
    }
    l->gridid = ++d->ngrids;
    *out = l;
    return EMU_OK;
}

void emu_launch_end(EmuLaunch *l)
{
    if (!l) {
        return;
    }
    l->dev->clock_base += l->insns;
    emu_printf_launch_end(l);
    free(l->params);
    free(l);
}

/* -------------------------------------------------------------- CTAs */

static bool frame_regs(EmuFrame *fr, const EmuFunc *f)
{
    size_t need = (size_t)(f->nslots ? f->nslots : 1) * EMU_WARP_SIZE;
    if (fr->regs_cap < need) {
        uint64_t *p = realloc(fr->regs, need * sizeof(uint64_t));
        if (!p) {
            return false;
        }
        fr->regs = p;
        fr->regs_cap = need;
    }
    memset(fr->regs, 0, (size_t)f->nregslots * EMU_WARP_SIZE *
           sizeof(uint64_t));
    for (uint32_t s = f->nregslots; s < f->nslots; s++) {
        uint64_t *r = &fr->regs[(size_t)s * EMU_WARP_SIZE];
        for (unsigned l = 0; l < EMU_WARP_SIZE; l++) {
            r[l] = f->consts[s];
        }
    }
    return true;
}

EmuStatus emu_cta_init(EmuLaunch *l, uint32_t linear, EmuCta *cta)
{
    memset(cta, 0, sizeof(*cta));
    cta->launch = l;
    cta->linear = linear;
    cta->ctaid[0] = linear % l->grid[0];
    cta->ctaid[1] = (linear / l->grid[0]) % l->grid[1];
    cta->ctaid[2] = linear / (l->grid[0] * l->grid[1]);
    uint32_t nt = l->block[0] * l->block[1] * l->block[2];
    cta->nwarps = (nt + EMU_WARP_SIZE - 1) / EMU_WARP_SIZE;
    /* dynamic shared may start past the static bytes (shlayout.h) */
    uint64_t dyn_end = l->kernel->dyn_shared_offset + l->dyn_shared;
    cta->shared_bytes = dyn_end > l->kernel->shared_bytes
        ? (uint32_t)dyn_end : l->kernel->shared_bytes;
    cta->local_stride = l->local_stride;
    cta->clock = &l->sm_clock[linear % l->dev->cfg.num_sms];
    cta->cluster_rank = emu_cluster_rank_of(l, cta->ctaid);
    cta->shared = calloc(cta->shared_bytes + 1, 1);
    cta->warps = calloc(cta->nwarps, sizeof(EmuWarp));
    if (!cta->shared || !cta->warps) {
        emu_cta_fini(cta);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        EmuWarp *w = &cta->warps[wi];
        w->cta = cta;
        w->id = wi;
        w->red_dst = EMU_NOREG;
        for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
            uint32_t t = wi * EMU_WARP_SIZE + lane;
            if (t >= nt) {
                break;
            }
            w->valid |= 1u << lane;
            w->tid[0][lane] = t % l->block[0];
            w->tid[1][lane] = (t / l->block[0]) % l->block[1];
            w->tid[2][lane] = t / (l->block[0] * l->block[1]);
        }
        w->cap = 16;
        w->stack = malloc(w->cap * sizeof(EmuSimtEntry));
        w->capframes = 4;
        w->frames = calloc(w->capframes, sizeof(EmuFrame));
        if (!w->stack || !w->frames) {
            emu_cta_fini(cta);
            return EMU_ERR_OUT_OF_MEMORY;
        }
        w->stack[0] = (EmuSimtEntry){ EMU_NOPC, 0, w->valid };
        w->depth = 1;
        EmuFrame *fr = &w->frames[0];
        fr->func = l->kernel;
        fr->ret_pc = EMU_NOPC;
        fr->call_mask = w->valid;
        if (!frame_regs(fr, l->kernel)) {
            emu_cta_fini(cta);
            return EMU_ERR_OUT_OF_MEMORY;
        }
        emu_frame_sp_init(fr);
        w->nframes = 1;
        if (l->kernel->ncode == 0) {
            w->depth = 0;
            w->exited = w->valid;
            w->state = EMU_WARP_EXITED;
            cta->nexited++;
        }
    }
    return EMU_OK;
}

void emu_cta_fini(EmuCta *cta)
{
    if (cta->warps) {
        for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
            EmuWarp *w = &cta->warps[wi];
            if (w->frames) {
                for (uint32_t k = 0; k < w->capframes; k++) {
                    free(w->frames[k].regs);
                }
            }
            free(w->frames);
            free(w->stack);
        }
    }
    free(cta->warps);
    free(cta->shared);
    free(cta->local);
    cta->warps = NULL;
    cta->shared = NULL;
    cta->local = NULL;
}

/* ------------------------------------------------- special registers */

uint64_t emu_sreg_value(EmuCtx *x, const EmuOpnd *o, unsigned lane)
{
    if (o->kind != EO_SREG) {
        return 0;
    }
    unsigned id = (unsigned)(o->imm & 0xffff);
    unsigned c = o->sel >= IR_SEL_X && o->sel <= IR_SEL_Z
        ? (unsigned)(o->sel - IR_SEL_X) : 0;
    EmuLaunch *l = x->launch;
    EmuCta *cta = x->cta;
    uint64_t lt = (1ull << lane) - 1, le = (2ull << lane) - 1;
    uint32_t sm = cta->linear % l->dev->cfg.num_sms;
    if (id == EMU_SREG_FRAME_ADDR) {
        return x->frame->local_base + o->reg;
    }
    switch ((PtxSreg)id) {
    case PTX_SREG_TID: return x->warp->tid[c][lane];
    case PTX_SREG_NTID: return l->block[c];
    case PTX_SREG_LANEID: return lane;
    case PTX_SREG_WARPID: return x->warp->id;
    case PTX_SREG_NWARPID: return cta->nwarps;
    case PTX_SREG_CTAID: return cta->ctaid[c];
    case PTX_SREG_NCTAID: return l->grid[c];
    case PTX_SREG_SMID: return sm;
    case PTX_SREG_NSMID: return l->dev->cfg.num_sms;
    case PTX_SREG_GRIDID: return l->gridid;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return l->explicit_cluster;
    case PTX_SREG_CLUSTERID: return cta->ctaid[c] / l->cluster[c];
    case PTX_SREG_NCLUSTERID: return l->grid[c] / l->cluster[c];
    case PTX_SREG_CLUSTER_CTAID: return cta->ctaid[c] % l->cluster[c];
    case PTX_SREG_CLUSTER_NCTAID: return l->cluster[c];
    case PTX_SREG_CLUSTER_CTARANK: return cta->cluster_rank;
    case PTX_SREG_CLUSTER_NCTARANK: return emu_cluster_size(l);
    case PTX_SREG_LANEMASK_EQ: return (uint32_t)(1u << lane);
    case PTX_SREG_LANEMASK_LE: return (uint32_t)le;
    case PTX_SREG_LANEMASK_LT: return (uint32_t)lt;
    case PTX_SREG_LANEMASK_GE: return (uint32_t)~lt;
    case PTX_SREG_LANEMASK_GT: return (uint32_t)~le;
    case PTX_SREG_CLOCK: return (uint32_t)l->sm_clock[sm];
    case PTX_SREG_CLOCK_HI: return (uint32_t)(l->sm_clock[sm] >> 32);
    case PTX_SREG_CLOCK64: return l->sm_clock[sm];
    case PTX_SREG_GLOBALTIMER: return l->dev->clock_base + l->insns;
    case PTX_SREG_GLOBALTIMER_LO:
        return (uint32_t)(l->dev->clock_base + l->insns);
    case PTX_SREG_GLOBALTIMER_HI:
        return (uint32_t)((l->dev->clock_base + l->insns) >> 32);
    case PTX_SREG_TOTAL_SMEM_SIZE:
    case PTX_SREG_AGGR_SMEM_SIZE:
        return l->kernel->shared_bytes + l->dyn_shared;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return l->dyn_shared;
    case PTX_SREG_ENVREG:
        /* cooperative groups: envreg1:envreg2 = grid workspace */
        switch (o->imm >> 16) {
        case 1: return (uint32_t)(l->coop_ws >> 32);
        case 2: return (uint32_t)l->coop_ws;
        default: return 0;
        }
    default:
        return 0;   /* envreg, pm, reserved smem, graph exec */
    }
}

/* ------------------------------------------------------------ faults */

void emu_fault(EmuCtx *x, EmuStatus st, unsigned lane, uint64_t addr,
               uint32_t size, PtxSpace space, const char *fmt, ...)
{
    EmuLaunch *l = x->launch;
    if (x->fault || l->faulted) {
        return;
    }
    EmuFault *f = &l->fault;
    memset(f, 0, sizeof(*f));
    f->status = st;
    f->kernel = l->kernel->ir->name;
    memcpy(f->ctaid, x->cta->ctaid, sizeof(f->ctaid));
    for (int c = 0; c < 3; c++) {
        f->tid[c] = x->warp->tid[c][lane & 31];
    }
    f->pc = x->pc;
    const EmuFunc *fn = x->frame->func;
    f->func = fn->ir->name;
    f->file = ir_func_file(l->mod->ir, fn->ir);
    f->addr = addr;
    f->size = size;
    f->space = space;
    const IrInsn *in = NULL;
    if (x->pc < fn->ir->ninsns) {
        in = &fn->ir->insns[x->pc];
        f->loc = in->loc;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
    emu_fault_print_insn(l, fn->ir, in);
    l->faulted = true;
    x->fault = f;
    l->dev->last_fault = *f;
    l->dev->has_fault = true;
}

void emu_fault_print_insn(EmuLaunch *l, const IrFunc *fn,
                          const IrInsn *in)
{
    l->fault_text[0] = 0;
    if (!in) {
        return;
    }
    FILE *fp = fmemopen(l->fault_text, sizeof(l->fault_text) - 1, "w");
    if (fp) {
        ptx_print_insn(fp, l->mod->ir, fn, in);
        fclose(fp);
    }
    l->fault_text[sizeof(l->fault_text) - 1] = 0;
    size_t n = strlen(l->fault_text);
    while (n && (l->fault_text[n - 1] == '\n' ||
                 l->fault_text[n - 1] == ' ')) {
        l->fault_text[--n] = 0;
    }
}

/* ------------------------------------------------------- SIMT stack */

static bool stack_push(EmuWarp *w, EmuSimtEntry e)
{
    if (w->depth == w->cap) {
        uint32_t nc = w->cap * 2;
        EmuSimtEntry *p = realloc(w->stack, nc * sizeof(*p));
        if (!p) {
            return false;
        }
        w->stack = p;
        w->cap = nc;
    }
    w->stack[w->depth++] = e;
    return true;
}

void emu_simt_split(EmuCtx *x, uint32_t n, const uint32_t *pcs,
                    const uint32_t *masks, uint32_t reconv)
{
    EmuWarp *w = x->warp;
    if (n == 2 && masks[0] && masks[1] && w->depth + 2 <= w->cap) {
        /* a divergent bra: the loop below, unrolled for two paths with
         * room on the stack.  Path 0 (taken) runs first, or under the
         * majority policy the path with fewer lanes (taken on a tie). */
        unsigned first = x->dev->cfg.diverge_order == EMU_MAJORITY_LAST &&
            __builtin_popcount(masks[0]) > __builtin_popcount(masks[1]);
        x->branched = true;
        w->stack[w->depth - 1].npc = reconv;
        w->stack[w->depth++] = (EmuSimtEntry){ reconv, pcs[!first],
                                               masks[!first] };
        w->stack[w->depth++] = (EmuSimtEntry){ reconv, pcs[first],
                                               masks[first] };
        return;
    }
    uint32_t idx[EMU_WARP_SIZE + 1];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < EMU_WARP_SIZE + 1; i++) {
        if (masks[i]) {
            idx[k++] = i;
        }
    }
    x->branched = true;
    EmuSimtEntry *top = &w->stack[w->depth - 1];
    if (k == 0) {
        top->npc = x->pc + 1;
        return;
    }
    if (k == 1) {
        top->npc = pcs[idx[0]];
        return;
    }
    /* push order: the path pushed last runs first.  idx[] holds the
     * paths in "run first" order of the taken-first policy (callers put
     * the taken path first); the majority policy runs the smaller paths
     * first (stable on ties). */
    if (x->dev->cfg.diverge_order == EMU_MAJORITY_LAST) {
        for (uint32_t a = 1; a < k; a++) {
            uint32_t v = idx[a], b = a;
            while (b > 0 && __builtin_popcount(masks[idx[b - 1]]) >
                            __builtin_popcount(masks[v])) {
                idx[b] = idx[b - 1];
                b--;
            }
            idx[b] = v;
        }
    }
    top->npc = reconv;
    for (uint32_t j = k; j-- > 0;) {
        if (!stack_push(w, (EmuSimtEntry){ reconv, pcs[idx[j]],
                                          masks[idx[j]] })) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                      "SIMT stack overflow");
            return;
        }
    }
}

static void warp_remove_lanes(EmuWarp *w, uint32_t from, uint32_t lanes)
{
    for (uint32_t d = from; d < w->depth; d++) {
        w->stack[d].mask &= ~lanes;
    }
}

void emu_simt_exit(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    x->branched = true;
    w->exited |= lanes;
    warp_remove_lanes(w, 0, lanes);
    for (uint32_t f = 0; f < w->nframes; f++) {
        w->frames[f].call_mask &= ~lanes;
    }
    w->stack[w->depth - 1].npc = x->pc + 1;
    /* exited threads no longer hold back a cluster barrier */
    emu_cluster_check(x->cta->cluster, x->launch);
}

void emu_simt_ret(EmuCtx *x, uint32_t lanes)
{
    EmuWarp *w = x->warp;
    if (w->nframes <= 1) {
        emu_simt_exit(x, lanes);
        return;
    }
    EmuFrame *fr = &w->frames[w->nframes - 1];
    x->branched = true;
    fr->returned |= lanes;
    warp_remove_lanes(w, fr->stack_base, lanes);
    w->stack[w->depth - 1].npc = x->pc + 1;
}

static inline uint8_t *lane_local(EmuCta *cta, EmuWarp *w, unsigned lane)
{
    return cta->local + ((size_t)w->id * EMU_WARP_SIZE + lane) *
           cta->local_stride;
}

static void copy_in(uint8_t *dst, uint64_t v, uint64_t n)
{
    for (uint64_t k = 0; k < n && k < 8; k++) {
        dst[k] = (uint8_t)(v >> (8 * k));
    }
}

static uint64_t read_le(const uint8_t *p, uint64_t n)
{
    uint64_t v = 0;
    for (uint64_t k = 0; k < n && k < 8; k++) {
        v |= (uint64_t)p[k] << (8 * k);
    }
    return v;
}

/* Operand indices of a call: returns list, target, arguments. */
static void call_layout(const EmuInsn *c, int *ri, int *ti, int *ai)
{
    *ri = *ti = *ai = -1;
    for (int k = 0; k < c->nopnd; k++) {
        if (c->o[k].kind == EO_LIST) {
            if (*ti < 0) {
                *ri = k;
            } else if (*ai < 0) {
                *ai = k;
            }
        } else if (*ti < 0) {
            *ti = k;
        }
    }
}

void emu_simt_call(EmuCtx *x, uint32_t lanes, const EmuFunc *callee,
                   const EmuInsn *call)
{
    EmuWarp *w = x->warp;
    EmuCta *cta = x->cta;
    EmuFrame *fr = x->frame;
    /* the callee's frame (uniform over the warp) starts above every
     * calling lane's stack, allocas included */
    uint64_t base = fr->local_base + fr->func->local_bytes;
    EMU_FOR_LANES(lanes, l) {
        base = fr->sp[l] > base ? fr->sp[l] : base;
    }
    base = align_up(base, 16);
    x->branched = true;
    w->stack[w->depth - 1].npc = x->pc + 1;
    if (!lanes) {
        return;
    }
    if (w->nframes >= x->dev->cfg.max_call_depth ||
        base + callee->local_bytes > cta->local_stride) {
        emu_fault(x, EMU_ERR_STACK_OVERFLOW, (unsigned)__builtin_ctz(lanes),
                  0, 0, PTX_SPACE_LOCAL,
                  "call stack overflow calling %s (depth %u, %llu bytes "
                  "of local memory per thread)", callee->ir->name,
                  w->nframes, (unsigned long long)cta->local_stride);
        return;
    }
    if (!emu_local_bytes(cta)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_LOCAL,
                  "cannot allocate local memory");
        return;
    }
    if (w->nframes == w->capframes) {
        uint32_t nc = w->capframes * 2;
        EmuFrame *p = realloc(w->frames, nc * sizeof(*p));
        if (!p) {
            emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                      "out of memory for call frames");
            return;
        }
        memset(p + w->capframes, 0, (nc - w->capframes) * sizeof(*p));
        w->frames = p;
        w->capframes = nc;
        fr = &w->frames[w->nframes - 1];
        x->frame = fr;
    }
    EmuFrame *nf = &w->frames[w->nframes];
    if (!frame_regs(nf, callee)) {
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "out of memory for call frames");
        return;
    }
    nf->func = callee;
    nf->local_base = base;
    emu_frame_sp_init(nf);
    nf->ret_pc = x->pc + 1;
    nf->stack_base = w->depth;
    nf->call_mask = lanes;
    nf->call = call;
    nf->returned = 0;
    /* arguments */
    int ri, ti, ai;
    call_layout(call, &ri, &ti, &ai);
    const EmuFunc *cf = fr->func;
    if (ai >= 0) {
        const EmuOpnd *a = &call->o[ai];
        for (uint32_t j = 0; j < a->n && j < callee->ir->nparams; j++) {
            uint32_t v = cf->vslots[a->reg + j];
            uint64_t sz = callee->param_size[j];
            uint64_t dst = base + callee->param_offset[j];
            EMU_FOR_LANES(lanes, lane) {
                uint8_t *tl = lane_local(cta, w, lane);
                if (v & EMU_LIST_REG) {
                    copy_in(tl + dst, fr->regs[(size_t)(v & ~EMU_LIST_REG) *
                                               EMU_WARP_SIZE + lane], sz);
                } else {
                    memmove(tl + dst, tl + fr->local_base + v, sz);
                }
            }
        }
    }
    w->nframes++;
    if (!stack_push(w, (EmuSimtEntry){ EMU_NOPC, 0, lanes })) {
        w->nframes--;
        emu_fault(x, EMU_ERR_OUT_OF_MEMORY, 0, 0, 0, PTX_SPACE_NONE,
                  "SIMT stack overflow");
        return;
    }
    x->frame = &w->frames[w->nframes - 1];
    x->func = callee;
}

/* The top frame's lanes have all returned: copy results, pop it. */
static void frame_return(EmuCta *cta, EmuWarp *w)
{
    EmuFrame *fr = &w->frames[w->nframes - 1];
    EmuFrame *caller = &w->frames[w->nframes - 2];
    uint32_t lanes = fr->returned & ~w->exited;
    int ri, ti, ai;
    const EmuInsn *call = fr->call;
    call_layout(call, &ri, &ti, &ai);
    const EmuFunc *callee = fr->func;
    if (ri >= 0 && lanes) {
        const EmuOpnd *r = &call->o[ri];
        for (uint32_t j = 0; j < r->n && j < callee->ir->nrets; j++) {
            uint32_t v = caller->func->vslots[r->reg + j];
            uint64_t sz = callee->ret_size[j];
            uint64_t src = fr->local_base + callee->ret_offset[j];
            EMU_FOR_LANES(lanes, lane) {
                uint8_t *tl = lane_local(cta, w, lane);
                if (v & EMU_LIST_REG) {
                    caller->regs[(size_t)(v & ~EMU_LIST_REG) *
                                 EMU_WARP_SIZE + lane] = read_le(tl + src, sz);
                } else {
                    memmove(tl + caller->local_base + v, tl + src, sz);
                }
            }
        }
    }
    w->nframes--;
}

static void barrier_check(EmuCta *cta, unsigned id);

/* Pop finished entries and frames after an instruction. */
static void settle(EmuCta *cta, EmuWarp *w)
{
    for (;;) {
        if (w->depth == 0) {
            if (w->state != EMU_WARP_EXITED) {
                w->state = EMU_WARP_EXITED;
                w->exited |= w->valid;
                cta->nexited++;
                cta->launch->progress++;
                for (unsigned b = 0; b < EMU_MAX_BARRIERS; b++) {
                    if (cta->bar_arrived[b]) {
                        barrier_check(cta, b);
                    }
                }
                emu_cluster_check(cta->cluster, cta->launch);
            }
            return;
        }
        EmuFrame *fr = &w->frames[w->nframes - 1];
        if (w->nframes > 1 && w->depth == fr->stack_base) {
            frame_return(cta, w);
            continue;
        }
        EmuSimtEntry *e = &w->stack[w->depth - 1];
        if (e->mask == 0 || e->npc == e->rpc) {
            w->depth--;
            continue;
        }
        if (e->npc >= fr->func->ncode) {
            if (w->state == EMU_WARP_AT_BARRIER) {
                return;    /* leaves after the barrier releases it */
            }
            /* fell off the end (or a path to "exit" that never met an
             * instruction): the lanes leave the function */
            uint32_t lanes = e->mask;
            if (w->nframes > 1) {
                fr->returned |= lanes;
                warp_remove_lanes(w, fr->stack_base, lanes);
            } else {
                w->exited |= lanes;
                warp_remove_lanes(w, 0, lanes);
                emu_cluster_check(cta->cluster, cta->launch);
            }
            continue;
        }
        return;
    }
}

/* ---------------------------------------------------------- barriers */

static void barrier_release(EmuCta *cta, unsigned id)
{
    uint32_t result = cta->bar_red[id];
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        EmuWarp *w = &cta->warps[wi];
        if (w->state == EMU_WARP_AT_BARRIER && w->barrier_id == id) {
            w->state = EMU_WARP_READY;
            if (w->red_dst != EMU_NOREG) {
                uint64_t *r = &w->frames[w->nframes - 1]
                                   .regs[(size_t)w->red_dst * EMU_WARP_SIZE];
                uint64_t v = result;
                if (w->red_pred || cta->bar_op[id] != PTX_M_POPC) {
                    v = result != 0;
                }
                EMU_FOR_LANES(w->red_lanes, lane) {
                    r[lane] = v;
                }
                w->red_dst = EMU_NOREG;
            }
        }
    }
    cta->bar_arrived[id] = 0;
    cta->bar_expected[id] = 0;
    cta->bar_red[id] = 0;
    cta->launch->progress++;
}

static void barrier_check(EmuCta *cta, unsigned id)
{
    uint32_t need = cta->bar_expected[id]
        ? cta->bar_expected[id] : cta->nwarps - cta->nexited;
    if (cta->bar_arrived[id] >= need) {
        barrier_release(cta, id);
    }
}

void emu_barrier_arrive(EmuCtx *x, unsigned id, uint32_t expected,
                        bool wait)
{
    EmuCta *cta = x->cta;
    id &= EMU_MAX_BARRIERS - 1;
    cta->bar_arrived[id]++;
    if (expected) {
        cta->bar_expected[id] = expected;
    }
    if (wait) {
        x->warp->state = EMU_WARP_AT_BARRIER;
        x->warp->barrier_id = id;
    }
    barrier_check(cta, id);
}

/* -------------------------------------------------------------- step */

static EmuStepKind step_kind(uint16_t op)
{
    uint32_t fl = ptx_opinfo((PtxOpcode)op)->flags;
    if (fl & (OPF_BRANCH | OPF_BRX)) {
        return EMU_STEP_BRANCH;
    }
    if (fl & OPF_ATOMIC) {
        return EMU_STEP_ATOMIC;
    }
    if (fl & (OPF_LOAD | OPF_STORE)) {
        return EMU_STEP_MEM;
    }
    if (fl & OPF_BARRIER) {
        return EMU_STEP_BARRIER;
    }
    if (fl & OPF_CALL) {
        return EMU_STEP_CALL;
    }
    if (fl & OPF_RET) {
        return EMU_STEP_RET;
    }
    if (fl & OPF_EXIT) {
        return EMU_STEP_EXIT;
    }
    return EMU_STEP_ALU;
}

/* The lanes whose predicate slot is true (non-zero: the test does not
 * rely on predicates being kept 0/1). */
#ifdef __SSE2__
/* Per 4 lanes: gather the low and the high 32-bit halves of the 64-bit
 * slots (shufps moves bits, it does no float arithmetic), OR them and
 * compare with zero; the 32 results are packed to bytes with signed
 * saturation (0 and -1 stay 0 and -1) and movemask takes one bit per
 * lane: about 70 instructions instead of about 160 for the scalar loop,
 * which runs for every guarded instruction. */
static inline uint32_t pred_mask(const uint64_t *g)
{
    const __m128i zero = _mm_setzero_si128();
    uint32_t zmask = 0;
#pragma GCC unroll 2
    for (unsigned h = 0; h < 2; h++) {
        __m128i c[4];
#pragma GCC unroll 4
        for (unsigned q = 0; q < 4; q++) {
            const __m128i *p = (const __m128i *)(g + 16 * h + 4 * q);
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128(p));
            __m128 b = _mm_castsi128_ps(_mm_loadu_si128(p + 1));
            __m128i lo = _mm_castps_si128(
                _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            __m128i hi = _mm_castps_si128(
                _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
            c[q] = _mm_cmpeq_epi32(_mm_or_si128(lo, hi), zero);
        }
        __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(c[0], c[1]),
                                        _mm_packs_epi32(c[2], c[3]));
        zmask |= (uint32_t)_mm_movemask_epi8(bytes) << (16 * h);
    }
    return ~zmask;
}
#else
static inline uint32_t pred_mask(const uint64_t *g)
{
    uint32_t m = 0;
#pragma GCC unroll 32
    for (unsigned lane = 0; lane < EMU_WARP_SIZE; lane++) {
        m |= (uint32_t)(g[lane] != 0) << lane;
    }
    return m;
}
#endif

/* Nothing to pop: the common case after an ordinary instruction. */
static inline bool settled(const EmuWarp *w)
{
    if (w->depth == 0) {
        return false;
    }
    const EmuSimtEntry *e = &w->stack[w->depth - 1];
    const EmuFrame *fr = &w->frames[w->nframes - 1];
    return e->mask != 0 && e->npc != e->rpc && e->npc < fr->func->ncode &&
           (w->nframes == 1 || w->depth != fr->stack_base);
}

/* The launch reached EmuConfig.insn_limit after the instruction at pc
 * (x: that step's context). */
static __attribute__((noinline, cold)) EmuStatus
limit_fault(EmuWarp *w, const EmuCtx *x, uint32_t pc)
{
    EmuCtx y = *x;
    y.frame = &w->frames[w->nframes - 1];
    y.pc = w->depth ? w->stack[w->depth - 1].npc : pc;
    if (y.pc >= y.frame->func->ncode) {
        y.pc = pc;
    }
    emu_fault(&y, EMU_ERR_TIMEOUT, w->depth
              ? (unsigned)__builtin_ctz(w->stack[w->depth - 1].mask |
                                        1u << 31) : 0,
              0, 0, PTX_SPACE_NONE,
              "instruction limit of %llu warp instructions reached",
              (unsigned long long)x->dev->cfg.insn_limit);
    return EMU_ERR_TIMEOUT;
}

static inline __attribute__((always_inline)) EmuStatus
step_impl(EmuCta *cta, EmuWarp *w, EmuStepRecord *rec)
{
    EmuLaunch *l = cta->launch;
    if (w->state != EMU_WARP_READY || w->depth == 0) {
        if (rec) {
            rec->kind = EMU_STEP_OTHER;
            rec->nacc = 0;
            rec->active = rec->exec = 0;
        }
        return EMU_OK;
    }
    EmuFrame *fr = &w->frames[w->nframes - 1];
    EmuSimtEntry *e = &w->stack[w->depth - 1];
    if (e->npc >= fr->func->ncode) {
        /* released from a barrier at the end of the function */
        settle(cta, w);
        if (rec) {
            rec->kind = EMU_STEP_OTHER;
            rec->nacc = 0;
            rec->active = rec->exec = 0;
        }
        return EMU_OK;
    }
    const EmuFunc *fn = fr->func;
    uint32_t pc = e->npc;
    const EmuInsn *i = &fn->code[pc];
    uint32_t active = e->mask, exec = active;
    if (i->guard != EMU_NOREG) {
        const uint64_t *g = &fr->regs[(size_t)i->guard * EMU_WARP_SIZE];
        uint32_t gm = pred_mask(g);
        exec = active & (i->guard_neg ? ~gm : gm);
    }
    uint32_t depth0 = w->depth;
    EmuCtx x;
    x.dev = l->dev;
    x.launch = l;
    x.cta = cta;
    x.warp = w;
    x.regs = fr->regs;
    x.fault = NULL;
    x.acc = rec ? rec->acc : NULL;
    x.nacc = 0;
    x.next_pc = pc + 1;
    x.branched = false;
    x.pc = pc;
    x.active = active;
    x.frame = fr;
    x.func = fn;
    i->fn(&x, i, exec);
    w->ninsns++;
    l->insns++;
    (*cta->clock)++;
    if (!x.branched) {
        w->stack[w->depth - 1].npc = x.next_pc;
    }
    if (!settled(w)) {
        settle(cta, w);
    }
    if (rec) {
        rec->kind = x.fault ? EMU_STEP_FAULT : step_kind(i->op);
        rec->op = i->op;
        rec->pc = pc;
        rec->func = fn;
        rec->active = active;
        rec->exec = exec;
        rec->diverged = w->depth > depth0;
        rec->nacc = x.nacc;
    }
    if (x.fault) {
        return x.fault->status;
    }
    if (l->dev->cfg.insn_limit && l->insns >= l->dev->cfg.insn_limit &&
        w->state != EMU_WARP_EXITED) {
        return limit_fault(w, &x, pc);
    }
    return EMU_OK;
}

EmuStatus emu_warp_step(EmuCta *cta, EmuWarp *w, EmuStepRecord *rec)
{
    return step_impl(cta, w, rec);
}

#define LIKELY(c) __builtin_expect(!!(c), 1)
#define UNLIKELY(c) __builtin_expect(!!(c), 0)

/*
 * The fast loop: step_impl(cta, w, NULL) repeated, with the same effects
 * step for step.  A run of steps with one TOS entry and one frame (a
 * segment) keeps the entry, frame, code, context and masks in locals:
 * only control-flow handlers (which set x.branched: split, call, ret,
 * exit) push or pop entries, add frames or change entry masks, so while
 * x.branched stays false the TOS entry, its mask and the frame cannot
 * change and settled(w) reduces to "the next pc is neither the entry's
 * rpc nor past the code".  Anything else (a branch that diverged, a
 * fault, a barrier, a settle) ends the segment; unusual entry states
 * take step_impl itself.  Only steps change EmuLaunch.insns, one each, so
 * the quantum and the instruction limit are one countdown.
 */
EmuStatus emu_warp_run(EmuCta *cta, EmuWarp *w, uint32_t max)
{
    EmuLaunch *l = cta->launch;
    uint64_t *clock = cta->clock;
    const uint64_t limit = l->dev->cfg.insn_limit;
    uint32_t n = 0;
    /* the fields no handler changes; a fault returns at once */
    EmuCtx x;
    x.dev = l->dev;
    x.launch = l;
    x.cta = cta;
    x.warp = w;
    x.fault = NULL;
    x.acc = NULL;
    x.nacc = 0;
    while (n < max && w->state == EMU_WARP_READY) {
        EmuFrame *fr = w->depth ? &w->frames[w->nframes - 1] : NULL;
        EmuSimtEntry *e = w->depth ? &w->stack[w->depth - 1] : NULL;
        if (UNLIKELY(!e || e->npc >= fr->func->ncode || e->mask == 0 ||
                     (w->nframes > 1 && w->depth == fr->stack_base) ||
                     (limit && l->insns >= limit))) {
            EmuStatus st = step_impl(cta, w, NULL);
            n++;
            if (st != EMU_OK) {
                return st;
            }
            continue;
        }
        /* steps this segment may take before the quantum ends or the
         * limit needs its check */
        uint32_t left = max - n;
        if (limit && limit - l->insns < left) {
            left = (uint32_t)(limit - l->insns);
        }
        const EmuFunc *fn = fr->func;
        const EmuInsn *code = fn->code;
        const uint32_t ncode = fn->ncode, rpc = e->rpc, active = e->mask;
        /* below lim no pc can be the rpc or past the code: one compare
         * per step */
        const uint32_t lim = rpc < ncode ? rpc : ncode;
        uint64_t *regs = fr->regs;
        uint32_t pc = e->npc, done = 0;
        x.regs = regs;
        x.branched = false;
        x.active = active;
        x.frame = fr;
        x.func = fn;
        for (;;) {
            const EmuInsn *i = &code[pc];
            uint32_t exec = active;
            if (i->guard != EMU_NOREG) {
                uint32_t gm = pred_mask(&regs[(size_t)i->guard *
                                              EMU_WARP_SIZE]);
                exec = active & (i->guard_neg ? ~gm : gm);
            }
            x.pc = pc;
            x.next_pc = pc + 1;
            i->fn(&x, i, exec);
            done++;
            l->insns++;
            (*clock)++;
            if (UNLIKELY(x.branched)) {
                if (!settled(w)) {
                    settle(cta, w);
                }
                break;
            }
            pc = x.next_pc;
            e->npc = pc;
            if (UNLIKELY(pc >= lim) && (pc == rpc || pc >= ncode)) {
                /* settle()'s first round, inline for the common case:
                 * a path reached its reconvergence point */
                if (pc == rpc) {
                    w->depth--;
                }
                if (!settled(w)) {
                    settle(cta, w);
                }
                break;
            }
            if (UNLIKELY(x.fault) || done == left ||
                w->state != EMU_WARP_READY) {
                break;
            }
        }
        n += done;
        w->ninsns += done;            /* read by no handler */
        if (UNLIKELY(x.fault)) {
            return x.fault->status;
        }
        if (UNLIKELY(limit) && l->insns >= limit &&
            w->state != EMU_WARP_EXITED) {
            return limit_fault(w, &x, x.pc);
        }
    }
    return EMU_OK;
}
