/*
 * timing/gpu/mem/hier_cfg.c: the `hier` memory system's parameters, as
 * typed tables declared through the host API, and their reading into a
 * HierCfg (hier.h).
 *
 * The defaults are round numbers of a generic recent GPU, not a
 * calibrated description of one; the DRAM's come from its preset
 * (dram_presets.c).  GT200-like settings, from Wong et al.,
 * "Demystifying GPU microarchitecture through microbenchmarking",
 * ISPASS 2010: mem.l1d = false (no L1 for global memory), l2.bypass =
 * global (nor an L2 cache for it: the partitions cache texture); l1t.sets = 8,
 * l1t.ways = 20, l1t.line = 32, l1t.lat = 261 (5 KB, 20-way, 32-byte
 * lines); l1c.sets = 8, l1c.ways = 4, l1c.line = 64 (2 KB); l1i.sets =
 * 8, l1i.ways = 4 (4 KB); dram.preset = gddr3.
 */
#include "timing/gpu/mem/hier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U PTXEMU_TM_P_UINT
#define I PTXEMU_TM_P_INT
#define D PTXEMU_TM_P_DOUBLE
#define B PTXEMU_TM_P_BOOL
#define S PTXEMU_TM_P_STRING

static const ptxemu_tm_param general[] = {
    {"mem.l1d", B, "true", "an L1 data cache for global and local "
                           "accesses (GT200: false)"},
    {"mem.parts", U, "8", "memory partitions (an L2 slice and a DRAM "
                          "channel each)"},
    {"mem.ci_l3", B, "false", "constant and instruction reads use a cache "
                              "of their own in each partition (l3ci.*; "
                              "GT200's L3) instead of the L2 slice"},
    {"mem.tpc_ci", B, "false", "constant and instruction misses go "
                               "through a cache shared by the icnt.group "
                               "SMs of a TPC (l2ci.*; GT200's L2)"},
    {"mem.direct_q", U, "8", "without an L1: requests an SM may queue "
                             "for the interconnect"},
    {"atom.lat", U, "4", "L2 cycles an atomic spends in the atomic unit"},
    {"icnt.model", S, "crossbar", "interconnect: crossbar or ideal"},
    {"icnt.mhz", D, "0", "interconnect clock (0: the core clock)"},
    {"icnt.flit", U, "32", "bytes per flit"},
    {"icnt.inbuf", U, "16", "flits an input buffer holds"},
    {"icnt.outbuf", U, "16", "flits an output buffer holds"},
    {"icnt.lat", U, "2", "cycles through the network (per hop)"},
    {"icnt.ctrl_bytes", U, "8", "bytes of a packet's header"},
    {"icnt.group", U, "1", "SMs per network port (GT200: 3, a TPC)"},
    {"icnt.hop_lat", U, "0", "extra cycles each way per step of "
                             "distance between a port and a partition "
                             "(0: every position alike)"},
    {"l2.mhz", D, "0", "L2 clock (0: the core clock)"},
    {"l2.bypass", S, "", "comma-separated accesses that skip the L2: "
                         "global, const, tex, inst (GT200: global)"},
    {"map.hash", S, "xor", "partition hashing: linear, xor or poly"},
    {"map.gran", U, "256", "bytes per partition before the next"},
    {"map.row_bytes", U, "2k", "bytes of a DRAM row across a channel"},
    {"dram.model", S, "channel", "the DRAM channel model of every "
                                 "partition (timing/gpu/mem/"
                                 "dram_models.c): channel or fixed"},
    {"dram.preset", S, "gddr5", "gddr3, gddr5, gddr6, hbm2 or hbm3: "
                                "the defaults of every dram.* value"},
    {"dram.mhz", D, "0", "DRAM command clock (0: the preset's)"},
    {"dram.ranks", U, "1", "ranks per channel"},
    {"dram.bankgroups", I, "-1", "bank groups per rank (-1: preset)"},
    {"dram.banks", I, "-1", "banks per rank (-1: preset)"},
    {"dram.burst_bytes", I, "-1", "bytes per column command (-1: preset)"},
    {"dram.policy", S, "open", "row policy: open or closed"},
    {"dram.sched", S, "frfcfs", "scheduler: frfcfs or fifo"},
    {"dram.rdq", U, "32", "read queue depth per channel"},
    {"dram.wrq", U, "32", "write queue depth per channel"},
    {"dram.path_lat", U, "0", "DRAM cycles added to every read's and "
                              "write's data: the controller, PHY and board "
                              "there and back, which no DRAM timing covers"},
    {"l1d.unified", U, "0", "bytes of the array L1 and shared memory "
                            "share (Volta: 128k, A100: 192k; 0: no "
                            "carve-out, the L1 is l1d.sets x ways x line)"},
    {"l1d.carveouts", S, "", "the shared-memory capacities in KB an SM "
                             "may be set to (Volta: 0,8,16,32,64,96; "
                             "A100: 0,8,16,32,64,100,132,164)"},
    {"l1d.carveout", I, "-1", "preferred shared-memory share, percent of "
                              "the largest capacity (-1: none)"},
    {"dram.bank_stats", B, "false", "count ACTs and row hits, misses and "
                                    "conflicts per bank "
                                    "(mem.dram.pN.bankB.*)"},
    {"tlb.on", B, "false", "translate global and local addresses through "
                          "a TLB per SM"},
    {"tlb.page", U, "512k", "bytes per TLB entry's page"},
    {"tlb.l1.sets", U, "1", "first-level TLB sets"},
    {"tlb.l1.ways", U, "16", "first-level TLB ways (GT200: 16, fully "
                            "associative)"},
    {"tlb.l2.sets", U, "8", "second-level TLB sets"},
    {"tlb.l2.ways", U, "8", "second-level TLB ways (GT200: 8)"},
    {"tlb.l2.lat", U, "47", "extra cycles of a second-level hit (GT200: "
                           "487 - 440)"},
    {"tlb.walk", U, "258", "extra cycles of a miss (GT200: 698 - 440) "
                           "when tlb.walk_levels is 0"},
    {"tlb.walk_levels", U, "0", "0: a miss costs tlb.walk cycles; 1 to 7: "
                                "it reads that many page-table levels "
                                "through the memory system"},
    {"tlb.pt_base", U, "0x4000000000", "the page table's address (its "
                                       "reads go where this maps)"},
    {"tlb.queue", U, "8", "requests an SM may hold waiting on its TLB"},
};

