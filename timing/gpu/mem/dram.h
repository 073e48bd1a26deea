/*
 * timing/gpu/mem/dram.h: one DRAM channel and its controller, in cycles
 * of the DRAM command clock.  It keeps memif.h's contract: dram_accept
 * takes a request or refuses it (its read or write queue is full);
 * finished requests wait in an output queue (dram_out_peek/pop);
 * dram_tick issues at most one command per cycle; dram_next says when
 * the next command can issue or output is due (MEM_NEVER when idle), so
 * cycles in which every bank waits on a timing constraint are skipped.
 *
 * Organisation: ranks x banks, the banks of a rank in `bankgroups`
 * groups; each bank has one row buffer.  A request names its bank and
 * row (addrmap.c) and needs ceil(bytes / burst_bytes) column commands.
 *
 * Commands and the constraints they obey (all in command-clock cycles):
 *  ACT  bank closed; >= tRC after the bank's last ACT, >= tRP after its
 *       last PRE; >= tRRD after any ACT of the rank, >= tFAW after the
 *       fourth-last ACT of the rank (no more than four activates in a
 *       rolling window of tFAW cycles: the four-activate window of
 *       JEDEC's JESD79-3 DDR3 standard and its successors; tFAW 0: not
 *       enforced); not while the rank waits for a refresh.
 *  PRE  >= tRAS after the bank's ACT, >= tRTP after its last read,
 *       >= WL + tBURST + tWR after its last write.
 *  RD   the row open; >= tRCD after the ACT; >= tCCDL after any column
 *       command in the same bank group, >= tCCDS after any in the
 *       channel; >= WL + tBURST + tWTR after the channel's last write.
 *       Its data is back CL + tBURST cycles after the command.
 *  WR   as RD, but >= tRTW after the channel's last read; its data is
 *       written WL + tBURST cycles after the command (then answered,
 *       unless it is a write-back nobody waits for).
 *  REF  every tREFI cycles a rank needs a refresh (tREFI 0: never):
 *       from then on no ACT is issued in the rank, open banks are
 *       precharged, and when every bank of it could be activated a REF
 *       issues; its banks can be activated tRFC later.  A channel with
 *       nothing queued is not ticked for refresh (so an idle memory
 *       system sleeps): when a request arrives, the refreshes due
 *       meanwhile are done first at the cycles they would have had
 *       (each PRE as soon as allowed, the REF when every bank may be
 *       activated), as far as they fall before it.
 * Scheduling, one command per cycle, first that applies:
 *  1. a rank due for refresh: its REF, else a PRE of one of its open
 *     banks (lowest bank first);
 *  2. fr-fcfs (Rixner et al., "Memory access scheduling", ISCA 2000):
 *     the oldest request whose next command is a column command that
 *     may issue now (row hits first), else the oldest request whose next
 *     command (ACT, or PRE of a row no queued request still hits) may
 *     issue now;  fifo: only the oldest request's next command.
 * Row policy: open leaves the row open; closed precharges the bank
 * after a request's last column command (auto-precharge: no command
 * slot, the bank can be activated tRP after the earliest legal PRE).
 * A request counts as a row hit when its first command is a column
 * command, a row miss when it had to activate a closed bank, a row
 * conflict when it had to precharge another row first.
 */
#ifndef PTXEMU_TIMING_GPU_MEM_DRAM_H
#define PTXEMU_TIMING_GPU_MEM_DRAM_H

#include <stddef.h>

#include "timing/gpu/mem/memif.h"

typedef enum DramPolicy { DRAM_OPEN = 0, DRAM_CLOSED } DramPolicy;
typedef enum DramSched { DRAM_FRFCFS = 0, DRAM_FIFO } DramSched;

/* The timing parameters, in command-clock cycles, in this order (the
 * presets table and the parameter names follow it). */
typedef enum DramT {
    DT_RCD = 0, DT_RP, DT_RAS, DT_RC, DT_CL, DT_WL, DT_CCDS, DT_CCDL,
    DT_RRD, DT_WR, DT_WTR, DT_RTW, DT_RTP, DT_BURST, DT_RFC, DT_REFI,
    DT_FAW, DT_COUNT
} DramT;

typedef struct DramCfg {
    uint32_t ranks, bankgroups, banks;  /* banks per rank */
    uint32_t burst_bytes;               /* bytes one column command moves */
    uint32_t rdq, wrq;                  /* queue depths */
    uint32_t path_lat;                  /* cycles added to every column
                                           command's data: the controller,
                                           PHY and board there and back */
    DramPolicy policy;
    DramSched sched;
    uint32_t t[DT_COUNT];
} DramCfg;

