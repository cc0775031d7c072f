/* The hard engine's compiled search core (a CPython extension, optional).
 *
 * Why C: the pure-Python engine searches ~12k nodes/s; the same ideas here run
 * some 50-100x faster, so the engine uses its clock to search deeper.
 *
 * Design (public knowledge, written for this project):
 * - a padded board (stride W) with, per empty cell and direction, a base-4 code
 *   of the ten cells around it (empty, black, white, wall), updated
 *   incrementally; a pair table maps a code to both colours' line shapes (the
 *   definitions of patterns.py: five, open four, four, three, ...);
 * - per cell and colour a combination class (five, open four / double four,
 *   four-three, double three, four, three) and values for ordering and the
 *   evaluation, all kept current by make/unmake;
 * - iterative-deepening PVS with a Zobrist transposition table, killer and
 *   history heuristics, graded late-move reductions, aspiration windows, forced
 *   replies (a five must be blocked, an open-four threat answered) and a VCF
 *   (victory by continuous fours) search at the leaves and at the root;
 * - a clock (wall or this process's CPU time, as the Python engine's) checked
 *   every few hundred nodes: a hard stop at the deadline.
 * Renju fouls are not implemented here: the Python side keeps renju games on
 * the pure-Python engine.  The GIL is released during the search; all state is
 * in one context per call, so threads may search at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>

#define MAXS 20
#define PAD 5
#define W (MAXS + 2 * PAD)
#define NCELL (W * W)
#define MAXPLY 128
#define WIN 1000000
#define WIN_MIN (WIN - 1000)
#define INF (WIN * 2)

enum { NONE, TWO_C, TWO, THREE_C, THREE, FOUR, OPEN4, FIVE, OVERLINE };
enum { K_NONE, K_THREE, K_FOUR, K_33, K_43, K_4O, K_FIVE, NCOMBO };

/* Our own VCT at the root: up to VCT_SHARE of the budget, VCT_THREES threes
 * deep, the VCT_WIDTH best threats tried at each step (every VCT search uses
 * that width). Against Rapfi at 1 s per move (bench_gomoku_engines.py) the
 * earlier 25% / 6 / 14 with two-ply reductions won 9 of 60 games; these with
 * graded reductions 44 of 210: most wins as black start from a VCT found early. */
#define VCT_SHARE 0.4
#define VCT_THREES 10
#define VCT_WIDTH 20

static const int DIRS[4] = {1, W, W + 1, W - 1};
static const int WEIGHT[9] = {0, 2, 8, 10, 40, 45, 300, 2000, 0};
static const int DEFENCE[9] = {0, 1, 6, 8, 30, 40, 250, 1500, 0};
static const int ATT_BONUS[NCOMBO] = {0, 0, 0, 700, 1500, 6000, 30000};
static const int DEF_BONUS[NCOMBO] = {0, 0, 0, 400, 900, 3000, 15000};

typedef struct {
    uint8_t k;
    int32_t w, att, def;
} Combo;

static const int POW9[4] = {1, 9, 81, 729};
static Combo COMBOS[6561];         /* a cell's 4 shapes (base 9) -> class, values */
static uint8_t shape3[2][59049];   /* [exact][base-3 key] -> shape */
static uint8_t *pairs[2];          /* [0 freestyle, 1 standard]: base-4 key -> b<<4|w */
static uint64_t zob[3][NCELL];
static atomic_flag shared_busy = ATOMIC_FLAG_INIT;
static uint64_t SIDE_KEY = 0x5DEECE66D2545F49ULL;
static int POW3[10];

/* ---- shape tables ------------------------------------------------------- */

static int shape_of(int exact, int key)
{
    uint8_t *memo = shape3[exact];
    if (memo[key] != 255)
        return memo[key];
    int dig[11];
    int k = key;
    for (int i = 0; i < 10; i++) {
        dig[i < 5 ? i : i + 1] = k % 3;
        k /= 3;
    }
    dig[5] = 1;
    int lo = 5, hi = 5;
    while (lo > 0 && dig[lo - 1] == 1)
        lo--;
    while (hi < 10 && dig[hi + 1] == 1)
        hi++;
    int run = hi - lo + 1, result;
    if (run >= 5) {
        result = (exact && run > 5) ? OVERLINE : FIVE;
    } else {
        int fives = 0, open4 = 0, four = 0, three = 0, three_c = 0;
        for (int i = 0; i < 10; i++) {
            if (dig[i < 5 ? i : i + 1] != 0)
                continue;
            int s = shape_of(exact, key + POW3[i]);
            fives += s == FIVE;
            open4 |= s == OPEN4;
            four |= s == FOUR;
            three |= s == THREE;
            three_c |= s == THREE_C;
        }
        if (fives >= 2) result = OPEN4;
        else if (fives == 1) result = FOUR;
        else if (open4) result = THREE;
        else if (four) result = THREE_C;
        else if (three) result = TWO;
        else if (three_c) result = TWO_C;
        else result = NONE;
    }
    memo[key] = (uint8_t)result;
    return result;
}