/* DRAM timings: dram.<name>, -1 = the preset's (dram_t_names order). */
static const ptxemu_tm_param timings[DT_COUNT] = {
#define T_(n) {"dram." n, I, "-1", n " in DRAM cycles (-1: preset)"}
    T_("tRCD"), T_("tRP"), T_("tRAS"), T_("tRC"), T_("CL"), T_("WL"),
    T_("tCCDS"), T_("tCCDL"), T_("tRRD"), T_("tWR"), T_("tWTR"),
    T_("tRTW"), T_("tRTP"), T_("tBURST"), T_("tRFC"), T_("tREFI"),
    T_("tFAW"),
#undef T_
};

/* One cache's table: prefix.sets ... with its defaults. */
#define CACHE_TABLE(name, p, sets, ways, line, banks, lat, mshrs, merge,   \
                    missq, outq, write, alloc)                             \
    static const ptxemu_tm_param name[] = {                                \
        {p ".sets", U, sets, "sets"},                                      \
        {p ".ways", U, ways, "ways (associativity)"},                      \
        {p ".line", U, line, "line bytes (32-byte sectors)"},              \
        {p ".banks", U, banks, "banks (one access each per cycle)"},       \
        {p ".lat", U, lat, "hit latency in cycles"},                       \
        {p ".fill_lat", I, "-1", "cycles from a fill to the replies of "   \
                                 "the requests waiting for it (-1 or 0: "  \
                                 "lat)"},                                  \
        {p ".mshrs", U, mshrs, "MSHR entries"},                            \
        {p ".merge", U, merge, "requests merged per MSHR"},                \
        {p ".missq", U, missq, "miss queue depth"},                        \
        {p ".outq", U, outq, "replies that may wait to go up"},            \
        {p ".repl", S, "lru", "replacement: lru or fifo"},                 \
        {p ".write", S, write, "write policy: back or through"},           \
        {p ".alloc", B, alloc, "allocate a line on a write miss"},         \
    }

CACHE_TABLE(t_l1d, "l1d", "64", "4", "128", "4", "20", "32", "8", "8",
            "16", "through", "false");
CACHE_TABLE(t_l1c, "l1c", "4", "4", "128", "1", "8", "8", "8", "4", "8",
            "through", "false");
CACHE_TABLE(t_l1t, "l1t", "16", "4", "128", "1", "20", "16", "8", "8",
            "16", "through", "false");
CACHE_TABLE(t_l1i, "l1i", "8", "4", "128", "1", "2", "4", "8", "4", "8",
            "through", "false");
/* GT200's constant/instruction L3 per partition (mem.ci_l3): Wong et
 * al.'s 32 KB, 8-way, 256-byte lines (16 sets) over 8 partitions
 * interleaved a line apart: 2 sets each. */
