# tests/fatbin/find_nvcc.sh: sourced by the fixture scripts: sets NVCC
# (the environment's, nvcc on PATH, or /usr/local/cuda/bin/nvcc), or
# exits 0 with a note when there is none (the committed fixtures stay).
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "$(basename "$0"): nvcc not found; fixtures left as committed"
        exit 0
    fi
fi
