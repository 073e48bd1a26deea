/*
 * runtime/stats.c: accumulation of execution statistics (see stats.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/access.h"
#include "ptx/opcode.h"
#include "runtime/rt_timing.h"
#include "runtime/stats.h"
#include "timing/tm.h"

void rt_stats_reset(RtStats *st)
{
    memset(st, 0, sizeof(*st));
}

ptxemu_space rt_stats_space(unsigned ptx_space)
{
    switch (ptx_space) {
    case PTX_SPACE_GLOBAL: return PTXEMU_SPACE_GLOBAL;
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER: return PTXEMU_SPACE_SHARED;
    case PTX_SPACE_LOCAL: return PTXEMU_SPACE_LOCAL;
    case PTX_SPACE_CONST: return PTXEMU_SPACE_CONST;
    case PTX_SPACE_PARAM: return PTXEMU_SPACE_PARAM;
    default: return PTXEMU_SPACE_OTHER;
    }
}

void rt_stats_step(RtStats *st, const EmuStepRecord *rec)
{
    ptxemu_stats *s = &st->s;
    unsigned active = (unsigned)__builtin_popcount(rec->active);
    unsigned exec = (unsigned)__builtin_popcount(rec->exec);
    s->collected |= PTXEMU_STATS_STEPS;
    s->warp_insns++;
    s->thread_insns += active;
    s->thread_insns_executed += exec;
    if (rec->op < PTX_OP_COUNT) {
        st->op_warp[rec->op]++;
        st->op_thread[rec->op] += active;
    }
    switch (rec->kind) {
    case EMU_STEP_BRANCH:
        s->branches++;
        if (rec->diverged) {
            s->divergent_branches++;
        }
        break;
    case EMU_STEP_BARRIER:
        s->barriers++;
        break;
    case EMU_STEP_ATOMIC:
        s->atomics++;
        if (!rec->nacc) {
            s->atomic_accesses += exec;
        }
        break;
    default:
        break;
    }
    if (rec->kind == EMU_STEP_MEM || rec->kind == EMU_STEP_ATOMIC) {
        unsigned sp;
        if (rec->nacc) {
            sp = rec->acc[0].space;
        } else if (rec->func && rec->pc < rec->func->ncode) {
            sp = rec->func->code[rec->pc].space;
        } else {
            sp = PTX_SPACE_NONE;
        }
        s->mem_insns[rt_stats_space(sp)]++;
    }
    for (uint32_t k = 0; k < rec->nacc; k++) {
        const EmuAccess *a = &rec->acc[k];
        ptxemu_space sp = rt_stats_space(a->space);
        s->mem_accesses[sp]++;
        s->mem_bytes[sp] += a->size;
        /* An atomic reads and writes: it is counted in atomic_accesses
         * only, so that loads + stores + atomic_accesses is the number of
         * per-lane accesses. */
        if (a->kind == EMU_ACC_ATOMIC || a->kind == EMU_ACC_ASYNC_ATOMIC ||
            rec->kind == EMU_STEP_ATOMIC) {
            s->atomic_accesses++;
        } else if (emu_acc_writes((EmuAccKind)a->kind)) {
            s->stores++;
        } else {
            s->loads++;
        }
    }
}

void rt_stats_launch(RtStats *st, const EmuLaunch *l, uint64_t steps_seen)
{
    ptxemu_stats *s = &st->s;
    uint64_t ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t tpc = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    s->collected |= PTXEMU_STATS_LAUNCHES;
    s->launches++;
    s->ctas += ctas;
    s->threads += ctas * tpc;
    if (!steps_seen) {
        s->warp_insns += l->insns;
    }
}

typedef struct OpRow {
    const char *name;
    uint64_t w, t;
} OpRow;

static int oprow_cmp(const void *a, const void *b)
{
    const OpRow *x = a, *y = b;
    if (x->w != y->w) {
        return x->w > y->w ? -1 : 1;
    }
    return strcmp(x->name, y->name);
}

