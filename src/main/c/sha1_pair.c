/*
 * Two SHA-1 digests of one buffer in one pass: of buf[0, total) (a WARC record's block: the HTTP head,
 * then the body) and of buf[from, total) (its payload: the body alone). Built by bin/native-libraries and
 * called through JNA by org.forager.warc.Sha1Pair.
 *
 * Why: with the x86 SHA extensions a SHA-1 is bound by the latency of its rounds, one 64-byte block
 * waiting on the one before. Two independent messages, their blocks interleaved, fill the gaps: on the
 * benchmark's 30 KB pages both digests together take about 58 % of the time of one after the other
 * (docs/benchmarks.md, session 49). The JDK's own SHA-1 (its SHA-NI intrinsic) runs one message at a time.
 *
 * Only the block function uses the extensions (compiled for them by a target attribute, called only when
 * forager_sha1_available says the CPU has them); padding and output are plain C.
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHA_TARGET __attribute__((target("sha,ssse3,sse4.1")))

typedef struct {
  __m128i abcd; /* A in the high lane, as sha1rnds4 takes it */
  __m128i e;    /* E in the high lane */
} lane;

/* Four rounds from message group k (k >= 3), the schedule computed four groups ahead. */
#define GROUP(Ecur, Eoth, Mk, Mk1, Mk2, Mk3, F)      \
  Ecur = _mm_sha1nexte_epu32(Ecur, Mk);              \
  Eoth = abcd;                                       \
  Mk1 = _mm_sha1msg2_epu32(Mk1, Mk);                 \
  abcd = _mm_sha1rnds4_epu32(abcd, Ecur, F);         \
  Mk3 = _mm_sha1msg1_epu32(Mk3, Mk);                 \
  Mk2 = _mm_xor_si128(Mk2, Mk);

/* The 80 rounds of one block. Inlined twice in one loop, the two lanes' instructions interleave. */
static inline __attribute__((always_inline)) SHA_TARGET void block(lane *l, const uint8_t *p) {
  const __m128i big_endian = _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL);
  __m128i abcd = l->abcd, e0 = l->e, e1;
  const __m128i abcd_before = abcd, e_before = e0;
  __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), big_endian);
  __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), big_endian);
  __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), big_endian);
  __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), big_endian);
  /* Rounds 0-11: the schedule's first words are the message itself. */
  e0 = _mm_add_epi32(e0, m0);
  e1 = abcd;
  abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);
  e1 = _mm_sha1nexte_epu32(e1, m1);
  e0 = abcd;
  abcd = _mm_sha1rnds4_epu32(abcd, e1, 0);
  m0 = _mm_sha1msg1_epu32(m0, m1);
  e0 = _mm_sha1nexte_epu32(e0, m2);
  e1 = abcd;
  abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);
  m1 = _mm_sha1msg1_epu32(m1, m2);
  m0 = _mm_xor_si128(m0, m2);
  /* Rounds 12-75; the round function changes every 20 rounds (five groups). */
  GROUP(e1, e0, m3, m0, m1, m2, 0)
  GROUP(e0, e1, m0, m1, m2, m3, 0)
  GROUP(e1, e0, m1, m2, m3, m0, 1)
  GROUP(e0, e1, m2, m3, m0, m1, 1)
  GROUP(e1, e0, m3, m0, m1, m2, 1)
  GROUP(e0, e1, m0, m1, m2, m3, 1)
  GROUP(e1, e0, m1, m2, m3, m0, 1)
  GROUP(e0, e1, m2, m3, m0, m1, 2)
  GROUP(e1, e0, m3, m0, m1, m2, 2)
  GROUP(e0, e1, m0, m1, m2, m3, 2)
  GROUP(e1, e0, m1, m2, m3, m0, 2)
  GROUP(e0, e1, m2, m3, m0, m1, 2)
  GROUP(e1, e0, m3, m0, m1, m2, 3)
  GROUP(e0, e1, m0, m1, m2, m3, 3)
  GROUP(e1, e0, m1, m2, m3, m0, 3)
  GROUP(e0, e1, m2, m3, m0, m1, 3)
  /* Rounds 76-79. */
  e1 = _mm_sha1nexte_epu32(e1, m3);
  e0 = abcd;
  abcd = _mm_sha1rnds4_epu32(abcd, e1, 3);
  l->e = _mm_sha1nexte_epu32(e0, e_before);
  l->abcd = _mm_add_epi32(abcd, abcd_before);
}

static SHA_TARGET void blocks(lane *l, const uint8_t *p, size_t n) {
  for (; n; n--, p += 64) block(l, p);
}

static SHA_TARGET void blocks2(lane *a, const uint8_t *pa, lane *b, const uint8_t *pb, size_t n) {
  for (; n; n--, pa += 64, pb += 64) {
    block(a, pa);
    block(b, pb);
  }
}

static SHA_TARGET lane start(void) {
  lane l;
  l.abcd = _mm_set_epi32(0x67452301, (int)0xEFCDAB89, (int)0x98BADCFE, 0x10325476);
  l.e = _mm_set_epi32((int)0xC3D2E1F0, 0, 0, 0);
  return l;
}

/* The last one or two blocks of a message of `length` bytes whose last `rest` bytes are at `tail`. */
static SHA_TARGET void finish(lane *l, const uint8_t *tail, size_t rest, uint64_t length, uint8_t out[20]) {
  uint8_t last[128];
  memset(last, 0, sizeof last);
  memcpy(last, tail, rest);
  last[rest] = 0x80;
  size_t size = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = length * 8;
  for (int i = 0; i < 8; i++) last[size - 1 - i] = (uint8_t)(bits >> (8 * i));
  blocks(l, last, size / 64);
  uint32_t words[4];
  _mm_storeu_si128((__m128i *)words, l->abcd); /* D, C, B, A */
  uint32_t h[5] = {words[3], words[2], words[1], words[0], (uint32_t)_mm_extract_epi32(l->e, 3)};
  for (int i = 0; i < 5; i++) {
    out[4 * i] = (uint8_t)(h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(h[i] >> 8);
    out[4 * i + 3] = (uint8_t)h[i];
  }
}

/* 1 when this CPU has the SHA extensions, SSSE3 and SSE4.1, which forager_sha1_pair needs; else 0. */
int forager_sha1_available(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  int sha = (b >> 29) & 1;
  return ssse3 && sse41 && sha;
}

/*
 * out[0, 20): the SHA-1 of buf[0, total); out[20, 40): the SHA-1 of buf[from, total). from <= total.
 * Only when forager_sha1_available() said 1.
 */
SHA_TARGET void forager_sha1_pair(const uint8_t *buf, uint64_t from, uint64_t total, uint8_t out[40]) {
  if (from > total) return; /* a caller's error: out is left as it was */
  lane whole = start(), part = start();
  uint64_t whole_blocks = total / 64, part_blocks = (total - from) / 64;
  uint64_t together = whole_blocks < part_blocks ? whole_blocks : part_blocks;
  blocks2(&whole, buf, &part, buf + from, together);
  blocks(&whole, buf + together * 64, whole_blocks - together);
  blocks(&part, buf + from + together * 64, part_blocks - together);
  finish(&whole, buf + whole_blocks * 64, total - whole_blocks * 64, total, out);
  finish(&part, buf + from + part_blocks * 64, total - from - part_blocks * 64, total - from, out + 20);
}
