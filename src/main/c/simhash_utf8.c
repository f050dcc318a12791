/*
 * The simhash of a UTF-8 HTML page, the same 64 bits as org.forager.dedup.SimHash.ofHtml computes in
 * Java (Utf8Html): the words of the text outside markup, comments, script and style, each the FNV-1a
 * hash of its lower-cased letters and digits (UTF-16 chars, as Java decodes them), shingles of three
 * consecutive words mixed by SplitMix64's finalizer, and per bit the majority of the shingles. Built by
 * bin/native-libraries and called through JNA by org.forager.dedup.NativeSimHash, which checks it
 * against the Java reading before using it and gives it the letters' table (Java's own
 * Character.isLetterOrDigit and toLowerCase for every BMP char, so the two cannot disagree on Unicode).
 *
 * Why native: the simhash was about 12 % of a crawl's CPU (docs/benchmarks.md, session 50), spent on a
 * few instructions a byte and a hash a word. Here the page's bytes are classified once into two bitmaps
 * (letters and digits; '<', '&' and non-ASCII bytes), 64 bytes an AVX-512 instruction where the CPU
 * has it; words are runs of bits, found by bit scans; their hashes are computed side by side in vector
 * lanes, and the shingles' bits counted bit-sliced. No warm-up of the JIT either.
 *
 * Memory: the page is only read, at page[-16, n + 128): the caller puts 16 zero bytes before it and 128
 * after it. Nothing is written but the result, the caller's scratch words (two bits per byte of the
 * page) and this function's own stack (about 24 KB).
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define BLOCK 512 /* words hashed together */
#define WIDTH 8   /* the bytes a word's hash is computed from at once: its last 8 */
#define SPAN 64   /* the bytes classified at once */

typedef struct {
  const uint8_t *b;
  int64_t n;
  const uint16_t *lower; /* per BMP char: its lower case if a letter or digit, else 0 */
  const uint64_t *letter_bits; /* per byte of the page, a bit: an ASCII letter or digit */
  const uint64_t *stop_bits;   /* per byte, a bit: '<', '&' or a non-ASCII byte */
  /* Words noted, hashed at a flush: their seeds, then their last 8 bytes. */
  uint64_t hash[BLOCK];
  uint64_t hi[BLOCK];
  int count;
  /* Words given by their hash (read char by char): where they are in the block, and the hash. */
  int given_at[BLOCK];
  uint64_t given[BLOCK];
  int givens;
  /* Shingles: the last two words of the block before, then this block's. */
  uint64_t words[BLOCK + 2];
  int buffered;
  uint64_t total;
  uint64_t features[BLOCK];
  /* Votes, bit-sliced: plane j holds bit j of all 64 counters. */
  uint64_t planes[64];
  uint64_t voted;
} reading;

static uint64_t seeds[WIDTH + 1];   /* per length: the basis times the prime's inverse per zero byte */
static uint64_t hi_masks[WIDTH + 1]; /* per length: the bytes of the last 8 that hold the word */

