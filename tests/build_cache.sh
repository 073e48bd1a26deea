# tests/build_cache.sh: sourced by shell tests that build CUDA programs
# with nvcc (or CMake); keeps what a build made so that the next run of
# the test copies it instead of running the compiler again.
#
# The cache is the directory $PTXEMU_BUILD_CACHE, by default
# $top_builddir/tests/build-cache (removed by `make distclean`); set
# PTXEMU_BUILD_CACHE= (empty) to build everything afresh.  An entry is
# named by a hash of: the tool versions (BUILD_CACHE_SALT, set once by
# the caller, e.g. `nvcc --version`), the command line, and the
# contents of the files the caller names (sources and the headers
# beside them).  Entries not used for 30 days are removed.  Writers
# move finished files in with mv, so parallel runs never see half an
# entry.
#
# cached_build OUT FILES... -- COMMAND...
#   Leave at OUT what `COMMAND... -o PATH` builds at PATH (the cached
#   copy when there is one); the compiler's output goes to OUT.log.
#   Status: the compiler's (0 on a cache hit).
# cached_tree OUT FILES... -- COMMAND...
#   The same for a command that builds OUT itself from "$1" = an output
#   path it must write (run as `COMMAND... PATH`), e.g. a CMake build.

if [ -z "${PTXEMU_BUILD_CACHE+set}" ]; then
    PTXEMU_BUILD_CACHE="$top_builddir/tests/build-cache"
fi
# absolute, so that builds run from another directory find it
if [ -n "$PTXEMU_BUILD_CACHE" ]; then
    PTXEMU_BUILD_CACHE=$(mkdir -p "$PTXEMU_BUILD_CACHE" 2>/dev/null &&
                         cd "$PTXEMU_BUILD_CACHE" && pwd) ||
        PTXEMU_BUILD_CACHE=
fi
if [ -n "$PTXEMU_BUILD_CACHE" ]; then
    find "$PTXEMU_BUILD_CACHE" -type f -mtime +30 -exec rm -f {} + \
        2>/dev/null
fi

# build_cache_key FILES... -- ARGS...: the entry name
build_cache_key() {
    {
        printf '%s\n' "${BUILD_CACHE_SALT:-}"
        while [ $# -gt 0 ] && [ "$1" != -- ]; do
            sha256sum <"$1"
            shift
        done
        printf '%s\n' "$@"
    } | sha256sum | cut -c1-40
}

_cached() {
    mode=$1 out=$2
    shift 2
    key=$(build_cache_key "$@")
    while [ "$1" != -- ]; do shift; done
    shift
    entry="$PTXEMU_BUILD_CACHE/$key"
    if [ -n "$PTXEMU_BUILD_CACHE" ] && [ -f "$entry" ]; then
        touch "$entry" 2>/dev/null
        cp "$entry" "$out" && : >"$out.log" && return 0
    fi
    rm -f "$out"
    if [ "$mode" = nvcc ]; then
        "$@" -o "$out" >"$out.log" 2>&1
    else
        "$@" "$out" >"$out.log" 2>&1
    fi
    st=$?
    if [ $st -eq 0 ] && [ -n "$PTXEMU_BUILD_CACHE" ] && [ -f "$out" ]; then
        cp "$out" "$entry.$$" && mv -f "$entry.$$" "$entry"
    fi
    return $st
}

cached_build() { _cached nvcc "$@"; }
cached_tree() { _cached tree "$@"; }