CACHE_TABLE(t_l3ci, "l3ci", "2", "8", "256", "1", "20", "8", "8", "4", "8",
            "through", "false");
/* GT200's constant/instruction L2 per TPC (mem.tpc_ci): Wong et al.'s
 * 8 KB, 4-way, 256-byte lines. */
CACHE_TABLE(t_l2ci, "l2ci", "8", "4", "256", "1", "10", "8", "8", "4", "8",
            "through", "false");
CACHE_TABLE(t_l2, "l2", "128", "16", "128", "2", "20", "64", "8", "16",
            "32", "back", "true");

#define N(t) ((uint32_t)(sizeof(t) / sizeof((t)[0])))

static const char *const cache_prefix[MEM_UNIT_DIRECT] = {
    [MEM_UNIT_L1D] = "l1d", [MEM_UNIT_L1C] = "l1c",
    [MEM_UNIT_L1T] = "l1t", [MEM_UNIT_L1I] = "l1i",
};

int hier_declare(const ptxemu_tm_host_api *api, ptxemu_tm_host *h)
{
    const struct {
        const ptxemu_tm_param *t;
        uint32_t n;
    } all[] = {
        {general, N(general)}, {timings, N(timings)}, {t_l1d, N(t_l1d)},
        {t_l1c, N(t_l1c)},     {t_l1t, N(t_l1t)},     {t_l1i, N(t_l1i)},
        {t_l2, N(t_l2)},       {t_l3ci, N(t_l3ci)},   {t_l2ci, N(t_l2ci)},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (api->declare_params(h, all[i].t, all[i].n)) {
            return -1;
        }
    }
    return 0;
}

static uint32_t u32(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                    const char *name, bool *ok)
{
    uint64_t v = api->param_uint(h, name);
    if (v > UINT32_MAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: %llu is too large", name,
                 (unsigned long long)v);
        api->error(h, msg);
        *ok = false;
        return 0;
    }
    return (uint32_t)v;
}

/* A string parameter that must be one of names[0..n); its index. */
static int choose(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                  const char *param, const char *const *names, int n,
                  bool *ok)
{
    const char *v = api->param_string(h, param);
    for (int i = 0; i < n; i++) {
        if (strcmp(v, names[i]) == 0) {
            return i;
        }
    }
    char msg[192];
    int len = snprintf(msg, sizeof msg, "%s: '%s' is not one of", param, v);
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof msg; i++) {
        len += snprintf(msg + len, sizeof msg - (size_t)len, " %s",
                        names[i]);
    }
    api->error(h, msg);
    *ok = false;
    return 0;
}

/* An int parameter: the value set, else `preset` (the value -1: a dram.*
 * timing's preset, a cache's fill_lat its hit latency). */
static uint32_t from_preset(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                            const char *name, uint32_t preset, bool *ok)
{
    int64_t v = api->param_int(h, name);
    if (v < -1 || v > UINT32_MAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: %lld is out of range", name,
                 (long long)v);
        api->error(h, msg);
        *ok = false;
        return 0;
    }
    return v == -1 ? preset : (uint32_t)v;
}

static void read_cache(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                       const char *p, CacheCfg *c, bool *ok)
{
    char n[64];
#define RD(field, suffix)                                                  \
    (snprintf(n, sizeof n, "%s." suffix, p), c->field = u32(api, h, n, ok))
    RD(sets, "sets");
    RD(ways, "ways");
    RD(line, "line");
    RD(banks, "banks");
    RD(hit_lat, "lat");
    snprintf(n, sizeof n, "%s.fill_lat", p);
    c->fill_lat = from_preset(api, h, n, c->hit_lat, ok); /* 0: hit_lat */
    RD(mshrs, "mshrs");
    RD(merge, "merge");
    RD(missq, "missq");
    RD(outq, "outq");
#undef RD
    static const char *const repl[] = {"lru", "fifo"};
    static const char *const wp[] = {"through", "back"};
    snprintf(n, sizeof n, "%s.repl", p);
    c->repl = (CacheRepl)choose(api, h, n, repl, 2, ok);
    snprintf(n, sizeof n, "%s.write", p);
    c->write_back = choose(api, h, n, wp, 2, ok) == 1;
    snprintf(n, sizeof n, "%s.alloc", p);
    c->write_alloc = api->param_bool(h, n);
}

static double mhz(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                  const char *name, double dflt, bool *ok)
{
    double v = api->param_double(h, name);
    if (v < 0 || v > 1e6) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s: %g MHz is out of range", name, v);
        api->error(h, msg);
        *ok = false;
    }
    return v > 0 ? v : dflt;
}