static inline int combo_of(const int *s)
{
    int n5 = 0, n4o = 0, n4 = 0, n3 = 0;
    for (int d = 0; d < 4; d++) {
        n5 += s[d] == FIVE;
        n4o += s[d] == OPEN4;
        n4 += s[d] == FOUR;
        n3 += s[d] == THREE;
    }
    if (n5) return K_FIVE;
    if (n4o || n4 >= 2) return K_4O;
    if (n4 && n3) return K_43;
    if (n3 >= 2) return K_33;
    if (n4) return K_FOUR;
    if (n3) return K_THREE;
    return K_NONE;
}

/* The pair table of rule r, digit by digit (base 4 in, base 3 for each colour). */
static void fill_pairs(uint8_t *t, int r, int i, int key4, int kb, int kw)
{
    static const int TO_B[4] = {0, 1, 2, 2}, TO_W[4] = {0, 2, 1, 2};
    if (i < 0) {
        t[key4] = (uint8_t)(shape3[r][kb] << 4 | shape3[r][kw]);
        return;
    }
    for (int d = 0; d < 4; d++)
        fill_pairs(t, r, i - 1, key4 | d << (2 * i), kb + TO_B[d] * POW3[i],
                   kw + TO_W[d] * POW3[i]);
}

/* Built on a rule's first search, with the GIL held (so once per process). */
static int ensure_pairs(int r)
{
    if (pairs[r])
        return 0;
    uint8_t *t = (uint8_t *)malloc(1 << 20);
    if (!t)
        return -1;
    fill_pairs(t, r, 9, 0, 0, 0);
    pairs[r] = t;
    return 0;
}

static int build_tables(void)
{
    POW3[0] = 1;
    for (int i = 1; i < 10; i++)
        POW3[i] = POW3[i - 1] * 3;
    memset(shape3, 255, sizeof shape3);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 59049; k++)
            shape_of(e, k);
    for (int code = 0; code < 6561; code++) {
        int sh[4], w = 0, dv = 0;
        for (int d = 0; d < 4; d++) {
            sh[d] = code / POW9[d] % 9;
            w += WEIGHT[sh[d]];
            dv += DEFENCE[sh[d]];
        }
        int k = combo_of(sh);
        COMBOS[code].k = (uint8_t)k;
        COMBOS[code].w = w;
        COMBOS[code].att = w + ATT_BONUS[k];
        COMBOS[code].def = dv + DEF_BONUS[k];
    }
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (int c = 0; c < 3; c++)
        for (int p = 0; p < NCELL; p++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            zob[c][p] = c ? s : 0;
        }
    return 0;
}

/* ---- the position ------------------------------------------------------- */

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t flag;
} TTEntry;

typedef struct {
    uint64_t key;
    int32_t depth;
} VcfEntry;

static TTEntry *shared_tt;
static VcfEntry *shared_vm;
static int shared_rule = -1;

#define TT_BITS 20
#define VCF_BITS 18
enum { EXACT, LOWER, UPPER };

typedef struct {
    int size, rule, cpu;
    uint8_t cell[NCELL];               /* 0 empty, 1 black, 2 white, 3 wall */
    uint32_t key[4][NCELL];
    uint8_t pv[4][NCELL];              /* pair-table value per direction */
    uint16_t code[3][NCELL];           /* the 4 shapes of a cell, base 9 */
    uint8_t combo[3][NCELL];
    int32_t att[3][NCELL], def[3][NCELL], val[3][NCELL];
    int32_t total[3];
    int ccount[3][NCOMBO];
    uint8_t near[NCELL];
    uint64_t hash;
    int stack[400], nstack;
    int board[MAXS * MAXS], nboard;
    const uint8_t *pairs;
    TTEntry *tt;
    VcfEntry *vm;
    int killers[MAXPLY][2];
    int32_t hist[3][NCELL];
    long long nodes;
    int stop, seldepth, shared;
    int root, exts; /* the side to move at the root; extensions on this path */
    double deadline;
} Ctx;

