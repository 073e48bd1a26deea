/*
 * emu/cluster.h: thread-block clusters (PTX ISA 7.8+, sm_90).
 *
 * Shape.  A launch's clusters have EmuLaunch.cluster[0..2] CTAs in each
 * dimension; the grid is a whole number of clusters.  %cluster_ctarank
 * is x-fastest: x + cx * (y + cy * z) of %cluster_ctaid.  All CTAs of a
 * cluster are resident together (sched.c runs them as one set).
 *
 * Distributed shared memory addressing.  The ISA leaves shared::cluster
 * addresses opaque; here a shared::cluster address is
 *     offset | field << EMU_CLUSTER_RANK_SHIFT
 * where offset < EMU_SHARED_LIMIT is the byte offset in one CTA's shared
 * memory and field says whose: 0 = the executing CTA (so every
 * shared::cta address is also a valid shared::cluster address naming the
 * executing CTA, as the ISA requires), r + 1 = the CTA of rank r (what
 * mapa produces).  Generic addresses add EMU_SHARED_WINDOW, so the
 * generic shared window grows to EMU_SHARED_CLUSTER_LIMIT bytes, still
 * below EMU_LOCAL_WINDOW.  An access whose field names no CTA of the
 * cluster, or a CTA that has exited, faults with a located message.
 *
 * Barrier.  barrier.cluster.arrive marks lanes arrived in the current
 * phase; the phase completes when every non-exited thread of the cluster
 * has arrived (exited threads count as arrived, as for bar.sync).
 * barrier.cluster.wait blocks until the phase its lanes arrived in has
 * completed.  Arriving twice without a wait, or waiting without an
 * arrive, is undefined in the ISA and faults here.
 */
#ifndef PTXEMU_EMU_CLUSTER_H
#define PTXEMU_EMU_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/exec.h"

#define EMU_CLUSTER_RANK_SHIFT 24      /* log2(EMU_SHARED_LIMIT) */
#define EMU_CLUSTER_MAX 16             /* CTAs, non-portable limit */
#define EMU_CLUSTER_PORTABLE 8         /* CTAs, portable limit (CUDA) */
#define EMU_SHARED_CLUSTER_LIMIT \
    ((uint64_t)(EMU_CLUSTER_MAX + 1) << EMU_CLUSTER_RANK_SHIFT)

/* Set the cluster shape of launch l: dims {0,0,0} means the kernel's
 * .reqnctapercluster, or no clusters (1,1,1).  Checks the shape against
 * the kernel's directives, the grid and the size limit (8 CTAs, or 16
 * when non_portable).  On error returns EMU_ERR_LAUNCH_CONFIG with a
 * message in why. */
EmuStatus emu_launch_cluster(EmuLaunch *l, const uint32_t dims[3],
                             bool non_portable, char *why, size_t n);
/* CTAs per cluster of l. */
uint32_t emu_cluster_size(const EmuLaunch *l);
/* %cluster_ctarank of the CTA with ctaid id. */
uint32_t emu_cluster_rank_of(const EmuLaunch *l, const uint32_t id[3]);

/* The CTA that shared::cluster offset *off (see above) lives in, with
 * *off reduced to the offset in its shared memory; NULL after a fault.
 * addr and space are the access as written, for the message. */
EmuCta *emu_cluster_target(EmuCtx *x, unsigned lane, PtxSpace space,
                           uint64_t addr, uint32_t size, bool write,
                           uint64_t *off);
/* isspacep.shared{::cta} (cta_only) / .shared::cluster of a generic
 * address. */
bool emu_cluster_is_shared(EmuCtx *x, uint64_t generic, bool cta_only);

void emu_cluster_arrive(EmuCtx *x, uint32_t lanes);
void emu_cluster_wait(EmuCtx *x, uint32_t lanes);
/* Complete the barrier phase of cl if every live thread has arrived
 * (after arrivals and exits). */
void emu_cluster_check(EmuCluster *cl, EmuLaunch *l);

#endif
