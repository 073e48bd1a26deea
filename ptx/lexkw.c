/*
 * ptx/lexkw.c: directive keywords.  Types come from types.def so that the
 * list of types exists once; the rest is a short hand-written table.  The
 * combined table is hashed once (thread-safely).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/build.h"
#include "ptx/parser.h"
#include "ptx/lexkw.h"

static const PtxKeyword fixed[] = {
    {"version", T_VERSION, 0},
    {"target", T_TARGET, 0},
    {"address_size", T_ADDRESS_SIZE, 0},
    {"file", T_FILE, 0},
    {"loc", T_LOC, 0},
    {"pragma", T_PRAGMA, 0},
    {"extern", T_LINKAGE, IR_LINK_EXTERN},
    {"visible", T_LINKAGE, IR_LINK_VISIBLE},
    {"weak", T_LINKAGE, IR_LINK_WEAK},
    {"common", T_LINKAGE, IR_LINK_COMMON},
    {"entry", T_ENTRY, 0},
    {"func", T_FUNC, 0},
    {"callprototype", T_CALLPROTOTYPE, 0},
    {"branchtargets", T_BRANCHTARGETS, 0},
    {"calltargets", T_CALLTARGETS, 0},
    {"noreturn", T_NORETURN, PD_NORETURN},
    {"maxnreg", T_PERF, PD_MAXNREG},
    {"maxntid", T_PERF, PD_MAXNTID},
    {"reqntid", T_PERF, PD_REQNTID},
    {"minnctapersm", T_PERF, PD_MINNCTAPERSM},
    {"maxnctapersm", T_PERF, PD_MAXNCTAPERSM},
    {"explicitcluster", T_PERF, PD_EXPLICITCLUSTER},
    {"reqnctapercluster", T_PERF, PD_REQNCTAPERCLUSTER},
    {"blocksareclusters", T_PERF, PD_BLOCKSARECLUSTERS},
    {"maxclusterrank", T_PERF, PD_MAXCLUSTERRANK},
    {"reg", T_SPACE, PTX_SPACE_REG},
    {"sreg", T_SPACE, PTX_SPACE_SREG},
    {"const", T_SPACE, PTX_SPACE_CONST},
    {"global", T_SPACE, PTX_SPACE_GLOBAL},
    {"local", T_SPACE, PTX_SPACE_LOCAL},
    {"param", T_SPACE, PTX_SPACE_PARAM},
    {"shared", T_SPACE, PTX_SPACE_SHARED},
    {"shared::cta", T_SPACE, PTX_SPACE_SHARED},
    {"shared::cluster", T_SPACE, PTX_SPACE_SHARED_CLUSTER},
    {"tex", T_SPACE, PTX_SPACE_TEX},
    {"v2", T_VEC, 2},
    {"v4", T_VEC, 4},
    {"v8", T_VEC, 8},
    {"align", T_ALIGN, 0},
    {"ptr", T_PTR, 0},
    {"texref", T_TEXREF, IR_SYM_TEXREF},
    {"samplerref", T_TEXREF, IR_SYM_SAMPLERREF},
    {"surfref", T_TEXREF, IR_SYM_SURFREF},
    {"attribute", T_ATTRIBUTE, 0},
    {"alias", T_ALIAS, 0},
};

static const char *const type_names[] = {
#define TYPE(id, name, bits, kind) name,
#include "ptx/types.def"
#undef TYPE
};

#define NTYPES (sizeof(type_names) / sizeof(type_names[0]))
#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

/* Open-addressing hash over the keywords: the scanner looks one up for
 * every directive and type token. */
#define KW_SLOTS 256
static PtxKeyword table[NFIXED + NTYPES];
static const PtxKeyword *slots[KW_SLOTS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *s, size_t len)
{
    unsigned h = 5381;
    for (size_t i = 0; i < len; i++) {
        h = h * 33 + (unsigned char)s[i];
    }
    return h;
}

static void init_table(void)
{
    size_t n = 0;
    for (size_t i = 0; i < NFIXED; i++) {
        table[n++] = fixed[i];
    }
    for (size_t i = 0; i < NTYPES; i++) {
        PtxKeyword k = {type_names[i], T_TYPE, (int)(PTX_T_NONE + 1 + i)};
        table[n++] = k;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned h = kw_hash(table[i].name, strlen(table[i].name));
        while (slots[h % KW_SLOTS]) {
            h++;
        }
        slots[h % KW_SLOTS] = &table[i];
    }
}

const PtxKeyword *ptx_keyword_lookup(const char *s, size_t len)
{
    pthread_once(&once, init_table);
    for (unsigned h = kw_hash(s, len);; h++) {
        const PtxKeyword *k = slots[h % KW_SLOTS];
        if (!k) {
            return NULL;
        }
        if (strncmp(k->name, s, len) == 0 && k->name[len] == '\0') {
            return k;
        }
    }
}