static double now(int cpu)
{
    struct timespec ts;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Cell q's class and values for colour col from its shape code (q empty),
 * keeping the sums and counts. */
static inline void set_code(Ctx *c, int col, int q, int code)
{
    const Combo *t = &COMBOS[code];
    c->code[col][q] = (uint16_t)code;
    c->ccount[col][c->combo[col][q]]--;
    c->ccount[col][t->k]++;
    c->combo[col][q] = t->k;
    c->total[col] += t->w - c->val[col][q];
    c->val[col][q] = t->w;
    c->att[col][q] = t->att;
    c->def[col][q] = t->def;
}

/* Read all four directions' shapes of empty cell q afresh. */
static void refresh(Ctx *c, int q)
{
    int cb = 0, cw = 0;
    for (int d = 0; d < 4; d++) {
        int v = c->pairs[c->key[d][q]];
        c->pv[d][q] = (uint8_t)v;
        cb += (v >> 4) * POW9[d];
        cw += (v & 15) * POW9[d];
    }
    set_code(c, 1, q, cb);
    set_code(c, 2, q, cw);
}

/* Direction d of empty cell q changed its code: update if its shapes did. */
static inline void refresh_dir(Ctx *c, int q, int d)
{
    int v = c->pairs[c->key[d][q]], o = c->pv[d][q];
    if (v == o)
        return;
    c->pv[d][q] = (uint8_t)v;
    if ((v ^ o) & 0xF0)
        set_code(c, 1, q, c->code[1][q] + ((v >> 4) - (o >> 4)) * POW9[d]);
    if ((v ^ o) & 0x0F)
        set_code(c, 2, q, c->code[2][q] + ((v & 15) - (o & 15)) * POW9[d]);
}

static void clear_cell(Ctx *c, int q)
{
    for (int col = 1; col <= 2; col++) {
        c->ccount[col][c->combo[col][q]]--;
        c->ccount[col][K_NONE]++;
        c->combo[col][q] = K_NONE;
        c->total[col] -= c->val[col][q];
        c->val[col][q] = c->att[col][q] = c->def[col][q] = 0;
    }
}

static void shift(Ctx *c, int p, int delta)
{
    for (int d = 0; d < 4; d++) {
        int step = DIRS[d];
        for (int k = 1; k <= 5; k++) {
            int q = p + k * step;
            if (c->cell[q] == 3)
                break;
            c->key[d][q] += (uint32_t)(delta * (1 << (2 * (5 - k))));
            if (!c->cell[q]) refresh_dir(c, q, d);
        }
        for (int k = 1; k <= 5; k++) {
            int q = p - k * step;
            if (c->cell[q] == 3)
                break;
            c->key[d][q] += (uint32_t)(delta * (1 << (2 * (k + 4))));
            if (!c->cell[q]) refresh_dir(c, q, d);
        }
    }
}

static void make(Ctx *c, int p, int col)
{
    clear_cell(c, p);
    c->cell[p] = (uint8_t)col;
    c->hash ^= zob[col][p];
    c->stack[c->nstack++] = p;
    shift(c, p, col);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            c->near[p + dy * W + dx]++;
}

static void unmake(Ctx *c)
{
    int p = c->stack[--c->nstack];
    int col = c->cell[p];
    c->cell[p] = 0;
    c->hash ^= zob[col][p];
    shift(c, p, -col);
    refresh(c, p);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            c->near[p + dy * W + dx]--;
}

static int ctx_init(Ctx *c, int size, int rule, int cpu)
{
    memset(c, 0, sizeof *c);
    c->size = size;
    c->rule = rule;
    c->cpu = cpu;
    c->pairs = pairs[rule];
    for (int p = 0; p < NCELL; p++)
        c->cell[p] = 3;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = (y + PAD) * W + x + PAD;
            c->cell[p] = 0;
            c->board[c->nboard++] = p;
        }
    c->ccount[1][K_NONE] = c->ccount[2][K_NONE] = NCELL;
    /* walls: a digit 3 for every off-board cell within reach */
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        for (int d = 0; d < 4; d++) {
            uint32_t key = 0;
            for (int k = 1; k <= 5; k++) {
                if (c->cell[p + k * DIRS[d]] == 3)
                    key += 3u << (2 * (k + 4));
                if (c->cell[p - k * DIRS[d]] == 3)
                    key += 3u << (2 * (5 - k));
            }
            c->key[d][p] = key;
        }
        refresh(c, p);
    }
    /* the process's tables, kept from one move to the next (positions recur two
     * plies later; entries are exact positions, so another game's do no harm);
     * a search that finds them in use by another thread gets fresh ones */
    if (!atomic_flag_test_and_set(&shared_busy)) {
        if (!shared_tt) {
            shared_tt = (TTEntry *)calloc((size_t)1 << TT_BITS, sizeof(TTEntry));
            shared_vm = (VcfEntry *)calloc((size_t)1 << VCF_BITS, sizeof(VcfEntry));
        }
        if (shared_tt && shared_vm && shared_rule == rule) {
            c->tt = shared_tt;
            c->vm = shared_vm;
            c->shared = 1;
            return 0;
        }
        if (shared_tt && shared_vm) {
            memset(shared_tt, 0, sizeof(TTEntry) << TT_BITS);
            memset(shared_vm, 0, sizeof(VcfEntry) << VCF_BITS);
            shared_rule = rule;
            c->tt = shared_tt;
            c->vm = shared_vm;
            c->shared = 1;
            return 0;
        }
        atomic_flag_clear(&shared_busy);
    }
    c->tt = (TTEntry *)calloc((size_t)1 << TT_BITS, sizeof(TTEntry));
    c->vm = (VcfEntry *)calloc((size_t)1 << VCF_BITS, sizeof(VcfEntry));
    return (c->tt && c->vm) ? 0 : -1;
}