size_t rt_stats_opcodes(const RtStats *st, ptxemu_opcode_count *out,
                        size_t max)
{
    OpRow rows[PTX_OP_COUNT];
    size_t n = 0;
    for (unsigned op = 1; op < PTX_OP_COUNT; op++) {
        if (st->op_warp[op]) {
            const PtxOpInfo *oi = ptx_opinfo((PtxOpcode)op);
            rows[n].name = oi && oi->name ? oi->name : "?";
            rows[n].w = st->op_warp[op];
            rows[n].t = st->op_thread[op];
            n++;
        }
    }
    qsort(rows, n, sizeof(rows[0]), oprow_cmp);
    for (size_t i = 0; i < n && i < max; i++) {
        out[i].opcode = rows[i].name;
        out[i].warp_insns = rows[i].w;
        out[i].thread_insns = rows[i].t;
    }
    return n;
}

ptxemu_opcode_count *rt_stats_opcode_list(ptxemu_device *dev, size_t *n)
{
    size_t nops = ptxemu_get_opcode_stats(dev, NULL, 0);
    ptxemu_opcode_count *ops = nops ? calloc(nops, sizeof(*ops)) : NULL;
    *n = ops ? ptxemu_get_opcode_stats(dev, ops, nops) : 0;
    return ops;
}

void rt_stats_write_json(FILE *o, ptxemu_device *dev, const char *kernel,
                         const unsigned grid[3], const unsigned block[3])
{
    ptxemu_stats s;
    ptxemu_get_stats(dev, &s);
    size_t nops;
    ptxemu_opcode_count *ops = rt_stats_opcode_list(dev, &nops);
    bool steps = (s.collected & PTXEMU_STATS_STEPS) != 0;
    fprintf(o, "{\n");
    if (kernel) {
        fprintf(o, "  \"kernel\": ");
        tm_json_string(o, kernel);
        fprintf(o, ",\n  \"grid\": [%u, %u, %u],\n  \"block\": "
                "[%u, %u, %u],\n", grid[0], grid[1], grid[2], block[0],
                block[1], block[2]);
    }
    fprintf(o, "  \"per_instruction\": %s,\n", steps ? "true" : "false");
#define J(name, v) fprintf(o, "  \"%s\": %" PRIu64 ",\n", name, (uint64_t)(v))
    J("launches", s.launches);
    J("ctas", s.ctas);
    J("threads", s.threads);
    J("warp_instructions", s.warp_insns);
    J("thread_instructions", s.thread_insns);
    J("thread_instructions_executed", s.thread_insns_executed);
    J("branches", s.branches);
    J("divergent_branches", s.divergent_branches);
    J("loads", s.loads);
    J("stores", s.stores);
    J("atomics", s.atomics);
    J("atomic_accesses", s.atomic_accesses);
    J("barriers", s.barriers);
#undef J
    fprintf(o, "  \"memory\": {");
    for (int i = 0; i < PTXEMU_SPACE_COUNT; i++) {
        fprintf(o, "%s\n    \"%s\": {\"instructions\": %" PRIu64
                ", \"accesses\": %" PRIu64 ", \"bytes\": %" PRIu64 "}",
                i ? "," : "", ptxemu_space_name((ptxemu_space)i),
                s.mem_insns[i], s.mem_accesses[i], s.mem_bytes[i]);
    }
    fprintf(o, "\n  },\n  \"opcodes\": {");
    for (size_t i = 0; i < nops; i++) {
        fprintf(o, "%s\n    ", i ? "," : "");
        tm_json_string(o, ops[i].opcode);
        fprintf(o, ": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}",
                ops[i].warp_insns, ops[i].thread_insns);
    }
    fprintf(o, "%s}", nops ? "\n  " : "");
    const TmSession *tm = rt_device_timing(dev);
    if (tm) {
        fprintf(o, ",\n  \"timing\": ");
        tm_session_json(tm, o);
    }
    fprintf(o, "\n}\n");
    free(ops);
}
