/*
 * ptx/opcode.c: the compiled form of the .def tables, and lookups on them.
 *
 * Rationale.  The parser looks up every mnemonic, every dotted suffix and
 * every special register of files that hold millions of instructions, so
 * each lookup is one probe sequence in a small open-addressing hash table
 * built once at start-up; nothing here scans a whole table per call.  The
 * tables themselves stay strings in the .def files (readable, one row per
 * opcode); pthread_once turns them into PtxOpInfo records on first use.
 *
 * A malformed row (unknown type or group name, bad shape string, duplicate
 * name) is a bug in the tables, not in user input: it aborts with a message
 * naming the row, and tests/check_opcode catches it in CI.
 *
 * Queries that only index a static array (type names and sizes, modifier
 * names and groups) need no initialization and stay cheap enough for
 * ir_insn_mod()'s inner loop.
 */
#include "ptx/opcode.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(PTX_T_COUNT <= 64, "type masks are uint64_t");
_Static_assert(PTX_MG_COUNT <= 63, "group masks are uint64_t");
_Static_assert(PTX_M_COUNT < 65535, "modifier ids are uint16_t");
_Static_assert(PTX_OP_COUNT < 65535, "opcode ids are uint16_t");

/* ---- the raw tables ---- */

typedef struct RawOp {
    const char *name;
    const char *shape;
    int ntmin, ntmax;
    const char *types;
    const char *groups;
    uint32_t flags;
    const char *synopsis;
} RawOp;

static const RawOp raw_ops[PTX_OP_COUNT] = {
    [PTX_OP_INVALID] = { "", "", 0, 0, "", "", 0, "not an instruction" },
#define OP(id, name, shape, ntmin, ntmax, types, groups, flags, synopsis) \
    [PTX_OP_##id] = { name, shape, ntmin, ntmax, types, groups,          \
                      (uint32_t)(flags), synopsis },
#include "ptx/opcodes.def"
#undef OP
};

typedef struct TypeInfo {
    const char *name;
    unsigned bits;
    PtxTypeKind kind;
} TypeInfo;

static const TypeInfo type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = { "", 0, PTX_TK_NONE },
#define TYPE(id, name, bits, kind) [PTX_T_##id] = { name, bits, PTX_TK_##kind },
#include "ptx/types.def"
#undef TYPE
};

typedef struct ModInfo {
    const char *str;
    PtxModGroup group;
} ModInfo;

static const ModInfo mod_info[PTX_M_COUNT] = {
    [PTX_M_NONE] = { "", PTX_MG_COUNT },
#define MOD(group, id, str) [PTX_M_##id] = { str, PTX_MG_##group },
#include "ptx/modifiers.def"
#undef MOD
};

typedef struct GroupInfo {
    const char *name;
    PtxModGroup overflow;
} GroupInfo;

/* OVERFLOW is NONE or a group ID; NONE maps to PTX_MG_COUNT. */
#define PTX_MG_NONE PTX_MG_COUNT
static const GroupInfo group_info[PTX_MG_COUNT] = {
#define MGROUP(id, name, overflow) [PTX_MG_##id] = { name, PTX_MG_##overflow },
#include "ptx/modgroups.def"
#undef MGROUP
};
#undef PTX_MG_NONE

typedef struct SregInfo {
    const char *name;
    PtxType type;
    unsigned ncomp;
    unsigned nidx;
} SregInfo;

static const SregInfo sreg_info[PTX_SREG_COUNT] = {
    [PTX_SREG_NONE] = { "", PTX_T_NONE, 0, 0 },
#define SREG(id, name, type, ncomp, nidx) \
    [PTX_SREG_##id] = { name, PTX_T_##type, ncomp, nidx },
#include "ptx/sregs.def"
#undef SREG
};

static const char *const space_names[PTX_SPACE_COUNT] = {
    [PTX_SPACE_NONE] = "",
    [PTX_SPACE_REG] = "reg",
    [PTX_SPACE_SREG] = "sreg",
    [PTX_SPACE_CONST] = "const",
    [PTX_SPACE_GLOBAL] = "global",
    [PTX_SPACE_LOCAL] = "local",
    [PTX_SPACE_PARAM] = "param",
    [PTX_SPACE_SHARED] = "shared",
    [PTX_SPACE_SHARED_CLUSTER] = "shared::cluster",
    [PTX_SPACE_TEX] = "tex",
    [PTX_SPACE_GENERIC] = "generic",
};

/* ---- static queries (no initialization needed) ---- */

const char *ptx_type_name(PtxType t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "";
}

unsigned ptx_type_bits(PtxType t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].bits : 0;
}

