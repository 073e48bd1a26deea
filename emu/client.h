/*
 * emu/client.h: in-tree clients of the emulator (statistics, the
 * checkers of `ptxemu sanitize` in check/; tracing next): a versioned
 * hook interface, several clients per device at once.
 *
 * Contract.
 *  - A client is an EmuClient, copied by emu_client_attach().  It starts
 *    with abi_version and struct_size (the habits of the timing plug-in
 *    ABI, timing/ptxemu_timing.h): a version outside [EMU_CLIENT_ABI_MIN,
 *    EMU_CLIENT_ABI] or a struct smaller than that version's is refused
 *    with a message; fields are only ever appended.
 *  - Clients are device-wide: every launch of the device, child grids
 *    of dynamic parallelism included, reports to every attached client.
 *    Attach and detach between launches only.
 *  - Opt-in per state space and per event: on_access is called once per
 *    instruction with that instruction's accesses (per lane, in order,
 *    emu/access.h) in the spaces the client watches (bit 1u << PtxSpace
 *    of the resolved space), never for an instruction with none;
 *    on_event for the kinds in `events` (bit 1u << EmuEventKind);
 *    on_step after every step that ran an instruction when want_steps.
 *  - Cost: with no client, the fast loop is unchanged.  Clients that
 *    watch accesses and events but not steps keep the fast loop (the
 *    funnel notes accesses into a per-launch list, ld/st/atom with one
 *    store per lane, emu/access.h); want_steps makes every step fill a
 *    record (emu/exec.h), which is slower.  A no-op client watching
 *    every space costs at most 15% of bench/emu's warp-insn/s.
 *  - Callbacks must not attach, detach or launch.  What they are given
 *    is valid during the call only.
 *  - Client state lives in opaque slots (emu_client_*_slot), one per
 *    client per launch, CTA and warp, freed with them (a client frees
 *    what it hung there on the LAUNCH_END / CTA_DONE events).
 */
#ifndef PTXEMU_EMU_CLIENT_H
#define PTXEMU_EMU_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/access.h"
#include "emu/exec.h"

#define EMU_CLIENT_ABI 1              /* the version this emulator has */
#define EMU_CLIENT_ABI_MIN 1          /* the oldest it accepts */
#define EMU_CLIENT_MAX 8              /* attached at once */

typedef enum EmuEventKind {
    EMU_EV_LAUNCH_BEGIN = 0,      /* launch (child grids too) */
    EMU_EV_LAUNCH_END,
    EMU_EV_CTA_START,             /* launch, cta */
    EMU_EV_CTA_DONE,
    EMU_EV_WARP_EXIT,             /* launch, cta, warp: its last lanes */
    EMU_EV_BARRIER,               /* launch, cta, id: a CTA barrier
                                     released (bar/barrier; id
                                     EMU_CLUSTER_BARRIER for
                                     barrier.cluster); for a CTA
                                     barrier addr: the warps that
                                     arrived (bit = warp index; bar.sync
                                     and bar.arrive alike), size: those
                                     that waited; both 0 for
                                     barrier.cluster (every warp) */
    EMU_EV_MBAR_FLIP,             /* launch, cta, warp, addr: an
                                     mbarrier's phase completed (addr:
                                     as the instruction named it) */
    EMU_EV_DEV_ALLOC,             /* addr, size: device malloc */
    EMU_EV_DEV_FREE,              /* addr, size: device free */
    EMU_EV_HOST_ALLOC,            /* addr, size: emu_mem_alloc of any
                                     other kind (cudaMalloc, globals) */
    EMU_EV_HOST_FREE,             /* addr, size: emu_mem_release */
    EMU_EV_FENCE,                 /* launch, cta, warp, addr: the lanes,
                                     id: the PtxMod of the scope
                                     (membar.gl: PTX_M_GPU): membar and
                                     fence (not fence.proxy) */
    EMU_EV_HOST_WRITE,            /* addr, size: the host wrote device
                                     memory (memcpy, memset) */
    EMU_EV_WARPSYNC,              /* launch, cta, warp, id: the member
                                     mask: a bar.warp.sync released
                                     (every non-exited member arrived),
                                     under independent thread scheduling
                                     only (emu/its.h) */
    EMU_EV_DEADLOCK,              /* launch, cta: the watchdog found the
                                     launch deadlocked or livelocked
                                     (emu/grid.h); one event per resident
                                     CTA with live warps, before the
                                     fault is made, while the warps'
                                     states say what each waits for;
                                     warp NULL.  Also (emu/its.h) one
                                     for a .sync warp operation whose
                                     members can never arrive: warp,
                                     addr: the lanes executing it (the
                                     TOS path), size: its member mask,
                                     id: its pc, before that fault) */
    EMU_EV_COUNT
} EmuEventKind;