/* l2.bypass: "global,tex" ... into c->l2_bypass. */
static void read_bypass(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                        HierCfg *c, bool *ok)
{
    static const struct {
        const char *name;
        MemUnit u[2];
    } names[] = {
        {"global", {MEM_UNIT_L1D, MEM_UNIT_DIRECT}},
        {"const", {MEM_UNIT_L1C, MEM_UNIT_L1C}},
        {"tex", {MEM_UNIT_L1T, MEM_UNIT_L1T}},
        {"inst", {MEM_UNIT_L1I, MEM_UNIT_L1I}},
    };
    const char *v = api->param_string(h, "l2.bypass");
    while (*v) {
        size_t n = strcspn(v, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               (strlen(names[k].name) != n ||
                strncmp(v, names[k].name, n) != 0)) {
            k++;
        }
        if (k == sizeof names / sizeof names[0]) {
            char msg[160];
            snprintf(msg, sizeof msg, "l2.bypass: '%.*s' is not one of "
                                      "global const tex inst", (int)n, v);
            api->error(h, msg);
            *ok = false;
            return;
        }
        c->l2_bypass[names[k].u[0]] = c->l2_bypass[names[k].u[1]] = 1;
        v += n + (v[n] == ',');
    }
}

/* l1d.unified, l1d.carveouts ("0,8,16" KB), l1d.carveout. */
static void read_carveout(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
                          HierCfg *c, bool *ok)
{
    c->unified = api->param_uint(h, "l1d.unified");
    int64_t pref = api->param_int(h, "l1d.carveout");
    const char *v = api->param_string(h, "l1d.carveouts");
    const char *bad = NULL;
    while (*v && !bad) {
        char *end;
        unsigned long kb = strtoul(v, &end, 10);
        if (end == v || (*end && *end != ',') || c->ncarve == 16 ||
            (uint64_t)kb * 1024 > c->unified) {
            bad = "l1d.carveouts: up to 16 comma-separated capacities in "
                  "KB, none above l1d.unified";
            break;
        }
        c->carve_kb[c->ncarve++] = (uint32_t)kb;
        v = end + (*end == ',');
    }
    uint64_t way = (uint64_t)c->l1[MEM_UNIT_L1D].ways *
                   c->l1[MEM_UNIT_L1D].line;
    if (!bad && c->unified && (!c->ncarve || c->unified > (1ull << 30))) {
        bad = "l1d.unified needs l1d.carveouts, and at most 1G";
    } else if (!bad && c->unified && way &&
               c->unified / way > (1u << 24)) {
        bad = "l1d.unified: too many L1 sets";
    } else if (!bad && (pref < -1 || pref > 100)) {
        bad = "l1d.carveout: a percentage 0 to 100, or -1";
    }
    if (bad) {
        api->error(h, bad);
        *ok = false;
    }
    c->carve_pref = (int32_t)pref;
}