PtxTypeKind ptx_type_kind(PtxType t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].kind : PTX_TK_NONE;
}

const char *ptx_space_name(PtxSpace s)
{
    return (unsigned)s < PTX_SPACE_COUNT ? space_names[s] : "";
}

const char *ptx_sreg_name(PtxSreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_info[s].name : "";
}

PtxType ptx_sreg_type(PtxSreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_info[s].type : PTX_T_NONE;
}

unsigned ptx_sreg_ncomp(PtxSreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_info[s].ncomp : 0;
}

unsigned ptx_sreg_nidx(PtxSreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_info[s].nidx : 0;
}

const char *ptx_mod_name(PtxMod m)
{
    return (unsigned)m < PTX_M_COUNT ? mod_info[m].str : "";
}

PtxModGroup ptx_mod_group(PtxMod m)
{
    return (unsigned)m < PTX_M_COUNT ? mod_info[m].group : PTX_MG_COUNT;
}

const char *ptx_modgroup_name(PtxModGroup g)
{
    return (unsigned)g < PTX_MG_COUNT ? group_info[g].name : "";
}

PtxModGroup ptx_modgroup_overflow(PtxModGroup g)
{
    return (unsigned)g < PTX_MG_COUNT ? group_info[g].overflow : PTX_MG_COUNT;
}

static void table_error(const char *row, const char *fmt, const char *what)
    __attribute__((noreturn));

/* ---- string hash tables ---- */

/* Open addressing with linear probing; a slot holds value + 1 (0 = empty)
 * and keys[] holds the NUL-terminated key of each value.  Sizes are powers
 * of two at least twice the number of keys, so probe runs stay short. */
typedef struct StrHash {
    uint32_t mask;
    uint16_t *slots;
    const char *const *keys;     /* indexed by value */
    uint8_t *lens;               /* strlen of each key (all are short) */
} StrHash;

static uint32_t str_hash(const char *s, size_t len)
{
    /* FNV-1a: short keys, no need for anything stronger. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static bool key_eq(const char *key, const char *s, size_t len)
{
    return strncmp(key, s, len) == 0 && key[len] == '\0';
}

static unsigned hash_find(const StrHash *h, const char *s, size_t len)
{
    uint32_t i = str_hash(s, len) & h->mask;
    for (;;) {
        unsigned v = h->slots[i];
        if (v == 0) {
            return 0;
        }
        if (h->lens[v - 1] == len && memcmp(h->keys[v - 1], s, len) == 0) {
            return v;
        }
        i = (i + 1) & h->mask;
    }
}

/* Inserts value v (key keys[v]) unless its key is present; returns the
 * value already stored + 1, or 0 when v was inserted. */
static unsigned hash_insert(StrHash *h, unsigned v)
{
    const char *key = h->keys[v];
    size_t len = strlen(key);
    if (len > 255) {
        table_error(key, "%s", "name too long");
    }
    h->lens[v] = (uint8_t)len;
    uint32_t i = str_hash(key, len) & h->mask;
    for (;;) {
        unsigned cur = h->slots[i];
        if (cur == 0) {
            h->slots[i] = (uint16_t)(v + 1);
            return 0;
        }
        if (key_eq(h->keys[cur - 1], key, len)) {
            return cur;
        }
        i = (i + 1) & h->mask;
    }
}

#define OP_SLOTS 1024u
#define MOD_SLOTS 2048u
#define TYPE_SLOTS 256u
#define SREG_SLOTS 256u

_Static_assert(PTX_OP_COUNT * 2 <= OP_SLOTS, "grow OP_SLOTS");
_Static_assert(PTX_M_COUNT * 2 <= MOD_SLOTS, "grow MOD_SLOTS");
_Static_assert(PTX_T_COUNT * 2 <= TYPE_SLOTS, "grow TYPE_SLOTS");
_Static_assert(PTX_SREG_COUNT * 2 <= SREG_SLOTS, "grow SREG_SLOTS");

static const char *op_keys[PTX_OP_COUNT];
static const char *mod_keys[PTX_M_COUNT];
static const char *type_keys[PTX_T_COUNT];
static const char *sreg_keys[PTX_SREG_COUNT];
static uint16_t op_slots[OP_SLOTS];
static uint16_t mod_slots[MOD_SLOTS];
static uint16_t type_slots[TYPE_SLOTS];
static uint16_t sreg_slots[SREG_SLOTS];

static uint8_t op_lens[PTX_OP_COUNT];
static uint8_t mod_lens[PTX_M_COUNT];
static uint8_t type_lens[PTX_T_COUNT];
static uint8_t sreg_lens[PTX_SREG_COUNT];

static StrHash op_hash = { OP_SLOTS - 1, op_slots, op_keys, op_lens };
static StrHash mod_hash = { MOD_SLOTS - 1, mod_slots, mod_keys, mod_lens };
static StrHash type_hash = { TYPE_SLOTS - 1, type_slots, type_keys,
                             type_lens };
static StrHash sreg_hash = { SREG_SLOTS - 1, sreg_slots, sreg_keys,
                             sreg_lens };

/* Rows sharing a modifier string, chained in table order: the hash holds
 * the first row, mod_next[] the following ones (0 ends the chain). */
static uint16_t mod_next[PTX_M_COUNT];

static PtxOpInfo op_info[PTX_OP_COUNT];

/* Proper dotted prefixes of multi-component opcode names ("cp",
 * "cp.async", "bar" ...), so the longest-prefix search can start short
 * and stop as soon as no longer name can match: one or two probes per
 * instruction instead of one per component. */
#define PREFIX_SLOTS 1024
typedef struct Prefix {
    const char *s;
    uint32_t len;
} Prefix;
static Prefix prefixes[PREFIX_SLOTS];

static bool prefix_known(const char *s, size_t len)
{
    for (uint32_t i = str_hash(s, len) & (PREFIX_SLOTS - 1);;
         i = (i + 1) & (PREFIX_SLOTS - 1)) {
        const Prefix *p = &prefixes[i];
        if (!p->s) {
            return false;
        }
        if (p->len == len && memcmp(p->s, s, len) == 0) {
            return true;
        }
    }
}

static void add_prefixes(const char *name)
{
    static unsigned used;
    for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
        size_t len = (size_t)(dot - name);
        if (prefix_known(name, len)) {
            continue;
        }
        if (++used > PREFIX_SLOTS / 2) {
            table_error(name, "%s", "too many opcode prefixes");
        }
        uint32_t i = str_hash(name, len) & (PREFIX_SLOTS - 1);
        while (prefixes[i].s) {
            i = (i + 1) & (PREFIX_SLOTS - 1);
        }
        prefixes[i].s = name;
        prefixes[i].len = (uint32_t)len;
    }
}

