/*
 * runtime/cmd_run.c: `ptxemu run`, a kernel launch with no host program.
 * Uses only the public API (runtime/ptxemu.h) and the argument specs
 * (runtime/argspec.h).  Exit status: 0 ok, 1 kernel fault, PTX error or
 * I/O error, 2 bad usage (including arguments that do not match the
 * kernel's parameters).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/argspec.h"
#include "runtime/envopts.h"
#include "runtime/ptxemu.h"
#include "runtime/sanitize.h"
#include "runtime/stats.h"

int cmd_run(int argc, char **argv);

static void run_usage(FILE *out)
{
    fprintf(out,
        "usage: ptxemu run FILE.ptx... [--kernel NAME] --grid X[,Y,Z] "
        "--block X[,Y,Z]\n"
        "                  [--shared BYTES] [--cluster X[,Y,Z]] --arg SPEC ...\n"
        "                  [--out N=FILE] [--print N[:COUNT]] "
        "[--stats[=FILE.json]]\n"
        "\n"
        "Run one kernel of a PTX module on the emulator, without a host "
        "program.\n"
        "Several PTX files are linked by name first, as for relocatable "
        "device code\n"
        "(nvcc -rdc=true).\n"
        "\n"
        "  --kernel NAME       the kernel (.entry) to run; may be left out "
        "when the\n"
        "                      module has only one\n"
        "  --grid X[,Y,Z]      CTAs in the grid (default 1,1,1)\n"
        "  --block X[,Y,Z]     threads per CTA (default 1,1,1)\n"
        "  --shared BYTES      dynamic shared memory per CTA (default 0)\n"
        "  --cluster X[,Y,Z]   CTAs per thread-block cluster (sm_90; default "
        "the\n"
        "                      kernel's .reqnctapercluster, or none)\n"
        "  --arg SPEC          the next kernel parameter (in order; see "
        "below)\n"
        "  --out N=FILE        after the run, write buffer argument N's bytes "
        "to FILE\n"
        "  --print N[:COUNT]   after the run, print the first COUNT (default "
        "all)\n"
        "                      elements of buffer argument N, 8 per line\n"
        "  --stats             print execution statistics\n"
        "  --stats=FILE.json   write them to FILE.json instead\n"
        "  --sms N             SMs of the emulated GPU (default: the\n"
        "                      architecture's; bounds how many CTAs are\n"
        "                      resident together)\n"
        "  --insn-limit N      stop a launch after N warp instructions\n"
        "  --time-limit S      stop a launch after S seconds of host time\n"
        "                      (default 600; 0: no limit)\n"
        "  --diverge ORDER     divergent-branch order: taken (taken path "
        "first),\n"
        "                      majority-last (fewer lanes first) or\n"
        "                      majority-first (more lanes first, as Turing);"
        "\n"
        "                      default: taken under ipdom, majority-first "
        "under its\n"
        "  --timing NAME|PATH.so\n"
        "                      time the kernel with a timing model: a "
        "built-in one\n"
        "                      by name (simple) or a plug-in by path "
        "(default none)\n"
        "  --timing-config FILE  the model's parameters, `key = value` "
        "lines\n"
        "  --timing-set KEY=VALUE  one parameter, over the file "
        "(repeatable)\n"
        "  --timing-help       the model's parameters (name, type, default, "
        "help)\n"
        "  --stats-interval N  with --timing: every N simulated cycles, one "
        "CSV row\n"
        "                      of the model's counters (ptxemu plot draws "
        "them)\n"
        "  --stats-csv FILE    where those rows go (default "
        "ptxemu-stats.csv)\n"
        "  --progress          with --timing: a progress line on stderr even "
        "when\n"
        "                      it is not a terminal (on a terminal: on by "
        "default)\n"
        "  --no-progress       no progress line\n"
        "  --reconvergence M   its (independent thread scheduling: a path "
        "spinning\n"
        "                      without progress yields; default for sm_70+) "
        "or ipdom\n"
        "                      (the pre-Volta SIMT stack; default before "
        "sm_70)\n"
        "  --tool LIST         check the kernel as `ptxemu sanitize` does: "
        "a comma-\n"
        "                      separated list of memcheck, racecheck, "
        "initcheck,\n"
        "                      synccheck; the report goes to stderr\n"
        "  --format text|json|xml\n"
        "                      the report: compute-sanitizer's text "
        "(default),\n"
        "                      JSON Lines or XML\n"
        "  --racecheck-report hazard|analysis\n"
        "                      racecheck: each hazard (default) or pairs "
        "grouped\n"
        "  --synccheck-exited-lanes yes|no\n"
        "                      synccheck: also report member masks that "
        "name\n"
        "                      exited lanes (CUDA allows them; default no)\n"
        "  --error-exitcode N  exit status N when the tools found errors\n"
        "  --trace-reconvergence  each warp's path splits, reconvergences,\n"
        "                      yields and .sync waits on stderr\n"
        "  --trace-simt FILE   every warp instruction's pc and active mask "
        "to FILE\n"
        "                      ('-': stderr; README, \"SIMT trace\")\n"
        "  --threads N         host threads that run the kernel's CTAs "
        "(default:\n"
        "                      the cores available; README, \"Parallel "
        "simulation\")\n"
        "  --verbose           say on stderr why a kernel runs on one "
        "thread\n"
        "  --deterministic     the default: global atomics of CTAs run on "
        "several\n"
        "                      threads land in CTA order, as on one thread\n"
        "  --fast              they land in the order the threads reach "
        "them\n"
        "  -h, --help          this text\n"
        "\n"
        "Arguments are numbered from 0 in the order given, and must match "
        "the\n"
        "kernel's .param list in number and size.  SPEC is one of:\n"
        "\n"
        "  TYPE:VALUE             a scalar.  TYPE: u8 u16 u32 u64 s8 s16 s32 "
        "s64\n"
        "                         b8 b16 b32 b64 (decimal or 0x hex) or f16 "
        "bf16\n"
        "                         f32 f64 (decimal, hex float, inf, nan)\n"
        "  hex:BYTES              raw bytes in memory order, for struct or "
        ".b8\n"
        "                         array parameters: hex:01000000ff000000\n"
        "  buf:TYPE:COUNT[:INIT]  a device buffer of COUNT elements; the "
        "parameter\n"
        "                         is its 64-bit device address.  INIT:\n"
        "      zero               all zero (default)\n"
        "      none               not written before the launch (zero "
        "bytes; unwritten\n"
        "                         to --tool initcheck)\n"
        "      iota               element i is i\n"
        "      fill=V             every element is V\n"
        "      rand=SEED          deterministic xorshift64*: x = SEED (0 "
        "means\n"
        "                         0x9E3779B97F4A7C15); per element x ^= x>>12;"
        "\n"
        "                         x ^= x<<25; x ^= x>>27; r = x * "
        "0x2545F4914F6CDD1D;\n"
        "                         f32 = (r>>40)/2^24, f64 = (r>>11)/2^53, f16 "
        "and\n"
        "                         bf16 = the f32 rounded (all in [0,1)); "
        "integers\n"
        "                         take the low bits of r (full range)\n"
        "      values=V1,V2,...   the first elements; the rest zero\n"
        "      file=PATH          the file's bytes; the rest zero\n"
        "\n"
        "Printed values: integers in decimal, f16/bf16/f32 with %%.9g, f64 "
        "with %%.17g.\n"
        "\n"
        "Examples:\n"
        "  ptxemu run examples/vecadd.ptx --kernel vecAdd --grid 4 --block "
        "256 \\\n"
        "      --arg buf:f32:1024:iota --arg buf:f32:1024:iota \\\n"
        "      --arg buf:f32:1024:zero --arg u32:1000 --print 2:8\n"
        "  ptxemu run examples/saxpy.ptx --kernel saxpy --grid 8 --block 128 "
        "\\\n"
        "      --arg u32:1000 --arg f32:2.5 --arg buf:f32:1000:rand=42 \\\n"
        "      --arg buf:f32:1000:fill=1 --out 3=y.bin --stats=stats.json\n"
        "\n"
        "Exit status: 0 on success, 1 if the kernel faults or the PTX (or "
        "an input\n"
        "file) has errors, 2 on usage errors.\n");
}

typedef struct OutReq {
    unsigned arg;
    const char *file;
} OutReq;

typedef struct PrintReq {
    unsigned arg;
    uint64_t count;             /* UINT64_MAX: all */
} PrintReq;