#define EMU_EV_ALL ((1u << EMU_EV_COUNT) - 1)

typedef struct EmuEvent {
    EmuEventKind kind;
    EmuLaunch *launch;            /* NULL for allocations outside one */
    EmuCta *cta;                  /* where it applies, else NULL */
    EmuWarp *warp;
    uint64_t addr, size;
    uint32_t id;
} EmuEvent;

typedef struct EmuClient {
    uint32_t abi_version;         /* EMU_CLIENT_ABI */
    uint32_t struct_size;         /* sizeof(EmuClient) */
    const char *name;             /* for messages */
    uint32_t spaces;              /* 1u << PtxSpace watched by on_access */
    uint32_t events;              /* 1u << EmuEventKind */
    bool want_steps;
    void *ctx;
    /* x: the executing warp's context (launch, cta, warp, pc, func) */
    void (*on_access)(void *ctx, const EmuCtx *x, const EmuAccess *a,
                      uint32_t n);
    void (*on_event)(void *ctx, const EmuEvent *e);
    void (*on_step)(void *ctx, const EmuCta *cta, const EmuWarp *w,
                    const EmuStepRecord *rec);
} EmuClient;

/* The size of version 1's struct (the smallest accepted). */
#define EMU_CLIENT_SIZE_V1 sizeof(EmuClient)

/* Attach a copy of c to d; returns its handle (>= 0), or -1 with a
 * message in why (bad version, struct too small, too many clients). */
/* *c = a client that watches every state space and every event (not
 * steps) and does nothing: what benchmarks and tests attach to measure
 * the interface itself and to check that a client changes no result. */
void emu_client_noop(EmuClient *c);
int emu_client_attach(EmuDevice *d, const EmuClient *c, char *why,
                      size_t n);
void emu_client_detach(EmuDevice *d, int handle);

/* A client's opaque slot in a launch, CTA or warp (initially NULL);
 * NULL when the host is out of memory. */
void **emu_client_launch_slot(EmuLaunch *l, int handle);
void **emu_client_cta_slot(EmuCta *c, int handle);
void **emu_client_warp_slot(EmuWarp *w, int handle);

/* ---- for the emulator ---- */

/* The device's clients: the unions of what they watch. */
typedef struct EmuClients {
    EmuClient c[EMU_CLIENT_MAX];
    bool used[EMU_CLIENT_MAX];
    uint32_t spaces, events;      /* unions over attached clients */
    bool steps;                   /* some client wants steps */
    uint8_t stepc[EMU_CLIENT_MAX];    /* the clients that want steps */
    uint8_t nstep;
    uint8_t accc[EMU_CLIENT_MAX];     /* the clients with on_access */
    uint8_t nacc;
    uint32_t acc_common;          /* spaces every on_access client
                                     watches (intersection) */
} EmuClients;

void emu_client_event_slow(EmuDevice *d, const EmuEvent *e);
static inline void emu_client_event(EmuDevice *d, const EmuEvent *e)
{
    if (__builtin_expect(d->clients != NULL, 0) &&
        (d->clients->events >> e->kind & 1u)) {
        emu_client_event_slow(d, e);
    }
}
/* An event of the executing warp (launch, cta, warp from x). */
void emu_client_warp_event(EmuCtx *x, EmuEventKind k, uint64_t addr,
                           uint32_t id);

/* The list that the funnel notes a launch's accesses in for the
 * clients when no record is filled, or NULL when no client watches a
 * space. */
EmuAccList *emu_client_acclist(EmuLaunch *l);
/* Give this instruction's noted accesses (a, n: x->acc's, n > 0) to
 * the on_access clients, each those in its spaces.  Inline for the
 * common case, once per instruction: every such client watches every
 * space the list notes, so each gets the list as it is. */
void emu_client_access_slow(EmuCtx *x, const EmuAccess *a, uint32_t n);
static inline void emu_client_access(EmuCtx *x, const EmuAccess *a,
                                     uint32_t n)
{
    const EmuClients *cs = x->dev->clients;
    if (__builtin_expect((cs->acc_common & x->acc->spaces) ==
                         x->acc->spaces, 1)) {
        for (unsigned j = 0; j < cs->nacc; j++) {
            const EmuClient *c = &cs->c[cs->accc[j]];
            c->on_access(c->ctx, x, a, n);
        }
        return;
    }
    emu_client_access_slow(x, a, n);
}
void emu_client_step(EmuDevice *d, const EmuCta *cta, const EmuWarp *w,
                     const EmuStepRecord *rec);
/* Free a launch's or a CTA's slots and lists. */
void emu_client_launch_fini(EmuLaunch *l);
void emu_client_cta_fini(EmuCta *c);
void emu_clients_free(EmuDevice *d);

#endif