/* ---- compiling the opcode rows ---- */

static void table_error(const char *row, const char *fmt, const char *what)
{
    fprintf(stderr, "ptxemu: internal error: opcodes.def row '%s': ", row);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    abort();
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Parses one operand spec ("?d0VR") of length len into *o. */
static bool parse_opnd(const char *s, size_t len, PtxOpndSpec *o)
{
    size_t i = 0;
    memset(o, 0, sizeof(*o));
    o->tclass = '_';
    if (i < len && s[i] == '?') {
        o->optional = true;
        i++;
    }
    if (i >= len || !strchr("dsriqpmltfavyx", s[i])) {
        return false;
    }
    o->kind = s[i++];
    if (i < len && strchr("0123wWphzuZfA_", s[i])) {
        o->tclass = s[i++];
    }
    for (; i < len; i++) {
        switch (s[i]) {
        case 'V':
            o->vec = true;
            break;
        case 'R':
            o->relaxed = true;
            break;
        case 'U':
            o->unpack = true;
            break;
        case 'P':
            o->pair = true;
            break;
        default:
            return false;
        }
    }
    return true;
}

static void compile_shape(const RawOp *r, PtxOpInfo *oi)
{
    const char *p = r->shape;
    unsigned n = 0, nreq = 0;
    bool seen_opt = false;
    while (*p) {
        while (is_space(*p)) {
            p++;
        }
        const char *start = p;
        while (*p && *p != ',' && !is_space(*p)) {
            p++;
        }
        size_t len = (size_t)(p - start);
        while (is_space(*p)) {
            p++;
        }
        if (len == 0 || (*p && *p != ',')) {
            table_error(r->name, "malformed shape \"%s\"", r->shape);
        }
        if (*p == ',') {
            p++;
            if (!*p) {
                table_error(r->name, "trailing comma in shape \"%s\"",
                            r->shape);
            }
        }
        if (n >= PTX_MAX_OPNDS) {
            table_error(r->name, "too many operands in shape \"%s\"",
                        r->shape);
        }
        PtxOpndSpec *o = &oi->opnd[n];
        if (!parse_opnd(start, len, o)) {
            table_error(r->name, "bad operand spec in shape \"%s\"",
                        r->shape);
        }
        if (o->optional) {
            seen_opt = true;
        } else if (seen_opt) {
            table_error(r->name, "optional operand before a required one "
                        "in shape \"%s\"", r->shape);
        } else {
            nreq++;
        }
        n++;
    }
    oi->nopnd_min = (uint8_t)nreq;
    oi->nopnd_max = (uint8_t)n;
}

/* Splits a space-separated list; calls fn for each word. */
static void for_words(const RawOp *r, const char *list,
                      void (*fn)(const RawOp *, const char *, size_t,
                                 PtxOpInfo *),
                      PtxOpInfo *oi)
{
    const char *p = list;
    for (;;) {
        while (is_space(*p)) {
            p++;
        }
        if (!*p) {
            break;
        }
        const char *start = p;
        while (*p && !is_space(*p)) {
            p++;
        }
        fn(r, start, (size_t)(p - start), oi);
    }
}

static void add_type(const RawOp *r, const char *w, size_t len,
                     PtxOpInfo *oi)
{
    bool optional = w[0] == '?';
    if (optional) {
        w++;
        len--;
    }
    unsigned v = hash_find(&type_hash, w, len);
    if (v == 0) {
        if (optional) {
            return;
        }
        char buf[64];
        snprintf(buf, sizeof(buf), "%.*s", (int)len, w);
        table_error(r->name, "unknown type '%s'", buf);
    }
    oi->types |= (uint64_t)1 << (v - 1);
}

static void add_group(const RawOp *r, const char *w, size_t len,
                      PtxOpInfo *oi)
{
    bool required = w[0] == '!';
    if (required) {
        w++;
        len--;
    }
    for (unsigned g = 0; g < PTX_MG_COUNT; g++) {
        if (key_eq(group_info[g].name, w, len)) {
            uint64_t bit = (uint64_t)1 << g;
            oi->groups |= bit;
            if (required) {
                oi->required |= bit;
            }
            return;
        }
    }
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*s", (int)len, w);
    table_error(r->name, "unknown modifier group '%s'", buf);
}

static void compile_op(unsigned op)
{
    const RawOp *r = &raw_ops[op];
    PtxOpInfo *oi = &op_info[op];
    memset(oi, 0, sizeof(*oi));
    oi->name = r->name;
    oi->synopsis = r->synopsis;
    oi->flags = r->flags;
    if (op == PTX_OP_INVALID) {
        return;
    }
    unsigned ncomp = 1;
    for (const char *p = r->name; *p; p++) {
        ncomp += *p == '.';
    }
    if (!r->name[0] || r->name[0] == '.' || ncomp > 255) {
        table_error(r->name, "%s", "bad opcode name");
    }
    oi->ncomp = (uint8_t)ncomp;
    if (r->ntmin < 0 || r->ntmin > r->ntmax || r->ntmax > 8) {
        table_error(r->name, "%s", "bad NTMIN/NTMAX");
    }
    oi->ntmin = (uint8_t)r->ntmin;
    oi->ntmax = (uint8_t)r->ntmax;
    compile_shape(r, oi);
    for_words(r, r->types, add_type, oi);
    for_words(r, r->groups, add_group, oi);
    if (r->ntmax > 0 && oi->types == 0) {
        table_error(r->name, "%s", "takes types but lists none");
    }
    if (hash_insert(&op_hash, op) != 0) {
        table_error(r->name, "%s", "duplicate opcode name");
    }
    add_prefixes(r->name);
}

static void init_tables(void)
{
    for (unsigned t = 1; t < PTX_T_COUNT; t++) {
        type_keys[t] = type_info[t].name;
        if (hash_insert(&type_hash, t) != 0) {
            table_error(type_info[t].name, "%s", "duplicate type");
        }
    }
    type_keys[0] = "";
    for (unsigned m = 1; m < PTX_M_COUNT; m++) {
        mod_keys[m] = mod_info[m].str;
        unsigned first = hash_insert(&mod_hash, m);
        if (first != 0) {
            /* Same string as an earlier row: append m to its chain. */
            unsigned k = first - 1;
            while (mod_next[k] != 0) {
                if (mod_info[k].group == mod_info[m].group) {
                    break;
                }
                k = mod_next[k];
            }
            if (mod_info[k].group == mod_info[m].group) {
                table_error(mod_info[m].str, "%s",
                            "modifier listed twice in one group");
            }
            mod_next[k] = (uint16_t)m;
        }
    }
    mod_keys[0] = "";
    for (unsigned s = 1; s < PTX_SREG_COUNT; s++) {
        sreg_keys[s] = sreg_info[s].name;
        if (hash_insert(&sreg_hash, s) != 0) {
            table_error(sreg_info[s].name, "%s", "duplicate sreg");
        }
    }
    sreg_keys[0] = "";
    op_keys[0] = "";
    for (unsigned op = 0; op < PTX_OP_COUNT; op++) {
        op_keys[op] = raw_ops[op].name;
        compile_op(op);
    }
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_done;

static void init_all(void)
{
    init_tables();
    __atomic_store_n(&init_done, 1, __ATOMIC_RELEASE);
}

/* Every lookup comes here: after the first, one acquire load. */
static inline void ensure_init(void)
{
    if (!__atomic_load_n(&init_done, __ATOMIC_ACQUIRE)) {
        pthread_once(&init_once, init_all);
    }
}

/* ---- lookups ---- */

const PtxOpInfo *ptx_opinfo(PtxOpcode op)
{
    ensure_init();
    return &op_info[(unsigned)op < PTX_OP_COUNT ? op : PTX_OP_INVALID];
}

PtxOpcode ptx_opcode_lookup(const char *s, size_t len, size_t *consumed)
{
    ensure_init();
    PtxOpcode best = PTX_OP_INVALID;
    size_t best_end = 0;
    const char *dot = memchr(s, '.', len);
    size_t end = dot ? (size_t)(dot - s) : len;
    for (;;) {
        unsigned v = end ? hash_find(&op_hash, s, end) : 0;
        if (v != 0) {
            best = (PtxOpcode)(v - 1);
            best_end = end;
        }
        if (end == len || !prefix_known(s, end)) {
            break;
        }
        dot = memchr(s + end + 1, '.', len - end - 1);
        end = dot ? (size_t)(dot - s) : len;
    }
    if (consumed) {
        *consumed = best_end;
    }
    return best;
}

PtxType ptx_type_lookup(const char *s, size_t len)
{
    ensure_init();
    unsigned v = hash_find(&type_hash, s, len);
    return v ? (PtxType)(v - 1) : PTX_T_NONE;
}

PtxMod ptx_mod_lookup(const char *s, size_t len, uint64_t allowed)
{
    ensure_init();
    unsigned v = hash_find(&mod_hash, s, len);
    if (v == 0) {
        return PTX_M_NONE;
    }
    for (unsigned m = v - 1; m != 0; m = mod_next[m]) {
        if (allowed & ((uint64_t)1 << mod_info[m].group)) {
            return (PtxMod)m;
        }
    }
    return (PtxMod)(v - 1);
}

PtxSreg ptx_sreg_lookup(const char *s, size_t len, int *index)
{
    ensure_init();
    if (index) {
        *index = 0;
    }
    unsigned v = hash_find(&sreg_hash, s, len);
    if (v != 0) {
        /* A family name without its index ("%envreg") is no register. */
        return sreg_info[v - 1].nidx ? PTX_SREG_NONE : (PtxSreg)(v - 1);
    }
    /* Indexed families: %envreg<N>, %pm<N>, %pm<N>_64,
     * %reserved_smem_offset_<N>. */
    size_t end = len;
    bool w64 = len > 3 && memcmp(s + len - 3, "_64", 3) == 0;
    if (w64) {
        end -= 3;
    }
    size_t d = end;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9') {
        d--;
    }
    if (d == end || end - d > 3 || d == 0) {
        return PTX_SREG_NONE;
    }
    char name[48];
    if (d + 4 > sizeof(name)) {
        return PTX_SREG_NONE;
    }
    memcpy(name, s, d);
    size_t nl = d;
    if (w64) {
        memcpy(name + nl, "_64", 3);
        nl += 3;
    }
    v = hash_find(&sreg_hash, name, nl);
    if (v == 0 || !sreg_info[v - 1].nidx) {
        return PTX_SREG_NONE;
    }
    int idx = 0;
    for (size_t k = d; k < end; k++) {
        idx = idx * 10 + (s[k] - '0');
    }
    if ((s[d] == '0' && end - d > 1) ||
        (unsigned)idx >= sreg_info[v - 1].nidx) {
        return PTX_SREG_NONE;
    }
    if (index) {
        *index = idx;
    }
    return (PtxSreg)(v - 1);
}