/* Run once as the library loads, before any call. */
__attribute__((constructor)) static void make_tables(void) {
  uint64_t inverse = FNV_PRIME; /* Newton's iteration: odd * x = 1 mod 2^64 */
  for (int round = 0; round < 6; round++) inverse *= 2 - FNV_PRIME * inverse;
  uint64_t seed = FNV_BASIS;
  for (int len = WIDTH; len >= 1; len--) {
    seeds[len] = seed;
    seed *= inverse;
    hi_masks[len] = len == 8 ? ~0ULL : ~0ULL << (8 * (8 - len));
  }
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* The lower case of the ASCII letter or digit c, else 0. */
static inline uint32_t ascii_lower(const reading *r, uint8_t c) {
  return r->lower[c];
}

static inline int continuation(uint8_t c) {
  return (c & 0xC0) == 0x80;
}

/*
 * The lower case of the letter or digit the multi-byte sequence at i encodes, else 0: a valid two- or
 * three-byte sequence is its BMP char; four-byte sequences (surrogates in Java, no letters) and
 * malformed bytes (U+FFFD) are none.
 */
static inline uint32_t nonascii_lower(const reading *r, int64_t i) {
  const uint8_t *b = r->b;
  uint32_t lead = b[i];
  if ((lead & 0xE0) == 0xC0) {
    if (i + 1 >= r->n || !continuation(b[i + 1])) return 0;
    uint32_t c = (lead & 0x1F) << 6 | (b[i + 1] & 0x3F);
    return c < 0x80 ? 0 : r->lower[c]; /* C0 and C1: overlong */
  }
  if (lead < 0xE0 || lead > 0xEF || i + 2 >= r->n || !continuation(b[i + 1]) || !continuation(b[i + 2])) return 0;
  uint32_t second = b[i + 1];
  if (lead == 0xE0 && second < 0xA0) return 0; /* overlong */
  if (lead == 0xED && second > 0x9F) return 0; /* a surrogate */
  return r->lower[(lead & 0x0F) << 12 | (second & 0x3F) << 6 | (b[i + 2] & 0x3F)];
}

/* The length of the sequence a letter or digit starts with. */
static inline int width(uint8_t lead) {
  return lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : 3;
}

static inline int is_word_char(const reading *r, int64_t i) {
  uint8_t c = r->b[i];
  return c < 0x80 ? ascii_lower(r, c) != 0 : nonascii_lower(r, i) != 0;
}

/* SplitMix64's finalizer. */
static inline uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static inline uint64_t sum3(uint64_t a, uint64_t b, uint64_t c) {
  return a ^ b ^ c;
}

static inline uint64_t carry3(uint64_t a, uint64_t b, uint64_t c) {
  return (a & b) | (c & (a ^ b));
}

/* Adds bits, each worth 2^plane, rippling the carry up. */
static inline void ripple(reading *r, uint64_t carry, int plane) {
  for (int j = plane; carry != 0 && j < 64; j++) {
    uint64_t overflow = r->planes[j] & carry;
    r->planes[j] ^= carry;
    carry = overflow;
  }
}

/* Adds eight values worth 2^p to planes p..p+2 by carry-save adders; returns the carry worth 2^(p+3). */
static inline uint64_t add_eight(reading *r, int p, const uint64_t *f) {
  uint64_t ones = r->planes[p], twos = r->planes[p + 1], fours = r->planes[p + 2];
  uint64_t twos_a = carry3(ones, f[0], f[1]);
  ones = sum3(ones, f[0], f[1]);
  uint64_t twos_b = carry3(ones, f[2], f[3]);
  ones = sum3(ones, f[2], f[3]);
  uint64_t fours_a = carry3(twos, twos_a, twos_b);
  twos = sum3(twos, twos_a, twos_b);
  twos_a = carry3(ones, f[4], f[5]);
  ones = sum3(ones, f[4], f[5]);
  twos_b = carry3(ones, f[6], f[7]);
  ones = sum3(ones, f[6], f[7]);
  uint64_t fours_b = carry3(twos, twos_a, twos_b);
  twos = sum3(twos, twos_a, twos_b);
  r->planes[p] = ones;
  r->planes[p + 1] = twos;
  r->planes[p + 2] = sum3(fours, fours_a, fours_b);
  return carry3(fours, fours_a, fours_b);
}

static void vote(reading *r, const uint64_t *f, int count) {
  int k = 0;
  for (; k + 64 <= count; k += 64) {
    uint64_t carries[8];
    for (int g = 0; g < 8; g++) carries[g] = add_eight(r, 0, f + k + 8 * g);
    ripple(r, add_eight(r, 3, carries), 6);
  }
  for (; k + 8 <= count; k += 8) ripple(r, add_eight(r, 0, f + k), 3);
  for (; k < count; k++) ripple(r, f[k], 0);
  r->voted += count;
}

/* Bit b is set when more than half of the shingles have it set. */
static uint64_t majority(const reading *r) {
  uint64_t half = r->voted / 2;
  uint64_t above = 0, equal = ~0ULL;
  for (int j = 63; j >= 0; j--) {
    if ((half >> j & 1) == 0) {
      above |= equal & r->planes[j];
      equal &= ~r->planes[j];
    } else {
      equal &= r->planes[j];
    }
  }
  return above;
}

/* The features of count shingles: each run of three words, its hashes summed with two weights and mixed. */
__attribute__((target_clones("arch=x86-64-v4", "default")))
static void shingle_features(const uint64_t *restrict words, uint64_t *restrict features, int count) {
  for (int k = 0; k < count; k++) {
    features[k] = mix(words[k] * 0x9E3779B97F4A7C15ULL + words[k + 1] * 0xC2B2AE3D27D4EB4FULL + words[k + 2]);
  }
}

static void shingle_flush(reading *r) {
  int shingles = r->buffered - 2;
  if (shingles <= 0) return;
  shingle_features(r->words, r->features, shingles);
  vote(r, r->features, shingles);
  r->words[0] = r->words[r->buffered - 2];
  r->words[1] = r->words[r->buffered - 1];
  r->buffered = 2;
}

/*
 * FNV-1a over each noted word's last 8 bytes from its seed, the same steps for every word. 8: most
 * words are no longer (their first bytes are hashed as they are noted), and each step is a
 * multiplication, 3 µops with a latency of about 15 cycles on Intel's cores (docs/benchmarks.md).
 */
__attribute__((target_clones("arch=x86-64-v4", "default")))
static void hash_columns(uint64_t *restrict hash, const uint64_t *restrict hi, int count) {
  /* A word's 8 steps in registers, words side by side in the vector lanes. */
#define STEP(bytes, shift) h = (h ^ ((bytes) >> (shift) & 0xFF)) * FNV_PRIME
  for (int w = 0; w < count; w++) {
    uint64_t h = hash[w], u = hi[w];
    STEP(u, 0); STEP(u, 8); STEP(u, 16); STEP(u, 24); STEP(u, 32); STEP(u, 40); STEP(u, 48); STEP(u, 56);
    hash[w] = h;
  }
#undef STEP
}

/* Hashes the words noted and adds them to the shingles. */
static void flush(reading *r) {
  hash_columns(r->hash, r->hi, r->count);
  for (int g = 0; g < r->givens; g++) r->hash[r->given_at[g]] = r->given[g];
  for (int w = 0; w < r->count; ) {
    int room = BLOCK + 2 - r->buffered;
    int take = r->count - w < room ? r->count - w : room;
    memcpy(r->words + r->buffered, r->hash + w, (size_t) take * sizeof(uint64_t));
    r->buffered += take;
    w += take;
    if (r->buffered == BLOCK + 2) shingle_flush(r);
  }
  r->total += r->count;
  r->count = 0;
  r->givens = 0;
}

/* Notes the word of ASCII letters and digits b[start, end). */
static inline void note(reading *r, int64_t start, int64_t end) {
  const uint8_t *b = r->b;
  int64_t length = end - start;
  int w = r->count;
  const uint64_t case_bits = 0x2020202020202020ULL; /* lower-cases letters; digits have the bit */
  uint64_t hi = load64(b + end - 8) | case_bits;
  if (length <= WIDTH) {
    r->hash[w] = seeds[length];
    r->hi[w] = hi & hi_masks[length];
  } else {
    uint64_t h = FNV_BASIS;
    for (int64_t k = start; k < end - WIDTH; k++) h = (h ^ ascii_lower(r, b[k])) * FNV_PRIME;
    r->hash[w] = h;
    r->hi[w] = hi;
  }
  r->count = w + 1;
  if (r->count == BLOCK) flush(r);
}

/* Adds a word by its hash. */
static inline void give(reading *r, uint64_t h) {
  int w = r->count;
  r->hash[w] = FNV_BASIS;
  r->hi[w] = 0;
  r->given_at[r->givens] = w;
  r->given[r->givens++] = h;
  r->count = w + 1;
  if (r->count == BLOCK) flush(r);
}

/* Adds the word at i, char by char, and returns its end; i + 1 when no word starts there. */
static int64_t word(reading *r, int64_t i) {
  const uint8_t *b = r->b;
  int64_t j = i;
  uint64_t h = FNV_BASIS;
  while (j < r->n) {
    uint8_t c = b[j];
    uint32_t lower;
    if (c < 0x80) {
      lower = ascii_lower(r, c);
      if (lower == 0) break;
      j++;
    } else {
      lower = nonascii_lower(r, j);
      if (lower == 0) break;
      j += width(c);
    }
    h = (h ^ lower) * FNV_PRIME;
  }
  if (j == i) return i + 1;
  give(r, h);
  return j;
}

/* Per 16 bytes: a bit per letter or digit, and a bit per '<', '&' or non-ASCII byte. */
static inline void classify16(const uint8_t *p, uint32_t *letters, uint32_t *stops) {
  __m128i x = _mm_loadu_si128((const __m128i *) p);
  __m128i folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
  __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
      _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
  __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
  /* x itself: its sign bit is set on a non-ASCII byte */
  __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('<')), _mm_cmpeq_epi8(x, _mm_set1_epi8('&'))),
      x);
  *letters = (uint32_t) _mm_movemask_epi8(_mm_or_si128(letter, digit));
  *stops = (uint32_t) _mm_movemask_epi8(stop);
}