/* "N=FILE" */
static bool parse_out(const char *s, OutReq *o)
{
    const char *eq = strchr(s, '=');
    if (!eq || !eq[1] || eq == s) {
        return false;
    }
    char num[32];
    size_t n = (size_t)(eq - s);
    if (n >= sizeof(num)) {
        return false;
    }
    memcpy(num, s, n);
    num[n] = '\0';
    uint64_t v;
    if (!argspec_parse_uint(num, UINT32_MAX, &v)) {
        return false;
    }
    o->arg = (unsigned)v;
    o->file = eq + 1;
    return true;
}

/* "N[:COUNT]" */
static bool parse_print(const char *s, PrintReq *p)
{
    char num[32];
    const char *c = strchr(s, ':');
    size_t n = c ? (size_t)(c - s) : strlen(s);
    if (n >= sizeof(num)) {
        return false;
    }
    memcpy(num, s, n);
    num[n] = '\0';
    uint64_t v;
    if (!argspec_parse_uint(num, UINT32_MAX, &v)) {
        return false;
    }
    p->arg = (unsigned)v;
    p->count = UINT64_MAX;
    if (c && (!argspec_parse_uint(c + 1, UINT64_MAX, &p->count) ||
              p->count == 0)) {
        return false;
    }
    return true;
}

