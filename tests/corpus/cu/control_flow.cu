// Control flow: divergent if/else chains, loops with break/continue, early
// returns, nested loops with data-dependent trip counts, goto-based state
// machines, short-circuit logic and selects.
// regen: -lineinfo
extern "C" __global__ void divergent_branches(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;                        // early return
    int v = a[i];
    int r;
    if (v < 0) {
        r = -v * 3;
    } else if (v == 0) {
        r = 100;
    } else if (v < 10) {
        r = v * v;
        if (threadIdx.x & 1)
            r += 7;
        else
            r -= 7;
    } else {
        r = v / 3;
    }
    if ((v > 5 && i % 3 == 0) || (v < -5 && i % 5 == 0))
        r ^= 0x5a5a;
    out[i] = r;
}

extern "C" __global__ void loops_break_continue(const int *a, int *out, int n, int limit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int sum = 0;
    for (int k = 0; k < n; k++) {
        int v = a[(i + k) % n];
        if (v == 0)
            continue;            // skip zeros
        if (v < 0)
            break;               // stop on first negative
        sum += v;
        if (sum > limit)
            break;
    }
    int steps = 0;
    unsigned x = (unsigned)a[i] | 1u;
    while (x != 1 && steps < 1000) {   // Collatz, data-dependent trip count
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    }
    int d = 0;
    do {
        d += 2;
    } while (d < (a[i] & 15));
    out[i] = sum + steps * 1000 + d;
}

extern "C" __global__ void nested_loops(const float *m, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float best = -1e30f;
    int bestc = -1;
    for (int c = 0; c < cols; c++) {
        float acc = 0.0f;
        for (int k = 0; k <= c; k++) {
            float v = m[r * cols + k];
            if (v != v)          // NaN: abandon this column
                goto next_col;
            acc += v * (float)(c - k + 1);
        }
        if (acc > best) {
            best = acc;
            bestc = c;
        }
    next_col:;
    }
    out[r] = best + (float)bestc;
}

// A small state machine written with goto
extern "C" __global__ void goto_state_machine(const unsigned char *text, int len, int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int pos = i;
    int words = 0, digits = 0;
    unsigned char ch;
start:
    if (pos >= len)
        goto done;
    ch = text[pos++];
    if (ch >= '0' && ch <= '9')
        goto in_number;
    if (ch == ' ')
        goto start;
    goto in_word;
in_word:
    words++;
    while (pos < len && text[pos] != ' ')
        pos++;
    goto start;
in_number:
    digits++;
    if (pos < len && text[pos] >= '0' && text[pos] <= '9') {
        pos++;
        goto in_number;
    }
    goto start;
done:
    counts[2 * i] = words;
    counts[2 * i + 1] = digits;
}

// Predication / select friendly code and uniform branches
extern "C" __global__ void selects(const float *a, const float *b, float *out, int n, int mode)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float r = x > y ? x - y : y - x;
    r = (mode == 1) ? r * 2.0f : r;        // uniform (kernel param) branch
    r = (x < 0.0f) != (y < 0.0f) ? -r : r;
    bool p = (x == y) ^ (mode > 3);
    out[i] = p ? 0.0f : r;
}