/* The page's bits, 64 bytes a word, blocks words (reading page[0, 64 * blocks)), with SSE2. */
static void classify_page_sse2(const uint8_t *page, int64_t blocks, uint64_t *letters, uint64_t *stops) {
  for (int64_t q = 0; q < blocks; q++) {
    uint64_t l = 0, s = 0;
    for (int j = 0; j < SPAN; j += 16) {
      uint32_t lj, sj;
      classify16(page + SPAN * q + j, &lj, &sj);
      l |= (uint64_t) lj << j;
      s |= (uint64_t) sj << j;
    }
    letters[q] = l;
    stops[q] = s;
  }
}

/* The same with AVX-512BW, 64 bytes an instruction; called only where the CPU has it. */
__attribute__((target("avx512f,avx512bw")))
static void classify_page_avx512(const uint8_t *page, int64_t blocks, uint64_t *letters, uint64_t *stops) {
  const __m512i case_bit = _mm512_set1_epi8(0x20), a = _mm512_set1_epi8('a'), zero = _mm512_set1_epi8('0');
  const __m512i alphabet = _mm512_set1_epi8(26), ten = _mm512_set1_epi8(10);
  const __m512i open = _mm512_set1_epi8('<'), amp = _mm512_set1_epi8('&');
  for (int64_t q = 0; q < blocks; q++) {
    __m512i x = _mm512_loadu_si512((const void *) (page + SPAN * q));
    __mmask64 letter = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(_mm512_or_si512(x, case_bit), a), alphabet);
    __mmask64 digit = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(x, zero), ten);
    letters[q] = letter | digit;
    stops[q] = _mm512_cmpeq_epi8_mask(x, open) | _mm512_cmpeq_epi8_mask(x, amp) | _mm512_movepi8_mask(x);
  }
}