static void print_buffer(const ArgSpec *a, unsigned idx, uint64_t count)
{
    uint64_t n = count < a->count ? count : a->count;
    if (n == a->count) {
        printf("arg %u: %s[%" PRIu64 "]\n", idx, a->type->name, a->count);
    } else {
        printf("arg %u: %s[%" PRIu64 "], first %" PRIu64 "\n", idx,
               a->type->name, a->count, n);
    }
    for (uint64_t i = 0; i < n; i++) {
        argspec_print_elem(stdout, a->type, a->bytes + i * a->type->size);
        putchar(i + 1 == n || i % 8 == 7 ? '\n' : ' ');
    }
}

static void write_stats(FILE *o, bool json, ptxemu_device *dev,
                        const char *kernel, const unsigned grid[3],
                        const unsigned block[3])
{
    if (json) {
        rt_stats_write_json(o, dev, kernel, grid, block);
        return;
    }
    ptxemu_stats s;
    ptxemu_get_stats(dev, &s);
    size_t nops;
    ptxemu_opcode_count *ops = rt_stats_opcode_list(dev, &nops);
    bool steps = (s.collected & PTXEMU_STATS_STEPS) != 0;
    {
        fprintf(o, "statistics for kernel %s, grid (%u,%u,%u), block "
                "(%u,%u,%u):\n", kernel, grid[0], grid[1], grid[2], block[0],
                block[1], block[2]);
#define T(name, v) fprintf(o, "  %-30s %" PRIu64 "\n", name, (uint64_t)(v))
        T("launches", s.launches);
        T("CTAs", s.ctas);
        T("threads", s.threads);
        T("warp instructions", s.warp_insns);
        if (steps) {
            T("thread instructions", s.thread_insns);
            T("thread instructions executed", s.thread_insns_executed);
            T("branches", s.branches);
            T("divergent branches", s.divergent_branches);
            T("loads (per thread)", s.loads);
            T("stores (per thread)", s.stores);
            T("atomics (per warp)", s.atomics);
            T("atomic accesses (per thread)", s.atomic_accesses);
            T("barrier arrivals (per warp)", s.barriers);
#undef T
            fprintf(o, "  memory        instructions     accesses        "
                    "bytes\n");
            for (int i = 0; i < PTXEMU_SPACE_COUNT; i++) {
                if (!s.mem_insns[i] && !s.mem_accesses[i]) {
                    continue;
                }
                fprintf(o, "    %-8s %15" PRIu64 " %12" PRIu64 " %12" PRIu64
                        "\n", ptxemu_space_name((ptxemu_space)i),
                        s.mem_insns[i], s.mem_accesses[i], s.mem_bytes[i]);
            }
            fprintf(o, "  opcode        warp insns  thread insns\n");
            for (size_t i = 0; i < nops; i++) {
                fprintf(o, "    %-10s %12" PRIu64 " %13" PRIu64 "\n",
                        ops[i].opcode, ops[i].warp_insns, ops[i].thread_insns);
            }
        } else {
            fprintf(o, "  (per-instruction statistics are not available from "
                    "this emulator core)\n");
        }
    }
    free(ops);
}

/* --timing-help (with the --timing-config and --timing-set values): 0,
 * 1 (the model cannot be loaded) or 2 (no model). */