int hier_read(const ptxemu_tm_host_api *api, ptxemu_tm_host *h,
              double core_mhz, HierCfg *c)
{
    bool ok = true;
    memset(c, 0, sizeof *c);
    c->l1d_on = api->param_bool(h, "mem.l1d");
    for (int u = 0; u < MEM_UNIT_DIRECT; u++) {
        read_cache(api, h, cache_prefix[u], &c->l1[u], &ok);
    }
    read_cache(api, h, "l2", &c->l2, &ok);
    read_cache(api, h, "l3ci", &c->l3ci, &ok);
    c->ci_on = api->param_bool(h, "mem.ci_l3");
    read_cache(api, h, "l2ci", &c->l2ci, &ok);
    c->tpc_ci = api->param_bool(h, "mem.tpc_ci");
    read_bypass(api, h, c, &ok);
    c->parts = u32(api, h, "mem.parts", &ok);
    c->direct_q = u32(api, h, "mem.direct_q", &ok);
    c->atom_lat = u32(api, h, "atom.lat", &ok);
    c->ctrl_bytes = u32(api, h, "icnt.ctrl_bytes", &ok);
    static const char *const icnt[] = {"crossbar", "ideal"};
    c->icnt.kind = (XbarKind)choose(api, h, "icnt.model", icnt, 2, &ok);
    c->icnt.flit = u32(api, h, "icnt.flit", &ok);
    c->icnt.inbuf = u32(api, h, "icnt.inbuf", &ok);
    c->icnt.outbuf = u32(api, h, "icnt.outbuf", &ok);
    c->icnt.lat = u32(api, h, "icnt.lat", &ok);
    c->icnt_group = u32(api, h, "icnt.group", &ok);
    c->icnt_hop = u32(api, h, "icnt.hop_lat", &ok);
    static const char *const hash[] = {"linear", "xor", "poly"};
    c->map.hash = (AddrHash)choose(api, h, "map.hash", hash, 3, &ok);
    c->map.gran = u32(api, h, "map.gran", &ok);
    c->map.row_bytes = u32(api, h, "map.row_bytes", &ok);
    c->map.parts = c->parts;

    const char *pn = api->param_string(h, "dram.preset");
    const DramPreset *pr = dram_preset_find(pn);
    if (!pr) {
        char msg[160];
        snprintf(msg, sizeof msg, "dram.preset: unknown preset '%s' "
                                  "(gddr3, gddr5, gddr6, hbm2, hbm3)", pn);
        api->error(h, msg);
        return -1;
    }
    const char *models[8];
    int nmodels = 0;
    while (nmodels < 8 && dram_models[nmodels]) {
        models[nmodels] = dram_models[nmodels]->name;
        nmodels++;
    }
    c->dram_model = dram_models[choose(api, h, "dram.model", models, nmodels,
                                       &ok)];
    DramCfg *d = &c->dram;
    d->ranks = u32(api, h, "dram.ranks", &ok);
    d->bankgroups = from_preset(api, h, "dram.bankgroups", pr->bankgroups,
                                &ok);
    d->banks = from_preset(api, h, "dram.banks", pr->banks, &ok);
    d->burst_bytes = from_preset(api, h, "dram.burst_bytes",
                                 pr->burst_bytes, &ok);
    static const char *const pol[] = {"open", "closed"};
    static const char *const sch[] = {"frfcfs", "fifo"};
    d->policy = (DramPolicy)choose(api, h, "dram.policy", pol, 2, &ok);
    d->sched = (DramSched)choose(api, h, "dram.sched", sch, 2, &ok);
    d->rdq = u32(api, h, "dram.rdq", &ok);
    d->wrq = u32(api, h, "dram.wrq", &ok);
    d->path_lat = u32(api, h, "dram.path_lat", &ok);
    c->bank_stats = api->param_bool(h, "dram.bank_stats");
    read_carveout(api, h, c, &ok);
    for (int k = 0; k < DT_COUNT; k++) {
        d->t[k] = from_preset(api, h, timings[k].name, pr->t[k], &ok);
    }
    c->tlb_on = api->param_bool(h, "tlb.on");
    c->tlb.page = api->param_uint(h, "tlb.page");
    c->tlb.l1_sets = u32(api, h, "tlb.l1.sets", &ok);
    c->tlb.l1_ways = u32(api, h, "tlb.l1.ways", &ok);
    c->tlb.l2_sets = u32(api, h, "tlb.l2.sets", &ok);
    c->tlb.l2_ways = u32(api, h, "tlb.l2.ways", &ok);
    c->tlb.l2_lat = u32(api, h, "tlb.l2.lat", &ok);
    c->tlb.walk_lat = u32(api, h, "tlb.walk", &ok);
    c->tlb.walk_levels = u32(api, h, "tlb.walk_levels", &ok);
    c->tlb.pt_base = api->param_uint(h, "tlb.pt_base");
    c->tlb_q = u32(api, h, "tlb.queue", &ok);
    c->map.ranks = d->ranks;
    c->map.banks = d->banks;
    c->map.bankgroups = d->bankgroups;

    c->mhz[DOM_CORE] = core_mhz > 0 ? core_mhz : 1000.0;
    c->mhz[DOM_ICNT] = mhz(api, h, "icnt.mhz", c->mhz[DOM_CORE], &ok);
    c->mhz[DOM_L2] = mhz(api, h, "l2.mhz", c->mhz[DOM_CORE], &ok);
    c->mhz[DOM_DRAM] = mhz(api, h, "dram.mhz", pr->mhz, &ok);
    if (ok && (!c->parts || c->parts > 1024 || !c->direct_q || !c->tlb_q ||
               !c->icnt_group || c->icnt_hop > 10000 ||
               c->tlb.walk_levels > 7)) {
        api->error(h, "mem.parts must be 1 to 1024, mem.direct_q, "
                      "tlb.queue and icnt.group at least 1, icnt.hop_lat "
                      "at most 10000, tlb.walk_levels at most 7");
        ok = false;
    }
    const char *bad = ok ? addrmap_check(&c->map) : NULL;
    if (bad) {
        char msg[192];
        snprintf(msg, sizeof msg, "map/dram organisation: %s", bad);
        api->error(h, msg);
        ok = false;
    }
    return ok ? 0 : -1;
}