static int has_avx512bw;

/* Run once as the library loads, before any call. */
__attribute__((constructor)) static void detect_cpu(void) {
  __builtin_cpu_init();
  has_avx512bw = __builtin_cpu_supports("avx512bw");
}

/* The 64 bits of a page's bitmap from bit i on. */
static inline uint64_t bits_at(const uint64_t *bits, int64_t i) {
  int64_t q = i >> 6;
  int shift = (int) (i & 63);
  return shift == 0 ? bits[q] : bits[q] >> shift | bits[q + 1] << (64 - shift);
}

/*
 * Notes the words of the ASCII text at i (a word boundary), up to 64 bytes and no further than the
 * first '<', '&' or non-ASCII byte; returns where to go on. A last word that may go on past the 64
 * bytes is not noted: the return is its start, or i when it starts at i. A non-ASCII byte is read on
 * at once, char by char: the last word with it when the word runs into it, else from it.
 */
static int64_t text(reading *r, int64_t i) {
  const uint8_t *b = r->b;
  uint64_t letters = bits_at(r->letter_bits, i), stops = bits_at(r->stop_bits, i);
  int end = stops ? __builtin_ctzll(stops) : SPAN;
  if (end < SPAN) letters &= (1ULL << end) - 1;
  uint64_t firsts = letters & ~(letters << 1);
  uint64_t lasts = letters & ~(letters >> 1);
  int64_t next = i + end;
  int wide = end < SPAN && b[i + end] >= 0x80;
  if (end > 0 && (lasts >> (end - 1) & 1) && (end == SPAN || wide)) {
    int first = 63 - __builtin_clzll(firsts);
    firsts &= ~(1ULL << first);
    lasts &= ~(1ULL << (end - 1));
    next = i + first;
  }
  for (; firsts != 0; firsts &= firsts - 1, lasts &= lasts - 1) {
    note(r, i + __builtin_ctzll(firsts), i + __builtin_ctzll(lasts) + 1);
  }
  return wide ? word(r, next) : next;
}

/* The first c at or after from, or -1. */
static inline int64_t index_of(const reading *r, uint8_t c, int64_t from) {
  if (from >= r->n) return -1;
  const uint8_t *at = memchr(r->b + from, c, (size_t) (r->n - from));
  return at == NULL ? -1 : at - r->b;
}

/* Whether name (lower-case ASCII) is at `at`, ASCII letters in any case. */
static int matches_ignoring_case(const reading *r, int64_t at, const char *name, int length) {
  if (at + length > r->n) return 0;
  for (int k = 0; k < length; k++) {
    uint8_t c = r->b[at + k];
    if (c != (uint8_t) name[k] && c != (uint8_t) (name[k] - ('a' - 'A'))) return 0;
  }
  return 1;
}

static int is_start_tag(const reading *r, int64_t at, const char *name, int length) {
  int64_t after = at + length;
  return matches_ignoring_case(r, at, name, length) && (after >= r->n || !is_word_char(r, after));
}