static int print_timing_help(const ptxemu_device_options *o)
{
    if (!o->timing || !*o->timing || !strcmp(o->timing, "none")) {
        fprintf(stderr, "ptxemu run: --timing-help needs --timing "
                "NAME|PATH.so\n");
        return 2;
    }
    char err[1024];
    char *text = ptxemu_timing_help_options(o, err, sizeof(err));
    if (!text) {
        fprintf(stderr, "ptxemu run: %s\n", err);
        return 1;
    }
    fputs(text, stdout);
    free(text);
    return 0;
}

/* Check the arguments against the kernel's parameters; 0 or 2. */
static int check_params(ptxemu_function *k, ArgSpec *args, unsigned nargs)
{
    unsigned np = ptxemu_function_num_params(k);
    const char *kn = ptxemu_function_name(k);
    ptxemu_param_info pi;
    if (nargs < np) {
        ptxemu_function_param(k, nargs, &pi);
        fprintf(stderr, "ptxemu run: kernel '%s' takes %u parameter%s but "
                "%u --arg %s given: no argument for parameter %u '%s' "
                "(.%s, %zu bytes)\n", kn, np, np == 1 ? "" : "s", nargs,
                nargs == 1 ? "was" : "were", nargs, pi.name, pi.type,
                pi.size);
        return 2;
    }
    if (nargs > np) {
        fprintf(stderr, "ptxemu run: kernel '%s' takes %u parameter%s but "
                "%u --arg were given: argument %u '%s' has no parameter\n",
                kn, np, np == 1 ? "" : "s", nargs, np, args[np].text);
        return 2;
    }
    for (unsigned i = 0; i < np; i++) {
        ptxemu_function_param(k, i, &pi);
        size_t sz = args[i].kind == ARG_BUFFER ? 8 : args[i].nbytes;
        if (sz != pi.size) {
            fprintf(stderr, "ptxemu run: argument %u '%s' is %zu bytes%s but "
                    "parameter %u '%s' of kernel '%s' is .%s%s, %zu bytes\n",
                    i, args[i].text, sz,
                    args[i].kind == ARG_BUFFER ? " (a device pointer)" : "",
                    i, pi.name, kn, pi.type,
                    pi.array_len ? " array" : "", pi.size);
            return 2;
        }
    }
    return 0;
}