static void ctx_free(Ctx *c)
{
    if (c->shared) {
        atomic_flag_clear(&shared_busy);
        return;
    }
    free(c->tt);
    free(c->vm);
}

static inline int time_up(Ctx *c)
{
    if (c->stop)
        return 1;
    if ((++c->nodes & 255) == 0 && now(c->cpu) > c->deadline)
        c->stop = 1;
    return c->stop;
}

/* The one cell where col would make five (call only when ccount says one+). */
static int find_combo(Ctx *c, int col, int k)
{
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        if (c->combo[col][p] == k)
            return p;
    }
    return -1;
}

static inline int has_four(Ctx *c, int col, int p)
{
    int k = c->combo[col][p];
    return k == K_FOUR || k == K_43 || k == K_4O;
}

/* Insert move p with score s into a best-first list (out, sc) of n entries
 * holding at most cap: the new n. Every move list of the search is built so. */
static inline int add_ranked(int *out, int *sc, int n, int cap, int p, int s)
{
    if (n == cap && sc[n - 1] >= s)
        return n;
    int j = n < cap ? n++ : n - 1;
    while (j > 0 && sc[j - 1] < s) {
        sc[j] = sc[j - 1];
        out[j] = out[j - 1];
        j--;
    }
    sc[j] = s;
    out[j] = p;
    return n;
}

/* ---- VCF ---------------------------------------------------------------- */

static int vcf_moves(Ctx *c, int me, int *out)
{
    int op = 3 - me, n = 0;
    if (c->ccount[op][K_FIVE] > 1)
        return 0;
    if (c->ccount[op][K_FIVE] == 1) {
        int b = find_combo(c, op, K_FIVE);
        if (has_four(c, me, b))
            out[n++] = b;
        return n;
    }
    int sc[MAXS * MAXS];
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        if (has_four(c, me, p))
            n = add_ranked(out, sc, n, MAXS * MAXS, p, c->att[me][p]);
    }
    return n;
}

/* A win by fours for `me` (to move): the number of plies of the line written
 * to `line` (may be NULL), 0 if none within `depth` fours. */
static int vcf(Ctx *c, int me, int depth, int *line)
{
    if (time_up(c) || depth <= 0)
        return 0;
    if (c->ccount[me][K_FIVE]) {
        if (line) line[0] = find_combo(c, me, K_FIVE);
        return 1;
    }
    uint64_t key = c->hash ^ (me == 2 ? SIDE_KEY : 0) ^ 0xABCDEF12345ULL;
    VcfEntry *e = &c->vm[key & ((1u << VCF_BITS) - 1)];
    if (e->key == key && e->depth >= depth)
        return 0;
    int moves[MAXS * MAXS];
    int n = vcf_moves(c, me, moves), op = 3 - me;
    for (int i = 0; i < n; i++) {
        int a = moves[i];
        if (c->combo[me][a] == K_4O) {
            if (line) line[0] = a;
            return 1;
        }
        make(c, a, me);
        int fives = c->ccount[me][K_FIVE], found = 0;
        if (fives >= 2) {
            found = 1;
        } else if (fives == 1) {
            int b = find_combo(c, me, K_FIVE);
            make(c, b, op);
            int r = vcf(c, me, depth - 1, line ? line + 2 : NULL);
            unmake(c);
            if (r) {
                found = r + 2;
                if (line) line[1] = b;
            }
        }
        unmake(c);
        if (c->stop)
            return 0;
        if (found) {
            if (line) line[0] = a;
            return found;
        }
    }
    e->key = key;
    e->depth = depth;
    return 0;
}


/* ---- VCT (threes and fours) ------------------------------------------------ */

static int vct(Ctx *c, int me, int depth, int fours, int *line);

/* me threatens an open four (or a double four); op is to move. Can op meet it
 * with a block (a point where me would make four) or a counter-four? A
 * counter-four forces our block; then op is asked again if we still threaten. */
static int refuted(Ctx *c, int me, int depth, int fours, int level)
{
    int op = 3 - me;
    int cand[MAXS * MAXS], sc[MAXS * MAXS], n = 0;
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        if (c->cell[p] || !(has_four(c, me, p) || has_four(c, op, p)))
            continue;
        n = add_ranked(cand, sc, n, MAXS * MAXS, p, c->att[me][p] + c->att[op][p]);
    }
    for (int i = 0; i < n; i++) {
        int d = cand[i], ok = 0;
        make(c, d, op);
        if (c->ccount[op][K_FIVE]) {
            if (c->ccount[op][K_FIVE] > 1) {
                ok = 1;
            } else {
                make(c, find_combo(c, op, K_FIVE), me);
                if (c->ccount[me][K_FIVE] > 1) {
                    ok = 0; /* our block made an open four or two fours: a win */
                } else if (c->ccount[me][K_FIVE]) {
                    /* our block made a four: op takes its point, and what is left
                     * of our attack must still win (that block may have broken it) */
                    make(c, find_combo(c, me, K_FIVE), op);
                    ok = !vct(c, me, depth - 1, fours, NULL);
                    unmake(c);
                } else if (c->ccount[me][K_4O] && level < 4)
                    ok = refuted(c, me, depth, fours, level + 1);
                else
                    ok = !c->ccount[me][K_4O];
                unmake(c);
            }
        } else {
            ok = !vct(c, me, depth - 1, fours, NULL);
        }
        unmake(c);
        if (c->stop)
            return 1;
        if (ok)
            return 1;
    }
    return 0;
}