/* Where the text of a script or style element from `from` ends: at its end tag. */
static int64_t raw_text_end(const reading *r, int64_t from, const char *name, int length) {
  for (int64_t close = index_of(r, '<', from); close >= 0; close = index_of(r, '<', close + 1)) {
    if (close + 1 < r->n && r->b[close + 1] == '/' && matches_ignoring_case(r, close + 2, name, length)) return close;
  }
  return r->n;
}

/* Past a tag, comment or declaration starting at i; past its element for script and style. */
static int64_t skip_markup(const reading *r, int64_t i) {
  const uint8_t *b = r->b;
  if (i + 4 <= r->n && b[i + 1] == '!' && b[i + 2] == '-' && b[i + 3] == '-') {
    /* The first "-->" from i + 4: the first '>' from i + 6 with "--" before it. */
    for (int64_t end = index_of(r, '>', i + 6); end >= 0; end = index_of(r, '>', end + 1)) {
      if (b[end - 1] == '-' && b[end - 2] == '-') return end + 1;
    }
    return r->n;
  }
  int64_t end = index_of(r, '>', i + 1);
  if (end < 0) return r->n;
  if (is_start_tag(r, i + 1, "script", 6)) return raw_text_end(r, end + 1, "script", 6);
  if (is_start_tag(r, i + 1, "style", 5)) return raw_text_end(r, end + 1, "style", 5);
  return end + 1;
}

/* Past a character reference starting at i: a word boundary, its name is no word. */
static int64_t skip_reference(const reading *r, int64_t i) {
  const uint8_t *b = r->b;
  int64_t end = i + 1;
  for (int chars = 1; end < r->n && chars < 32; chars++) {
    if (b[end] == '#' || (b[end] < 0x80 && ascii_lower(r, b[end]) != 0)) {
      end++;
    } else if (b[end] >= 0x80 && nonascii_lower(r, end) != 0) {
      end += width(b[end]);
    } else {
      break;
    }
  }
  return end < r->n && b[end] == ';' ? end + 1 : i + 1;
}

static int simhash(const uint8_t *page, int64_t n, const uint16_t *lower, uint64_t *scratch, uint64_t *out,
    int avx512) {
  reading r;
  int64_t blocks = (n + SPAN - 1) / SPAN + 1; /* a block past the last byte: bits_at reads a word on */
  uint64_t *letter_bits = scratch, *stop_bits = scratch + blocks;
  if (avx512) {
    classify_page_avx512(page, blocks, letter_bits, stop_bits);
  } else {
    classify_page_sse2(page, blocks, letter_bits, stop_bits);
  }
  r.letter_bits = letter_bits;
  r.stop_bits = stop_bits;
  r.b = page;
  r.n = n;
  r.lower = lower;
  r.count = 0;
  r.givens = 0;
  r.buffered = 0;
  r.total = 0;
  r.voted = 0;
  memset(r.planes, 0, sizeof r.planes);
  int64_t i = 0;
  while (i < n) {
    uint8_t c = page[i];
    if (c == '<') {
      i = skip_markup(&r, i);
    } else if (c == '&') {
      i = skip_reference(&r, i);
    } else if (c < 0x80) {
      int64_t next = text(&r, i);
      i = next > i ? next : word(&r, i);
    } else {
      i = word(&r, i);
    }
  }
  flush(&r);
  if (r.total < 3) return 0;
  shingle_flush(&r);
  *out = majority(&r);
  return 1;
}

/*
 * The simhash of page[0, n), UTF-8 HTML, into *out: returns 1, or 0 when the page has fewer than three
 * words (no simhash). lower: 65,536 chars, per BMP char its lower case if a letter or digit, else 0.
 * page[-16, 0) and page[n, n + 128) must be readable zero bytes; scratch must hold 2 * (n / 64 + 2)
 * words. The page's bytes are classified with AVX-512 where the CPU has it.
 */
int forager_simhash_utf8(const uint8_t *page, int64_t n, const uint16_t *lower, uint64_t *scratch, uint64_t *out) {
  return simhash(page, n, lower, scratch, out, has_avx512bw);
}

/* The same with SSE2 alone, whatever the CPU: the baseline path, so that the tests run it everywhere. */
int forager_simhash_utf8_sse2(const uint8_t *page, int64_t n, const uint16_t *lower, uint64_t *scratch, uint64_t *out) {
  return simhash(page, n, lower, scratch, out, 0);
}