int cmd_run(int argc, char **argv)
{
    enum { OPT_KERNEL = 256, OPT_GRID, OPT_BLOCK, OPT_SHARED, OPT_ARG,
           OPT_OUT, OPT_PRINT, OPT_STATS, OPT_LIMIT, OPT_TIME_LIMIT,
           OPT_DIVERGE,
           OPT_CLUSTER, OPT_TIMING, OPT_TIMING_CONFIG, OPT_TIMING_SET,
           OPT_TIMING_HELP, OPT_RECONV, OPT_TOOL, OPT_FORMAT,
           OPT_RACE_REPORT, OPT_ERROR_EXITCODE, OPT_SMS, OPT_STATS_INTERVAL,
           OPT_STATS_CSV, OPT_PROGRESS, OPT_NO_PROGRESS,
           OPT_TRACE_RECONV, OPT_TRACE_SIMT, OPT_THREADS, OPT_VERBOSE,
           OPT_FAST, OPT_DETERMINISTIC, OPT_EXITED_LANES };
    static const struct option opts[] = {
        {"kernel", required_argument, NULL, OPT_KERNEL},
        {"grid", required_argument, NULL, OPT_GRID},
        {"block", required_argument, NULL, OPT_BLOCK},
        {"shared", required_argument, NULL, OPT_SHARED},
        {"cluster", required_argument, NULL, OPT_CLUSTER},
        {"arg", required_argument, NULL, OPT_ARG},
        {"out", required_argument, NULL, OPT_OUT},
        {"print", required_argument, NULL, OPT_PRINT},
        {"stats", optional_argument, NULL, OPT_STATS},
        {"insn-limit", required_argument, NULL, OPT_LIMIT},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"sms", required_argument, NULL, OPT_SMS},
        {"diverge", required_argument, NULL, OPT_DIVERGE},
        {"timing", required_argument, NULL, OPT_TIMING},
        {"timing-config", required_argument, NULL, OPT_TIMING_CONFIG},
        {"timing-set", required_argument, NULL, OPT_TIMING_SET},
        {"timing-help", no_argument, NULL, OPT_TIMING_HELP},
        {"reconvergence", required_argument, NULL, OPT_RECONV},
        {"tool", required_argument, NULL, OPT_TOOL},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"racecheck-report", required_argument, NULL, OPT_RACE_REPORT},
        {"synccheck-exited-lanes", required_argument, NULL,
         OPT_EXITED_LANES},
        {"error-exitcode", required_argument, NULL, OPT_ERROR_EXITCODE},
        {"stats-interval", required_argument, NULL, OPT_STATS_INTERVAL},
        {"stats-csv", required_argument, NULL, OPT_STATS_CSV},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
        {"trace-reconvergence", no_argument, NULL, OPT_TRACE_RECONV},
        {"trace-simt", required_argument, NULL, OPT_TRACE_SIMT},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"fast", no_argument, NULL, OPT_FAST},
        {"deterministic", no_argument, NULL, OPT_DETERMINISTIC},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *kernel = NULL, *stats_file = NULL;
    bool stats = false;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    unsigned cluster[3] = {0, 0, 0};
    uint64_t shared = 0;
    ptxemu_device_options dopt;
    ptxemu_device_options_default(&dopt);
    dopt.progress = PTXEMU_PROGRESS_AUTO;
    /* every list is at most argc long */
    const char **specs = calloc((size_t)argc + 1, sizeof(*specs));
    OutReq *outs = calloc((size_t)argc + 1, sizeof(*outs));
    PrintReq *prints = calloc((size_t)argc + 1, sizeof(*prints));
    const char **tsets = calloc((size_t)argc + 1, sizeof(*tsets));
    bool timing_help = false;
    ArgSpec *args = NULL;
    unsigned nspecs = 0, nouts = 0, nprints = 0, nparsed = 0;
    ptxemu_device *dev = NULL;
    RtSanOptions sopt = { .out = stderr };
    RtSanitize *san = NULL;
    uint64_t error_exitcode = 0;
    int status = 2;
    int c;
    if (!specs || !outs || !prints || !tsets) {
        fprintf(stderr, "ptxemu run: out of memory\n");
        status = 1;
        goto done;
    }
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_KERNEL: kernel = optarg; break;
        case OPT_GRID:
            if (!argspec_parse_dim3(optarg, grid)) {
                fprintf(stderr, "ptxemu run: --grid '%s': expected X[,Y,Z] "
                        "with positive integers\n", optarg);
                goto done;
            }
            break;
        case OPT_BLOCK:
            if (!argspec_parse_dim3(optarg, block)) {
                fprintf(stderr, "ptxemu run: --block '%s': expected X[,Y,Z] "
                        "with positive integers\n", optarg);
                goto done;
            }
            break;
        case OPT_CLUSTER:
            if (!argspec_parse_dim3(optarg, cluster)) {
                fprintf(stderr, "ptxemu run: --cluster '%s': expected "
                        "X[,Y,Z] with positive integers\n", optarg);
                goto done;
            }
            break;
        case OPT_SHARED:
            if (!argspec_parse_uint(optarg, UINT32_MAX, &shared)) {
                fprintf(stderr, "ptxemu run: --shared '%s': expected a "
                        "byte count from 0 to %u\n", optarg, UINT32_MAX);
                goto done;
            }
            break;
        case OPT_ARG: specs[nspecs++] = optarg; break;
        case OPT_OUT:
            if (!parse_out(optarg, &outs[nouts++])) {
                fprintf(stderr, "ptxemu run: --out '%s': expected N=FILE\n",
                        optarg);
                goto done;
            }
            break;
        case OPT_PRINT:
            if (!parse_print(optarg, &prints[nprints++])) {
                fprintf(stderr, "ptxemu run: --print '%s': expected "
                        "N[:COUNT]\n", optarg);
                goto done;
            }
            break;
        case OPT_STATS:
            stats = true;
            stats_file = optarg;
            if (stats_file && !*stats_file) {
                fprintf(stderr, "ptxemu run: --stats=: empty file name\n");
                goto done;
            }
            break;
        case OPT_LIMIT:
            if (!argspec_parse_uint(optarg, UINT64_MAX, &dopt.insn_limit)) {
                fprintf(stderr, "ptxemu run: --insn-limit '%s': expected a "
                        "count\n", optarg);
                goto done;
            }
            break;
        case OPT_TIME_LIMIT: {
            uint64_t sec;
            if (!argspec_parse_uint(optarg, UINT64_MAX / 1000, &sec)) {
                fprintf(stderr, "ptxemu run: --time-limit '%s': expected "
                        "seconds\n", optarg);
                goto done;
            }
            dopt.time_limit_ms = sec * 1000;
            break;
        }
        case OPT_SMS: {
            uint64_t n;
            if (!argspec_parse_uint(optarg, 4096, &n) || n == 0) {
                fprintf(stderr, "ptxemu run: --sms '%s': expected 1..4096"
                        "\n", optarg);
                goto done;
            }
            dopt.num_sms = (uint32_t)n;
            break;
        }
        case OPT_DIVERGE:
            if (!strcmp(optarg, "taken")) {
                dopt.diverge_order = PTXEMU_DIVERGE_TAKEN_FIRST;
            } else if (!strcmp(optarg, "majority-last")) {
                dopt.diverge_order = PTXEMU_DIVERGE_MAJORITY_LAST;
            } else if (!strcmp(optarg, "majority-first")) {
                dopt.diverge_order = PTXEMU_DIVERGE_MAJORITY_FIRST;
            } else {
                fprintf(stderr, "ptxemu run: --diverge '%s': expected taken, "
                        "majority-last or majority-first\n", optarg);
                goto done;
            }
            break;
        case OPT_RECONV:
            if (ptxemu_parse_reconvergence(optarg, &dopt.reconvergence)) {
                fprintf(stderr, "ptxemu run: --reconvergence '%s': expected "
                        "ipdom or its\n", optarg);
                goto done;
            }
            break;
        case OPT_TOOL:
            if (!rt_sanitize_tools(optarg, &sopt.tools)) {
                fprintf(stderr, "ptxemu run: --tool '%s': expected a list of "
                        "memcheck, racecheck, initcheck, synccheck\n",
                        optarg);
                goto done;
            }
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") && strcmp(optarg, "json") &&
                strcmp(optarg, "xml")) {
                fprintf(stderr, "ptxemu run: --format '%s': expected text, "
                        "json or xml\n", optarg);
                goto done;
            }
            sopt.json = !strcmp(optarg, "json");
            sopt.xml = !strcmp(optarg, "xml");
            break;
        case OPT_RACE_REPORT:
            if (strcmp(optarg, "hazard") && strcmp(optarg, "analysis")) {
                fprintf(stderr, "ptxemu run: --racecheck-report '%s': "
                        "expected hazard or analysis\n", optarg);
                goto done;
            }
            sopt.race_analysis = !strcmp(optarg, "analysis");
            break;
        case OPT_EXITED_LANES:
            if (strcmp(optarg, "yes") && strcmp(optarg, "no")) {
                fprintf(stderr, "ptxemu run: --synccheck-exited-lanes '%s': "
                        "expected yes or no\n", optarg);
                goto done;
            }
            sopt.exited_lanes = !strcmp(optarg, "yes");
            break;
        case OPT_ERROR_EXITCODE:
            if (!argspec_parse_uint(optarg, 255, &error_exitcode)) {
                fprintf(stderr, "ptxemu run: --error-exitcode '%s': expected "
                        "0 to 255\n", optarg);
                goto done;
            }
            break;
        case OPT_TRACE_RECONV: dopt.trace_reconvergence = 1; break;
        case OPT_TRACE_SIMT: dopt.trace_simt = optarg; break;
        case OPT_VERBOSE: dopt.verbose = 1; break;
        case OPT_FAST: dopt.fast = 1; break;
        case OPT_DETERMINISTIC: dopt.fast = 0; break;
        case OPT_THREADS: {
            uint64_t n;
            if (!argspec_parse_uint(optarg, 1024, &n) || n == 0) {
                fprintf(stderr, "ptxemu run: --threads '%s': expected "
                        "1..1024\n", optarg);
                goto done;
            }
            dopt.threads = (uint32_t)n;
            break;
        }
        case OPT_TIMING: dopt.timing = optarg; break;
        case OPT_TIMING_CONFIG: dopt.timing_config = optarg; break;
        case OPT_TIMING_SET: tsets[dopt.ntiming_set++] = optarg; break;
        case OPT_TIMING_HELP: timing_help = true; break;
        case OPT_STATS_INTERVAL:
            if (!argspec_parse_uint(optarg, UINT64_MAX, &dopt.stats_interval)
                || !dopt.stats_interval) {
                fprintf(stderr, "ptxemu run: --stats-interval '%s': expected "
                        "a number of cycles, at least 1\n", optarg);
                goto done;
            }
            break;
        case OPT_STATS_CSV: dopt.stats_csv = optarg; break;
        case OPT_PROGRESS: dopt.progress = PTXEMU_PROGRESS_ON; break;
        case OPT_NO_PROGRESS: dopt.progress = PTXEMU_PROGRESS_OFF; break;
        case 'h':
            run_usage(stdout);
            status = 0;
            goto done;
        default:
            run_usage(stderr);
            goto done;
        }
    }
    dopt.timing_set = tsets;
    if (timing_help) {
        status = print_timing_help(&dopt);
        goto done;
    }
    if (optind >= argc) {
        fprintf(stderr, "ptxemu run: no PTX file\n");
        run_usage(stderr);
        goto done;
    }
    /* Several files are linked by name (relocatable device code). */
    const char *file = argv[optind];
    unsigned nfiles = (unsigned)(argc - optind);

    /* Arguments first: a typo is found before any work. */
    args = calloc((size_t)nspecs + 1, sizeof(*args));
    if (!args) {
        fprintf(stderr, "ptxemu run: out of memory\n");
        status = 1;
        goto done;
    }
    for (unsigned i = 0; i < nspecs; i++, nparsed++) {
        char err[512];
        int r = argspec_parse(specs[i], &args[i], err, sizeof(err));
        if (r != ARGSPEC_OK) {
            fprintf(stderr, "ptxemu run: --arg %u: %s\n", i, err);
            nparsed++;
            status = r;
            goto done;
        }
    }
    for (unsigned i = 0; i < nouts + nprints; i++) {
        unsigned a = i < nouts ? outs[i].arg : prints[i - nouts].arg;
        const char *opt = i < nouts ? "--out" : "--print";
        if (a >= nspecs || args[a].kind != ARG_BUFFER) {
            fprintf(stderr, "ptxemu run: %s %u: argument %u is not a buffer "
                    "(buf:...)\n", opt, a, a);
            goto done;
        }
    }

    dopt.collect_stats = stats;
    if (ptxemu_device_create(&dopt, &dev) != PTXEMU_SUCCESS) {
        const char *why = ptxemu_device_create_error();
        if (*why) {
            fprintf(stderr, "ptxemu run: %s\n", why);
        } else {
            fprintf(stderr, "ptxemu run: cannot create the device\n");
        }
        status = 1;
        goto done;
    }
    if (sopt.tools) {
        char why[128];
        if (!(san = rt_sanitize_start(dev, &sopt, why, sizeof(why)))) {
            fprintf(stderr, "ptxemu run: %s\n", why);
            status = 1;
            goto done;
        }
    }
    ptxemu_module *mod;
    ptxemu_status lst =
        nfiles == 1 ? ptxemu_module_load_file(dev, file, &mod)
                    : ptxemu_module_load_linked_files(
                          dev, nfiles, (const char *const *)&argv[optind],
                          &mod);
    if (lst != PTXEMU_SUCCESS) {
        const char *m = ptxemu_last_error_message(dev);
        fputs(m, stderr);
        if (*m && m[strlen(m) - 1] != '\n') {
            fputc('\n', stderr);
        }
        status = 1;
        goto done;
    }
    ptxemu_function *k = NULL;
    unsigned nk = ptxemu_module_num_functions(mod);
    if (!kernel) {
        if (nk != 1) {
            fprintf(stderr, "ptxemu run: %s has %u kernels: choose one with "
                    "--kernel:", file, nk);
            for (unsigned i = 0; i < nk; i++) {
                fprintf(stderr, " %s",
                        ptxemu_function_name(ptxemu_module_function(mod, i)));
            }
            fputc('\n', stderr);
            goto done;
        }
        k = ptxemu_module_function(mod, 0);
    } else if ((lst = ptxemu_module_get_function(mod, kernel, &k)) !=
               PTXEMU_SUCCESS) {
        if (lst != PTXEMU_ERROR_NOT_FOUND) {
            /* the kernel alone could not be loaded: its located errors */
            fprintf(stderr, "ptxemu run: %s\n",
                    ptxemu_last_error_message(dev));
            status = 1;
            goto done;
        }
        fprintf(stderr, "ptxemu run: %s has no kernel named '%s' (kernels:",
                file, kernel);
        for (unsigned i = 0; i < nk; i++) {
            fprintf(stderr, " %s",
                    ptxemu_function_name(ptxemu_module_function(mod, i)));
        }
        fprintf(stderr, ")\n");
        goto done;
    }
    if ((status = check_params(k, args, nspecs)) != 0) {
        goto done;
    }

    void **params = calloc((size_t)nspecs + 1, sizeof(*params));
    if (!params) {
        fprintf(stderr, "ptxemu run: out of memory\n");
        status = 1;
        goto done;
    }
    for (unsigned i = 0; i < nspecs; i++) {
        ArgSpec *a = &args[i];
        if (a->kind == ARG_BUFFER) {
            if (ptxemu_malloc(dev, a->nbytes, &a->devptr) != PTXEMU_SUCCESS ||
                (!a->uninit &&
                 ptxemu_memcpy_htod(dev, a->devptr, a->bytes, a->nbytes) !=
                     PTXEMU_SUCCESS)) {
                fprintf(stderr, "ptxemu run: argument %u: %s\n", i,
                        ptxemu_last_error_message(dev));
                free(params);
                status = 1;
                goto done;
            }
            params[i] = &a->devptr;
        } else {
            params[i] = a->bytes;
        }
    }
    ptxemu_launch_config lc;
    ptxemu_launch_config_default(&lc);
    memcpy(lc.grid, grid, sizeof(lc.grid));
    memcpy(lc.block, block, sizeof(lc.block));
    memcpy(lc.cluster, cluster, sizeof(lc.cluster));
    lc.shared_bytes = (unsigned)shared;
    ptxemu_status st = ptxemu_launch_ex(k, &lc, params);
    free(params);
    ptxemu_status st2 = ptxemu_synchronize(dev);
    if (st == PTXEMU_SUCCESS) {
        st = st2;
    }
    if (st != PTXEMU_SUCCESS) {
        const char *m = ptxemu_last_error_message(dev);
        fprintf(stderr, "ptxemu run: %s", *m ? m : ptxemu_status_string(st));
        if (!*m || m[strlen(m) - 1] != '\n') {
            fputc('\n', stderr);
        }
        status = st == PTXEMU_ERROR_LAUNCH_CONFIG ? 2 : 1;
        goto done;
    }
    status = 0;
    for (unsigned i = 0; i < nspecs; i++) {
        ArgSpec *a = &args[i];
        if (a->kind == ARG_BUFFER &&
            ptxemu_memcpy_dtoh(dev, a->bytes, a->devptr, a->nbytes) !=
                PTXEMU_SUCCESS) {
            fprintf(stderr, "ptxemu run: reading back argument %u: %s\n", i,
                    ptxemu_last_error_message(dev));
            status = 1;
            goto done;
        }
    }
    for (unsigned i = 0; i < nprints; i++) {
        print_buffer(&args[prints[i].arg], prints[i].arg, prints[i].count);
    }
    for (unsigned i = 0; i < nouts; i++) {
        const ArgSpec *a = &args[outs[i].arg];
        FILE *fp = fopen(outs[i].file, "wb");
        if (!fp || fwrite(a->bytes, 1, a->nbytes, fp) != a->nbytes ||
            fclose(fp) != 0) {
            fprintf(stderr, "ptxemu run: --out %u=%s: %s\n", outs[i].arg,
                    outs[i].file, strerror(errno));
            status = 1;
        }
    }
    if (stats) {
        if (stats_file) {
            FILE *fp = fopen(stats_file, "w");
            if (!fp) {
                fprintf(stderr, "ptxemu run: --stats=%s: %s\n", stats_file,
                        strerror(errno));
                status = 1;
            } else {
                write_stats(fp, true, dev, ptxemu_function_name(k), grid,
                            block);
                if (fclose(fp) != 0) {
                    fprintf(stderr, "ptxemu run: --stats=%s: %s\n",
                            stats_file, strerror(errno));
                    status = 1;
                }
            }
        } else {
            fflush(stdout);
            write_stats(stdout, false, dev, ptxemu_function_name(k), grid,
                        block);
        }
    }
done:
    if (san) {
        fflush(stdout);
        if (rt_sanitize_finish(san) && error_exitcode) {
            status = (int)error_exitcode;
        }
    }
    for (unsigned i = 0; i < nparsed && args; i++) {
        argspec_free(&args[i]);
    }
    free(args);
    ptxemu_device_destroy(dev);
    free(specs);
    free(outs);
    free(prints);
    free(tsets);
    fflush(stdout);
    return status;
}