/* A win by threes and fours for `me` (to move) with at most `depth` threes and
 * `fours` fours: the plies of its first moves in `line` (may be NULL), 0 if none. */
static int vct(Ctx *c, int me, int depth, int fours, int *line)
{
    int op = 3 - me;
    if (time_up(c))
        return 0;
    if (c->ccount[me][K_FIVE] || (!c->ccount[op][K_FIVE] && c->ccount[me][K_4O]))
        return vcf(c, me, 2, line);
    int r = vcf(c, me, 12, line);
    if (r || c->stop)
        return r;
    if (depth <= 0 || c->ccount[op][K_FIVE] || c->ccount[op][K_4O])
        return 0;
    uint64_t key = c->hash ^ (me == 2 ? SIDE_KEY : 0) ^ 0x5A5A5A5A12345ULL;
    VcfEntry *e = &c->vm[key & ((1u << VCF_BITS) - 1)];
    int code = depth * 64 + fours;
    if (e->key == key && e->depth >= code)
        return 0;
    int moves[MAXS * MAXS], sc[MAXS * MAXS], n = 0;
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        int k = c->combo[me][p];
        if (c->cell[p] || k < K_THREE || (k == K_FOUR && fours <= 0))
            continue;
        n = add_ranked(moves, sc, n, VCT_WIDTH, p, c->att[me][p] + c->def[op][p]);
    }
    for (int i = 0; i < n && !c->stop; i++) {
        int a = moves[i], found = 0;
        make(c, a, me);
        int fives = c->ccount[me][K_FIVE];
        if (fives == 1) {
            if (fours > 0) {
                int b = find_combo(c, me, K_FIVE);
                make(c, b, op);
                int rest = vct(c, me, depth, fours - 1, line ? line + 2 : NULL);
                unmake(c);
                if (rest) {
                    found = rest + 2;
                    if (line) line[1] = b;
                }
            }
        } else if (fives >= 2) {
            found = 1;
        } else if (c->ccount[me][K_4O] && !refuted(c, me, depth, fours, 0)) {
            found = 1;
        }
        unmake(c);
        if (found && !c->stop) {
            if (line) line[0] = a;
            return found;
        }
    }
    if (!c->stop) {
        e->key = key;
        e->depth = code;
    }
    return 0;
}

/* ---- move generation and evaluation -------------------------------------- */

/* Moves of `me` by attack + defence value, best first; at most `width`
 * (all of them when the opponent threatens an open four: only blocks and
 * our fours are listed then). */
static int gen_moves(Ctx *c, int me, int *out, int width, int ply)
{
    int op = 3 - me, n = 0;
    int sc[MAXS * MAXS];
    int restrict_ = c->ccount[op][K_4O] > 0; /* op threatens an open four */
    int cap = restrict_ ? MAXS * MAXS : width;
    int k0 = ply < MAXPLY ? c->killers[ply][0] : -1, k1 = ply < MAXPLY ? c->killers[ply][1] : -1;
    for (int i = 0; i < c->nboard; i++) {
        int p = c->board[i];
        if (c->cell[p] || !c->near[p])
            continue;
        if (restrict_ && !has_four(c, op, p) && !has_four(c, me, p))
            continue;
        int s = c->att[me][p] + c->def[op][p] + (c->hist[me][p] >> 4);
        if (p == k0 || p == k1)
            s += 300;
        n = add_ranked(out, sc, n, cap, p, s);
    }
    return n;
}

/* The side to move's shape values count OWN_PERMILLE/1000 of the opponent's:
 * it plays first, so its shapes are a tempo ahead. Against Rapfi as black at
 * 0.4-0.5 s per move (bench_gomoku_engines.py --colour black) 1.2 won 24 of 60
 * games where the even sum won 13 of 60 in the same session (1.3: 18 of 45); at
 * 1 s the two were even (26 and 24 of 60). */
#define OWN_PERMILLE 1200