typedef struct DramStats {
    uint64_t reads, writes, row_hit, row_miss, row_conflict;
    uint64_t act, pre, ref, rd, wr;     /* commands */
    uint64_t data_cycles;               /* tBURST per column command */
    uint64_t refused;                   /* a full queue */
    uint64_t queue_sum;                 /* queued requests summed over the
                                           cycles commands were looked
                                           for (occupancy) */
    uint64_t bytes;                     /* burst_bytes per column command:
                                           data moved on the bus */
} DramStats;

/* Per bank: its ACTs and how its requests found it. */
typedef struct DramBankStats {
    uint64_t act, row_hit, row_miss, row_conflict;
} DramBankStats;

/* A command, for tests and traces. */
typedef enum DramCmdKind { DC_ACT = 0, DC_PRE, DC_RD, DC_WR, DC_REF } DramCmdKind;
typedef struct DramCmd {
    uint64_t cycle;
    uint8_t cmd;                        /* DramCmdKind */
    uint8_t rank;
    uint16_t bank;                      /* bank index in the channel */
    uint64_t row;
} DramCmd;

typedef struct Dram Dram;

/* NULL with a message in err, or out of memory. */
Dram *dram_new(const DramCfg *cfg, DramStats *st, char *err, size_t errlen);
void dram_free(Dram *d);
/* A request for bank `bankid` (rank x banks + index in the rank; group
 * = index % bankgroups) and row, at cycle now; false: queue full. */
bool dram_accept(Dram *d, const MemMsg *m, uint32_t bankid, uint64_t row,
                 uint64_t now);
/* When the queue m needs is full: refuse m as dram_accept would (the
 * same effects and count) and return true, so the owner need not find
 * its bank and row first; false (nothing done) when there is room. */
bool dram_refuse_full(Dram *d, const MemMsg *m, uint64_t now);
void dram_tick(Dram *d, uint64_t now);
uint64_t dram_next(const Dram *d);
const MemMsg *dram_out_peek(const Dram *d, uint64_t now);
void dram_out_pop(Dram *d);
/* Count everything into *sum as well (every channel's sum; NULL:
 * stop). */
void dram_set_sum(Dram *d, DramStats *sum);
/* The per-bank counts, ranks x banks of them, by bank index in the
 * channel (valid while d lives). */
const DramBankStats *dram_bank_stats(const Dram *d);
/* Record every command into log[0..cap) (tests); *n counts them. */
void dram_set_log(Dram *d, DramCmd *log, uint32_t cap, uint32_t *n);

/* ---- channel models by name (dram_models.c; dram.model) ----
 * What a partition (partition.c) drives: the functions above behind a
 * handle of the model's own type.  A model keeps this file's contract:
 * accept refuses (counting it) when full and refuse_full says so before
 * the bank and row are looked up; tick runs once per DRAM cycle the
 * owner reaches; next is MEM_NEVER when idle; finished requests wait in
 * out_peek/out_pop in due order; write-backs with MEM_F_NOREPLY need no
 * answer; everything counts into the DramStats given at make and the
 * sum.  make: NULL with a message in err (a bad configuration), or out
 * of memory.  bank_stats may return NULL (no banks: dram.bank_stats
 * counts nothing).  A model added to the tree adds one row to
 * dram_models[]. */
typedef struct DramOps {
    const char *name;
    const char *about;                  /* one line, for the help */
    void *(*make)(const DramCfg *cfg, DramStats *st, char *err,
                  size_t errlen);
    void (*free)(void *d);
    bool (*accept)(void *d, const MemMsg *m, uint32_t bankid, uint64_t row,
                   uint64_t now);
    bool (*refuse_full)(void *d, const MemMsg *m, uint64_t now);
    void (*tick)(void *d, uint64_t now);
    uint64_t (*next)(const void *d);
    const MemMsg *(*out_peek)(const void *d, uint64_t now);
    void (*out_pop)(void *d);
    void (*set_sum)(void *d, DramStats *sum);
    const DramBankStats *(*bank_stats)(const void *d);
} DramOps;

/* NULL-terminated; the first is the default (`channel`, this file's). */
extern const DramOps *const dram_models[];
/* NULL: no model of that name. */
const DramOps *dram_model_find(const char *name);
/* A fixed-latency channel (dram_fixed.c). */
extern const DramOps dram_model_fixed;

/* ---- presets (dram_presets.c) ---- */
typedef struct DramPreset {
    const char *name;
    const char *source;                 /* where the numbers come from */
    double mhz;                         /* command clock */
    uint32_t bankgroups, banks, burst_bytes;
    uint32_t t[DT_COUNT];
} DramPreset;
extern const DramPreset dram_presets[];
extern const uint32_t dram_npresets;
const DramPreset *dram_preset_find(const char *name);
/* "tRCD", "tRP" ... by DramT (parameter names: dram.tRCD ...). */
extern const char *const dram_t_names[DT_COUNT];

#endif
