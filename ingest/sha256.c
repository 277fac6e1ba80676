/*
 * SHA-256 (FIPS 180-4), so that re-ingesting the same file finds its
 * session without depending on a crypto library for one hash.
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_X86
#endif

#include "ingest/ingest.h"

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static void
sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t	w[64], a, b, c, d, e, f, g, hh, t1, t2, s0, s1;
	int		i;

	for (i = 0; i < 16; i++)
		w[i] = ((uint32_t)p[4 * i] << 24) | ((uint32_t)p[4 * i + 1] << 16) |
		    ((uint32_t)p[4 * i + 2] << 8) | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
		s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		s1 = ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25);
		t1 = hh + s1 + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
		s0 = ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22);
		t2 = s0 + ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

#ifdef SHA256_X86
/*
 * The x86 SHA extensions: a 150 MB file hashes in a tenth of the time,
 * which matters because every ingest hashes the whole file first.  Two
 * rounds per sha256rnds2; the message schedule four words at a time.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void
sha256_blocks_ni(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	const __m128i	 swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
			    0x0405060700010203ULL);
	__m128i		 s0, s1, t, m[4], k, abef, cdgh;
	int		 g;

	t = _mm_loadu_si128((const __m128i *)&h[0]);
	s1 = _mm_loadu_si128((const __m128i *)&h[4]);
	t = _mm_shuffle_epi32(t, 0xb1);			/* CDAB */
	s1 = _mm_shuffle_epi32(s1, 0x1b);		/* EFGH */
	s0 = _mm_alignr_epi8(t, s1, 8);			/* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xf0);		/* CDGH */
	for (; nblocks > 0; nblocks--, p += 64) {
		abef = s0;
		cdgh = s1;
		for (g = 0; g < 16; g++) {
			if (g < 4)
				m[g] = _mm_shuffle_epi8(_mm_loadu_si128(
				    (const __m128i *)(p + 16 * g)), swap);
			else
				m[g & 3] = _mm_sha256msg2_epu32(_mm_add_epi32(
				    _mm_sha256msg1_epu32(m[g & 3],
				    m[(g + 1) & 3]), _mm_alignr_epi8(
				    m[(g + 3) & 3], m[(g + 2) & 3], 4)),
				    m[(g + 3) & 3]);
			k = _mm_add_epi32(m[g & 3], _mm_loadu_si128(
			    (const __m128i *)&sha256_k[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, k);
			k = _mm_shuffle_epi32(k, 0x0e);
			s0 = _mm_sha256rnds2_epu32(s0, s1, k);
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	t = _mm_shuffle_epi32(s0, 0x1b);		/* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1);		/* DCHG */
	s0 = _mm_blend_epi16(t, s1, 0xf0);		/* DCBA */
	s1 = _mm_alignr_epi8(s1, t, 8);			/* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], s0);
	_mm_storeu_si128((__m128i *)&h[4], s1);
}

static int
sha256_have_ni(void)
{
	static int	have = -1;
	unsigned int	a, b, c, d;

	if (have == -1) {
		have = 0;
		if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1) &&
		    (c & bit_SSSE3) && __get_cpuid_count(7, 0, &a, &b, &c,
		    &d))
			have = (b & bit_SHA) != 0;
	}
	return (have);
}
#endif

static void
sha256_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
#ifdef SHA256_X86
	if (sha256_have_ni()) {
		sha256_blocks_ni(h, p, nblocks);
		return;
	}
#endif
	for (; nblocks > 0; nblocks--, p += 64)
		sha256_block(h, p);
}

void
ingest_sha256(const uint8_t *p, size_t len, char *hex)
{
	uint32_t	h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	uint8_t		tail[128];
	uint64_t	bits = (uint64_t)len * 8;
	size_t		full = len & ~(size_t)63, rest = len - full, n;
	int		i;

	sha256_blocks(h, p, full / 64);
	memset(tail, 0, sizeof tail);
	memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	n = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha256_blocks(h, tail, n / 64);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", h[i]);
}