static int evaluate(Ctx *c, int me)
{
    int op = 3 - me;
    long long own = (long long)c->total[me] * OWN_PERMILLE, other = (long long)c->total[op] * 1000;
    int s = (int)((own - other) / 1000) + 20;
    if (c->ccount[me][K_43] || c->ccount[me][K_33])
        s += 1200;
    int theirs = c->ccount[op][K_43] + c->ccount[op][K_33];
    if (theirs)
        s -= theirs == 1 ? 300 : 1200;
    if (c->ccount[op][K_4O])
        s -= 600;
    return s;
}

static inline int is_threat(Ctx *c, int me, int p)
{
    return c->combo[me][p] >= K_THREE || c->combo[3 - me][p] >= K_43;
}

/* ---- PVS ------------------------------------------------------------------ */

static int pvs(Ctx *c, int me, int depth, int alpha, int beta, int ply);

/* One node of the search (`pvs` decides its depth). */
static int pvs_node(Ctx *c, int me, int depth, int alpha, int beta, int ply)
{
    int op = 3 - me;
    if (time_up(c))
        return 0;
    if (ply > c->seldepth)
        c->seldepth = ply;
    if (c->ccount[me][K_FIVE])
        return WIN - ply;
    int forced = -1;
    if (c->ccount[op][K_FIVE]) {
        if (c->ccount[op][K_FIVE] > 1)
            return -(WIN - ply - 1);
        forced = find_combo(c, op, K_FIVE);
        if (ply < 60)
            depth++; /* a single forced reply costs no depth */
    } else if (c->ccount[me][K_4O]) {
        return WIN - ply - 2;
    }
    if (ply >= MAXPLY - 2)
        return evaluate(c, me);
    if (depth <= 0) {
        if (forced < 0 && (c->ccount[me][K_FOUR] || c->ccount[me][K_43])) {
            int r = vcf(c, me, 10, NULL);
            if (r)
                return WIN - ply - r;
        }
        return evaluate(c, me);
    }
    uint64_t key = c->hash ^ (me == 2 ? SIDE_KEY : 0);
    TTEntry *e = &c->tt[key & ((1u << TT_BITS) - 1)];
    int tt_move = -1;
    if (e->key == key) {
        tt_move = e->move;
        int sc = e->score;
        if (sc > WIN_MIN) sc -= ply;
        else if (sc < -WIN_MIN) sc += ply;
        if (e->depth >= depth) {
            if (e->flag == EXACT || (e->flag == LOWER && sc >= beta) ||
                (e->flag == UPPER && sc <= alpha))
                return sc;
        }
    }
    int moves[MAXS * MAXS], n;
    if (forced >= 0) {
        moves[0] = forced;
        n = 1;
    } else {
        n = gen_moves(c, me, moves, ply < 2 ? 20 : ply < 6 ? 14 : 10, ply);
        if (n == 0)
            return c->ccount[op][K_4O] ? -(WIN - ply - 3) : 0;
    }
    if (tt_move >= 0) {
        for (int i = 1; i < n; i++)
            if (moves[i] == tt_move) {
                memmove(moves + 1, moves, (size_t)i * sizeof(int));
                moves[0] = tt_move;
                break;
            }
    }
    int best = -INF, best_move = moves[0], a0 = alpha;
    for (int i = 0; i < n; i++) {
        int p = moves[i], score;
        int quiet = !is_threat(c, me, p);
        make(c, p, me);
        if (i == 0) {
            score = -pvs(c, op, depth - 1, -beta, -alpha, ply + 1);
        } else {
            /* late quiet moves: a shallower look first, a full one if it beats alpha */
            int red = 0;
            if (quiet && depth >= 3 && i >= 3) {
                red = 1 + (i >= 7) + (depth >= 6 && i >= 10);
                if (red > depth - 2)
                    red = depth - 2; /* at least one ply is left to search */
            }
            score = -pvs(c, op, depth - 1 - red, -alpha - 1, -alpha, ply + 1);
            if (score > alpha && red)
                score = -pvs(c, op, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (score > alpha && score < beta)
                score = -pvs(c, op, depth - 1, -beta, -alpha, ply + 1);
        }
        unmake(c);
        if (c->stop)
            return 0;
        if (score > best) {
            best = score;
            best_move = p;
        }
        if (score > alpha)
            alpha = score;
        if (alpha >= beta) {
            if (ply < MAXPLY && c->killers[ply][0] != p) {
                c->killers[ply][1] = c->killers[ply][0];
                c->killers[ply][0] = p;
            }
            c->hist[me][p] += depth * depth;
            break;
        }
    }
    int st = best;
    if (st > WIN_MIN) st += ply;
    else if (st < -WIN_MIN) st -= ply;
    e->key = key;
    e->score = st;
    e->move = (int16_t)best_move;
    e->depth = (int8_t)depth;
    e->flag = best <= a0 ? UPPER : (best >= beta ? LOWER : EXACT);
    return best;
}

/* When the engine plays black, a node within EXT_LEAF plies of the horizon
 * whose opponent has an open three gets one more ply, at most EXT_MAX on a
 * path: the horizon otherwise falls between the three and the open four it
 * threatens, and the three is only scored statically. Against Rapfi at 1 s
 * per move, wall clock, one game at a time, black's games only
 * (bench_gomoku_engines.py --colour black --jobs 1 --clock wall), runs
 * interleaved: 7, 8 and 4 of 15 won with it, 4, 6 and 6 without. Not as
 * white: there it cost the defence (the threat-space searcher, as black, won
 * 1 to 3 of 15 games where it won none without it). */
#define EXT_MAX 2
#define EXT_LEAF 1

static int pvs(Ctx *c, int me, int depth, int alpha, int beta, int ply)
{
    int op = 3 - me;
    int ext = c->root == 1 && c->exts < EXT_MAX && depth <= EXT_LEAF &&
              c->ccount[op][K_4O] && !c->ccount[op][K_FIVE] &&
              !c->ccount[me][K_FIVE] && !c->ccount[me][K_4O];
    c->exts += ext;
    int r = pvs_node(c, me, depth + ext, alpha, beta, ply);
    c->exts -= ext;
    return r;
}

typedef struct {
    int move, score, depth;
    long long nodes;
    const char *reason;
} Result;

/* Does op win after our move p: by fours (vct_depth 0) or by threes and fours
 * (up to vct_depth threes)? Our four forces its block first, and then op is
 * asked as if it moved again: a four only defends if it breaks op's line. */
static int op_wins_after(Ctx *c, int me, int p, int vct_depth)
{
    int op = 3 - me, made = 1, r;
    make(c, p, me);
    if (c->ccount[me][K_FIVE] >= 2) {
        r = 0;
    } else {
        if (c->ccount[me][K_FIVE] == 1) {
            make(c, find_combo(c, me, K_FIVE), op);
            made = 2;
        }
        r = vct_depth ? vct(c, op, vct_depth, 8, NULL) != 0 : vcf(c, op, 20, NULL) != 0;
    }
    while (made--)
        unmake(c);
    return r;
}

/* Keep those of `moves` after which op has no win of that kind (all, if none). */
static int refuters(Ctx *c, int me, int *moves, int n, int vct_depth)
{
    int keep[MAXS * MAXS], k = 0;
    for (int i = 0; i < n && !c->stop; i++)
        if (!op_wins_after(c, me, moves[i], vct_depth))
            keep[k++] = moves[i];
    if (c->stop || k == 0)
        return n;
    memcpy(moves, keep, (size_t)k * sizeof(int));
    return k;
}

static void search_root(Ctx *c, int me, double budget, Result *res)
{
    int op = 3 - me;
    c->root = me;
    c->exts = 0;
    double start = now(c->cpu);
    c->deadline = start + budget;
    res->depth = 0;
    res->score = 0;
    res->reason = "search";
    if (c->nstack == 0) {
        int mid = c->size / 2;
        res->move = (mid + PAD) * W + mid + PAD;
        res->reason = "opening";
        return;
    }
    if (c->ccount[me][K_FIVE]) {
        res->move = find_combo(c, me, K_FIVE);
        res->reason = "five";
        return;
    }
    if (c->ccount[op][K_FIVE]) {
        res->move = find_combo(c, op, K_FIVE);
        res->reason = "block-four";
        return;
    }
    if (c->ccount[me][K_4O]) {
        res->move = find_combo(c, me, K_4O);
        res->reason = "open-four";
        return;
    }
    int line[256];
    c->deadline = start + budget * 0.15;
    if (vcf(c, me, 40, line)) {
        res->move = line[0];
        res->reason = "vcf";
        return;
    }
    c->stop = 0;
    int moves[MAXS * MAXS], n = gen_moves(c, me, moves, 40, 0);
    if (n == 0) {
        for (int i = 0; i < c->nboard; i++)
            if (!c->cell[c->board[i]]) {
                res->move = c->board[i];
                return;
            }
    }
    res->move = moves[0];
    /* our VCT, played when the opponent has no VCF after its first move */
    c->deadline = start + budget * VCT_SHARE;
    for (int d = 1; d <= VCT_THREES && !c->stop; d++) {
        if (vct(c, me, d, 8, line) && !c->stop) {
            if (!op_wins_after(c, me, line[0], 0) && !c->stop) {
                res->move = line[0];
                res->reason = "vct";
                return;
            }
            break;
        }
    }
    c->stop = 0;
    /* the opponent's VCF, else its VCT, if it moved now: keep only moves that refute it */
    c->deadline = start + budget * 0.5;
    if (vcf(c, op, 40, NULL)) {
        n = gen_moves(c, me, moves, 60, 0);
        n = refuters(c, me, moves, n, 0);
        res->reason = "defence";
    } else {
        for (int d = 1; d <= 4 && !c->stop; d++) {
            if (vct(c, op, d, 8, NULL) && !c->stop) {
                int m = gen_moves(c, me, moves, 40, 0);
                int k = refuters(c, me, moves, m, d);
                n = k;
                if (k < m)
                    res->reason = "defence";
                break;
            }
        }
    }
    res->move = moves[0];
    c->stop = 0;
    c->deadline = start + budget;
    if (n == 1) {
        res->reason = "only-move";
        return;
    }
    int best_move = moves[0], best_score = 0;
    int scores[MAXS * MAXS];
    for (int depth = 1; depth < MAXPLY - 8; depth++) {
        int alpha = -INF, beta = INF, it_best = -1, it_score = -INF;
        int window = depth >= 4 && abs(best_score) < WIN_MIN ? 120 : 0;
        if (window) {
            alpha = best_score - window;
            beta = best_score + window;
        }
        int a_lo = alpha, searched = 0;
        for (int i = 0; i < n; i++) {
            int p = moves[i], score;
            make(c, p, me);
            if (i == 0) {
                score = -pvs(c, op, depth - 1, -beta, -alpha, 1);
                if (!c->stop && window && (score <= a_lo || score >= beta)) {
                    alpha = -INF;
                    beta = INF;
                    score = -pvs(c, op, depth - 1, -beta, -alpha, 1);
                }
            } else {
                score = -pvs(c, op, depth - 1, -alpha - 1, -alpha, 1);
                if (!c->stop && score > alpha) {
                    int b2 = score >= beta ? INF : beta;
                    score = -pvs(c, op, depth - 1, -b2, -alpha, 1);
                    if (!c->stop && score >= beta) {
                        beta = INF;
                    }
                }
            }
            unmake(c);
            if (c->stop)
                break;
            searched++;
            scores[i] = score;
            if (score > it_score) {
                it_score = score;
                it_best = p;
            }
            if (score > alpha)
                alpha = score;
        }
        if (c->stop) {
            if (searched > 1 && it_best != moves[0] && it_score > best_score) {
                best_move = it_best;
                best_score = it_score;
            }
            break;
        }
        best_move = it_best;
        best_score = it_score;
        res->depth = depth;
        /* the best first, the rest in their order (stable) */
        for (int i = 0; i < n; i++)
            if (moves[i] == it_best) {
                memmove(moves + 1, moves, (size_t)i * sizeof(int));
                moves[0] = it_best;
                break;
            }
        (void)scores;
        if (abs(best_score) >= WIN_MIN)
            break;
    }
    res->move = best_move;
    res->score = best_score;
}

/* ---- Python interface ------------------------------------------------------ */

static PyObject *core_search(PyObject *self, PyObject *args)
{
    int size, rule, me, cpu;
    PyObject *stones;
    double budget;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiOidp", &size, &rule, &stones, &me, &budget, &cpu))
        return NULL;
    if (size < 5 || size > MAXS || rule < 0 || rule > 1 || me < 1 || me > 2) {
        PyErr_SetString(PyExc_ValueError, "size 5..20, rule 0 or 1, side 1 or 2");
        return NULL;
    }
    if (ensure_pairs(rule) < 0)
        return PyErr_NoMemory();
    Ctx *c = (Ctx *)malloc(sizeof(Ctx));
    if (!c || ctx_init(c, size, rule, cpu) < 0) {
        if (c) ctx_free(c);
        free(c);
        return PyErr_NoMemory();
    }
    PyObject *seq = PySequence_Fast(stones, "stones: a sequence of (x, y, colour)");
    if (!seq)
        goto fail;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < m; i++) {
        int x, y, col;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iii", &x, &y, &col)) {
            Py_DECREF(seq);
            goto fail;
        }
        int p = (y + PAD) * W + x + PAD;
        if (x < 0 || y < 0 || x >= size || y >= size || (col != 1 && col != 2) || c->cell[p]) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "stones must be distinct points with colour 1 or 2");
            goto fail;
        }
        make(c, p, col);
    }
    Py_DECREF(seq);
    if (c->nstack >= size * size) {
        PyErr_SetString(PyExc_ValueError, "the board is full");
        goto fail;
    }
    Result res;
    memset(&res, 0, sizeof res);
    Py_BEGIN_ALLOW_THREADS
    search_root(c, me, budget, &res);
    Py_END_ALLOW_THREADS
    int x = res.move % W - PAD, y = res.move / W - PAD;
    PyObject *out = Py_BuildValue("(iiiiLs)", x, y, res.score, res.depth, c->nodes, res.reason);
    ctx_free(c);
    free(c);
    return out;
fail:
    ctx_free(c);
    free(c);
    return NULL;
}

static PyMethodDef methods[] = {
    {"search", core_search, METH_VARARGS,
     "search(size, rule, stones, to_move, budget, cpu_clock) -> (x, y, score, depth, nodes, reason)\n"
     "rule 0 freestyle, 1 standard (exact five); stones (x, y, colour 1 black / 2 white)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "The hard Gomoku engine's compiled search core.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (build_tables() < 0)
        return PyErr_NoMemory();
    return PyModule_Create(&module);
}
