/*
 * emu/launch.c: a launch (its checked configuration, parameter bytes and
 * per-thread local stride) and its CTAs (ids, warps with their lanes,
 * initial SIMT entry and kernel frame, shared memory).
 *
 * A CTA's local memory is allocated on first use (emu_local_bytes in
 * memory.c); everything else a CTA needs is made by emu_cta_init and
 * freed by emu_cta_fini.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/async.h"
#include "emu/builtins.h"
#include "emu/client.h"
#include "emu/cluster.h"
#include "emu/exec.h"
#include "emu/simt.h"
#include "emu/tolerate.h"

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
        (uint64_t)kernel->shared_bytes + dyn_shared > EMU_RESV_SMEM_BEGIN ||
        kernel->dyn_shared_offset + dyn_shared > EMU_RESV_SMEM_BEGIN) {
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
    l->carveout = -1;
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
                            : emu_align_up(kernel->local_bytes, 16);
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
    emu_tolerate_flush(l->dev);
    emu_async_free(l->async);
    emu_client_launch_fini(l);
    free(l->params);
    free(l);
}

/* -------------------------------------------------------------- CTAs */


static void cta_free(EmuCta *cta);

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
    cta->sm = linear % l->dev->cfg.num_sms;
    cta->clock = emu_sm_clock(l->sm_clock, cta->sm);
    cta->cluster_rank = emu_cluster_rank_of(l, cta->ctaid);
    cta->shared = calloc(cta->shared_bytes + 1, 1);
    cta->warps = calloc(cta->nwarps, sizeof(EmuWarp));
    if (!cta->shared || !cta->warps) {
        cta_free(cta);
        return EMU_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t wi = 0; wi < cta->nwarps; wi++) {
        EmuWarp *w = &cta->warps[wi];
        w->cta = cta;
        w->id = wi;
        w->red_dst = EMU_NOREG;
        w->its_pc = EMU_NOPC;
        w->its_step_pc = EMU_NOPC;
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
            cta_free(cta);
            return EMU_ERR_OUT_OF_MEMORY;
        }
        w->stack[0] = (EmuSimtEntry){ EMU_NOPC, 0, w->valid };
        w->depth = 1;
        EmuFrame *fr = &w->frames[0];
        fr->func = l->kernel;
        fr->ret_pc = EMU_NOPC;
        fr->call_mask = w->valid;
        if (!emu_frame_regs(fr, l->kernel)) {
            cta_free(cta);
            return EMU_ERR_OUT_OF_MEMORY;
        }
        emu_frame_sp_init(fr);
        w->nframes = 1;
        if (l->kernel->ncode == 0) {
            w->depth = 0;
            w->exited = w->valid;
            emu_warp_set_state(w, EMU_WARP_EXITED);
            cta->nexited++;
        }
    }
    EmuEvent ev = { EMU_EV_CTA_START, l, cta, NULL, 0, 0, 0 };
    emu_client_event(l->dev, &ev);
    return EMU_OK;
}

static void cta_free(EmuCta *cta)
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
    emu_client_cta_fini(cta);
}

void emu_cta_fini(EmuCta *cta)
{
    if (cta->warps) {
        EmuEvent ev = { EMU_EV_CTA_DONE, cta->launch, cta, NULL, 0, 0, 0 };
        emu_client_event(cta->launch->dev, &ev);
    }
    cta_free(cta);
}

int emu_func_blocks_per_sm(const EmuGpu *gpu, const EmuFunc *f, int threads,
                           size_t dyn_smem, int carveout)
{
    return emu_gpu_blocks_per_sm(
        gpu, (int)f->regs, threads,
        (size_t)f->shared_bytes + dyn_smem, carveout);
}
