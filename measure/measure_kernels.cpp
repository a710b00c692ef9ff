#include "measure/measure_kernels.h"

#include <cmath>

#if defined(__x86_64__)
#include <immintrin.h>
#define RIDGEPOINT_X86 1
#define RIDGEPOINT_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define RIDGEPOINT_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#endif

namespace ridgepoint::detail {
namespace {

// Chains per kernel: FMA latency (4-5 cycles) x 2 pipes needs 8-10; mul then add needs about
// twice that many ops in flight. 12 fit in 16 registers, 24 in AVX-512's 32.
constexpr int kChains = 12;
constexpr int kChains512 = 24;

// ---- compute -------------------------------------------------------------------------------
// One macro writes every variant so they differ only in the vector type and the step.
// Its arguments are types and function names, which cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define RIDGEPOINT_FLOP_KERNEL(NAME, ATTR, VEC, T, CHAINS, SET1, STORE, STEP)                      \
    ATTR double NAME(std::uint64_t iterations, double seed)                                        \
    {                                                                                              \
        const VEC alpha = SET1(static_cast<T>(0.5));                                               \
        VEC x[CHAINS];                                                                             \
        for (int k = 0; k < CHAINS; ++k)                                                           \
            x[k] = SET1(static_cast<T>(seed + 0.01 * k));                                          \
        for (std::uint64_t i = 0; i < iterations; ++i) {                                           \
            _Pragma("GCC unroll 32") for (int k = 0; k < CHAINS; ++k) x[k] = STEP(x[k], alpha);    \
        }                                                                                          \
        double sum = 0.0;                                                                          \
        for (int k = 0; k < CHAINS; ++k) {                                                         \
            alignas(64) T lanes[sizeof(VEC) / sizeof(T)];                                          \
            STORE(lanes, x[k]);                                                                    \
            for (T v : lanes)                                                                      \
                sum += static_cast<double>(v);                                                     \
        }                                                                                          \
        return sum;                                                                                \
    }

// Portable: plain C++; the compiler may not contract a*b+c (ISO mode), std::fma is explicit.
struct Scalar64 {
    double v;
};
struct Scalar32 {
    float v;
};
inline Scalar64 set64(double v)
{
    return { v };
}
inline Scalar32 set32(float v)
{
    return { v };
}
inline void store64(double *out, Scalar64 x)
{
    out[0] = x.v;
}
inline void store32(float *out, Scalar32 x)
{
    out[0] = x.v;
}
inline Scalar64 mulAdd64(Scalar64 x, Scalar64 a)
{
    const double product = x.v * a.v;
    return { product + a.v };
}
inline Scalar32 mulAdd32(Scalar32 x, Scalar32 a)
{
    const float product = x.v * a.v;
    return { product + a.v };
}
inline Scalar64 fma64(Scalar64 x, Scalar64 a)
{
    return { std::fma(x.v, a.v, a.v) };
}
inline Scalar32 fma32(Scalar32 x, Scalar32 a)
{
    return { std::fma(x.v, a.v, a.v) };
}

RIDGEPOINT_FLOP_KERNEL(portable64, , Scalar64, double, kChains, set64, store64, mulAdd64)
RIDGEPOINT_FLOP_KERNEL(portable32, , Scalar32, float, kChains, set32, store32, mulAdd32)
RIDGEPOINT_FLOP_KERNEL(portableFma64, , Scalar64, double, kChains, set64, store64, fma64)
RIDGEPOINT_FLOP_KERNEL(portableFma32, , Scalar32, float, kChains, set32, store32, fma32)

#if defined(RIDGEPOINT_X86)
// SSE2 (x86-64 baseline): packed and scalar (_sd/_ss: one lane) mul then add.
inline __m128d sse2MulAddPd(__m128d x, __m128d a)
{
    return _mm_add_pd(_mm_mul_pd(x, a), a);
}
inline __m128 sse2MulAddPs(__m128 x, __m128 a)
{
    return _mm_add_ps(_mm_mul_ps(x, a), a);
}
inline __m128d sse2MulAddSd(__m128d x, __m128d a)
{
    return _mm_add_sd(_mm_mul_sd(x, a), a);
}
inline __m128 sse2MulAddSs(__m128 x, __m128 a)
{
    return _mm_add_ss(_mm_mul_ss(x, a), a);
}
RIDGEPOINT_FLOP_KERNEL(sse2Pd, , __m128d, double, kChains, _mm_set1_pd, _mm_store_pd, sse2MulAddPd)
RIDGEPOINT_FLOP_KERNEL(sse2Ps, , __m128, float, kChains, _mm_set1_ps, _mm_store_ps, sse2MulAddPs)
RIDGEPOINT_FLOP_KERNEL(sse2Sd, , __m128d, double, kChains, _mm_set1_pd, _mm_store_pd, sse2MulAddSd)
RIDGEPOINT_FLOP_KERNEL(sse2Ss, , __m128, float, kChains, _mm_set1_ps, _mm_store_ps, sse2MulAddSs)

// AVX2 + FMA: 256-bit vectors, and the scalar FMA (vfmadd..sd/ss) every later ISA shares.
RIDGEPOINT_TARGET_AVX2 inline __m256d avx2MulAddPd(__m256d x, __m256d a)
{
    return _mm256_add_pd(_mm256_mul_pd(x, a), a);
}
RIDGEPOINT_TARGET_AVX2 inline __m256 avx2MulAddPs(__m256 x, __m256 a)
{
    return _mm256_add_ps(_mm256_mul_ps(x, a), a);
}
RIDGEPOINT_TARGET_AVX2 inline __m256d stepAvx2FmaPd(__m256d x, __m256d a)
{
    return _mm256_fmadd_pd(x, a, a);
}
RIDGEPOINT_TARGET_AVX2 inline __m256 stepAvx2FmaPs(__m256 x, __m256 a)
{
    return _mm256_fmadd_ps(x, a, a);
}
RIDGEPOINT_TARGET_AVX2 inline __m128d fmaSd(__m128d x, __m128d a)
{
    return _mm_fmadd_sd(x, a, a);
}
RIDGEPOINT_TARGET_AVX2 inline __m128 fmaSs(__m128 x, __m128 a)
{
    return _mm_fmadd_ss(x, a, a);
}
RIDGEPOINT_FLOP_KERNEL(avx2Pd, RIDGEPOINT_TARGET_AVX2, __m256d, double, kChains, _mm256_set1_pd,
    _mm256_store_pd, avx2MulAddPd)
RIDGEPOINT_FLOP_KERNEL(avx2Ps, RIDGEPOINT_TARGET_AVX2, __m256, float, kChains, _mm256_set1_ps,
    _mm256_store_ps, avx2MulAddPs)
RIDGEPOINT_FLOP_KERNEL(avx2FmaPd, RIDGEPOINT_TARGET_AVX2, __m256d, double, kChains, _mm256_set1_pd,
    _mm256_store_pd, stepAvx2FmaPd)
RIDGEPOINT_FLOP_KERNEL(avx2FmaPs, RIDGEPOINT_TARGET_AVX2, __m256, float, kChains, _mm256_set1_ps,
    _mm256_store_ps, stepAvx2FmaPs)
RIDGEPOINT_FLOP_KERNEL(
    fmaSdKernel, RIDGEPOINT_TARGET_AVX2, __m128d, double, kChains, _mm_set1_pd, _mm_store_pd, fmaSd)
RIDGEPOINT_FLOP_KERNEL(
    fmaSsKernel, RIDGEPOINT_TARGET_AVX2, __m128, float, kChains, _mm_set1_ps, _mm_store_ps, fmaSs)

// AVX-512F: 512-bit vectors, 32 registers.
RIDGEPOINT_TARGET_AVX512 inline __m512d avx512MulAddPd(__m512d x, __m512d a)
{
    return _mm512_add_pd(_mm512_mul_pd(x, a), a);
}
RIDGEPOINT_TARGET_AVX512 inline __m512 avx512MulAddPs(__m512 x, __m512 a)
{
    return _mm512_add_ps(_mm512_mul_ps(x, a), a);
}
RIDGEPOINT_TARGET_AVX512 inline __m512d stepAvx512FmaPd(__m512d x, __m512d a)
{
    return _mm512_fmadd_pd(x, a, a);
}
RIDGEPOINT_TARGET_AVX512 inline __m512 stepAvx512FmaPs(__m512 x, __m512 a)
{
    return _mm512_fmadd_ps(x, a, a);
}
RIDGEPOINT_TARGET_AVX512 inline void store512d(double *out, __m512d x)
{
    _mm512_store_pd(out, x);
}
RIDGEPOINT_TARGET_AVX512 inline void store512s(float *out, __m512 x)
{
    _mm512_store_ps(out, x);
}
RIDGEPOINT_FLOP_KERNEL(avx512Pd, RIDGEPOINT_TARGET_AVX512, __m512d, double, kChains512,
    _mm512_set1_pd, store512d, avx512MulAddPd)
RIDGEPOINT_FLOP_KERNEL(avx512Ps, RIDGEPOINT_TARGET_AVX512, __m512, float, kChains512,
    _mm512_set1_ps, store512s, avx512MulAddPs)
RIDGEPOINT_FLOP_KERNEL(avx512FmaPd, RIDGEPOINT_TARGET_AVX512, __m512d, double, kChains512,
    _mm512_set1_pd, store512d, stepAvx512FmaPd)
RIDGEPOINT_FLOP_KERNEL(avx512FmaPs, RIDGEPOINT_TARGET_AVX512, __m512, float, kChains512,
    _mm512_set1_ps, store512s, stepAvx512FmaPs)
#endif

#undef RIDGEPOINT_FLOP_KERNEL

using FlopFunction = double (*)(std::uint64_t, double);

struct FlopChoice {
    FlopFunction function = nullptr;
    int chains = kChains;
    int lanes = 1;
};

FlopChoice chooseFlopKernel(const FlopKernel &k)
{
#if defined(RIDGEPOINT_X86)
    if (!k.simd && k.isa != Isa::Portable) {
        // Scalar instructions: SSE2 mul/add, or the scalar FMA of AVX2 and later.
        if (!k.fma)
            return { k.fp64 ? sse2Sd : sse2Ss, kChains, 1 };
        if (isaHasFma(k.isa))
            return { k.fp64 ? fmaSdKernel : fmaSsKernel, kChains, 1 };
    }
    if (k.simd) {
        switch (k.isa) {
        case Isa::SSE2:
            if (!k.fma)
                return { k.fp64 ? sse2Pd : sse2Ps, kChains, k.fp64 ? 2 : 4 };
            break;
        case Isa::AVX2:
            if (k.fma)
                return { k.fp64 ? avx2FmaPd : avx2FmaPs, kChains, k.fp64 ? 4 : 8 };
            return { k.fp64 ? avx2Pd : avx2Ps, kChains, k.fp64 ? 4 : 8 };
        case Isa::AVX512:
            if (k.fma)
                return { k.fp64 ? avx512FmaPd : avx512FmaPs, kChains512, k.fp64 ? 8 : 16 };
            return { k.fp64 ? avx512Pd : avx512Ps, kChains512, k.fp64 ? 8 : 16 };
        case Isa::Portable:
            break;
        }
    }
#endif
    if (k.isa == Isa::Portable && !k.simd) {
        if (k.fma)
            return { k.fp64 ? portableFma64 : portableFma32, kChains, 1 };
        return { k.fp64 ? portable64 : portable32, kChains, 1 };
    }
    return {};
}

// ---- memory --------------------------------------------------------------------------------
// Each kernel repeats its pass `passes` times itself, so a small working set is not timed
// together with a call and a reduction per pass.
double loadPortable(const double *a, std::size_t n, std::size_t passes)
{
    double s[8] = {};
    for (std::size_t p = 0; p < passes; ++p) {
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            for (int k = 0; k < 8; ++k)
                s[k] += a[i + static_cast<std::size_t>(k)];
        }
        for (; i < n; ++i)
            s[0] += a[i];
    }
    return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

void copyPortable(const double *a, double *b, std::size_t n, std::size_t passes)
{
    for (std::size_t p = 0; p < passes; ++p) {
        for (std::size_t i = 0; i < n; ++i)
            b[i] = a[i];
    }
}

void triadPortable(
    double *a, const double *b, const double *c, double s, std::size_t n, std::size_t passes)
{
    for (std::size_t p = 0; p < passes; ++p) {
        for (std::size_t i = 0; i < n; ++i)
            a[i] = b[i] + s * c[i];
    }
}

#if defined(RIDGEPOINT_X86)
// Eight independent vectors per step so the adds do not serialise the loads. Ordinary
// (allocating) stores: a store that misses reads its line first, which the counts leave out.
#define RIDGEPOINT_MEMORY_KERNELS(SUFFIX, ATTR, VEC, WIDTH, ZERO, LOADU, STOREU, ADD, SET1, TRIAD) \
    ATTR double load##SUFFIX(const double *a, std::size_t n, std::size_t passes)                   \
    {                                                                                              \
        VEC s[8];                                                                                  \
        for (auto &v : s)                                                                          \
            v = ZERO();                                                                            \
        double sum = 0.0;                                                                          \
        const std::size_t whole                                                                    \
            = n / (std::size_t { 8 } * (WIDTH)) * (std::size_t { 8 } * (WIDTH));                   \
        for (std::size_t p = 0; p < passes; ++p) {                                                 \
            for (std::size_t i = 0; i < whole; i += std::size_t { 8 } * (WIDTH)) {                 \
                _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) s[k]                           \
                    = ADD(s[k], LOADU(a + i + static_cast<std::size_t>(k * WIDTH)));               \
            }                                                                                      \
            for (std::size_t i = whole; i < n; ++i)                                                \
                sum += a[i];                                                                       \
        }                                                                                          \
        for (auto &v : s) {                                                                        \
            double lanes[WIDTH];                                                                   \
            STOREU(lanes, v);                                                                      \
            for (double x : lanes)                                                                 \
                sum += x;                                                                          \
        }                                                                                          \
        return sum;                                                                                \
    }                                                                                              \
    ATTR void copy##SUFFIX(const double *a, double *b, std::size_t n, std::size_t passes)          \
    {                                                                                              \
        const std::size_t whole                                                                    \
            = n / (std::size_t { 8 } * (WIDTH)) * (std::size_t { 8 } * (WIDTH));                   \
        for (std::size_t p = 0; p < passes; ++p) {                                                 \
            for (std::size_t i = 0; i < whole; i += std::size_t { 8 } * (WIDTH)) {                 \
                _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k)                                \
                {                                                                                  \
                    const std::size_t j = i + static_cast<std::size_t>(k * WIDTH);                 \
                    STOREU(b + j, LOADU(a + j));                                                   \
                }                                                                                  \
            }                                                                                      \
            for (std::size_t i = whole; i < n; ++i)                                                \
                b[i] = a[i];                                                                       \
        }                                                                                          \
    }                                                                                              \
    ATTR void triad##SUFFIX(                                                                       \
        double *a, const double *b, const double *c, double s, std::size_t n, std::size_t passes)  \
    {                                                                                              \
        const VEC scale = SET1(s);                                                                 \
        const std::size_t whole                                                                    \
            = n / (std::size_t { 8 } * (WIDTH)) * (std::size_t { 8 } * (WIDTH));                   \
        for (std::size_t p = 0; p < passes; ++p) {                                                 \
            for (std::size_t i = 0; i < whole; i += std::size_t { 8 } * (WIDTH)) {                 \
                _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k)                                \
                {                                                                                  \
                    const std::size_t j = i + static_cast<std::size_t>(k * WIDTH);                 \
                    STOREU(a + j, TRIAD(LOADU(b + j), scale, LOADU(c + j)));                       \
                }                                                                                  \
            }                                                                                      \
            for (std::size_t i = whole; i < n; ++i)                                                \
                a[i] = b[i] + s * c[i];                                                            \
        }                                                                                          \
    }

inline __m128d triadOpSse2(__m128d b, __m128d s, __m128d c)
{
    return _mm_add_pd(b, _mm_mul_pd(s, c));
}
RIDGEPOINT_TARGET_AVX2 inline __m256d triadOpAvx2(__m256d b, __m256d s, __m256d c)
{
    return _mm256_fmadd_pd(s, c, b);
}
RIDGEPOINT_TARGET_AVX512 inline __m512d triadOpAvx512(__m512d b, __m512d s, __m512d c)
{
    return _mm512_fmadd_pd(s, c, b);
}
RIDGEPOINT_MEMORY_KERNELS(Sse2, , __m128d, 2, _mm_setzero_pd, _mm_loadu_pd, _mm_storeu_pd,
    _mm_add_pd, _mm_set1_pd, triadOpSse2)
RIDGEPOINT_MEMORY_KERNELS(Avx2, RIDGEPOINT_TARGET_AVX2, __m256d, 4, _mm256_setzero_pd,
    _mm256_loadu_pd, _mm256_storeu_pd, _mm256_add_pd, _mm256_set1_pd, triadOpAvx2)
RIDGEPOINT_MEMORY_KERNELS(Avx512, RIDGEPOINT_TARGET_AVX512, __m512d, 8, _mm512_setzero_pd,
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_add_pd, _mm512_set1_pd, triadOpAvx512)
#undef RIDGEPOINT_MEMORY_KERNELS
// NOLINTEND(bugprone-macro-parentheses)
#endif

} // namespace

std::string_view isaName(Isa isa)
{
    switch (isa) {
    case Isa::Portable:
        return "portable";
    case Isa::SSE2:
        return "sse2";
    case Isa::AVX2:
        return "avx2";
    case Isa::AVX512:
        return "avx512";
    }
    return "portable";
}

bool isaFromName(std::string_view name, Isa &isa)
{
    for (Isa candidate : { Isa::Portable, Isa::SSE2, Isa::AVX2, Isa::AVX512 }) {
        if (name == isaName(candidate)) {
            isa = candidate;
            return true;
        }
    }
    return false;
}

int isaDoubleLanes(Isa isa)
{
    switch (isa) {
    case Isa::Portable:
        return 1;
    case Isa::SSE2:
        return 2;
    case Isa::AVX2:
        return 4;
    case Isa::AVX512:
        return 8;
    }
    return 1;
}

std::vector<Isa> supportedIsas()
{
    std::vector<Isa> isas { Isa::Portable };
#if defined(RIDGEPOINT_X86)
    __builtin_cpu_init();
    isas.push_back(Isa::SSE2); // the x86-64 baseline
    // libgcc also checks that the OS saves the wider registers (XGETBV) before saying yes.
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        isas.push_back(Isa::AVX2);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2")
        && __builtin_cpu_supports("fma"))
        isas.push_back(Isa::AVX512);
#endif
    return isas;
}

bool isaHasFma(Isa isa)
{
    return isa == Isa::AVX2 || isa == Isa::AVX512 || isa == Isa::Portable;
}

double loadKernel(Isa isa, const double *a, std::size_t n, std::size_t passes)
{
    switch (isa) {
#if defined(RIDGEPOINT_X86)
    case Isa::SSE2:
        return loadSse2(a, n, passes);
    case Isa::AVX2:
        return loadAvx2(a, n, passes);
    case Isa::AVX512:
        return loadAvx512(a, n, passes);
#endif
    default:
        return loadPortable(a, n, passes);
    }
}

void copyKernel(Isa isa, const double *a, double *b, std::size_t n, std::size_t passes)
{
    switch (isa) {
#if defined(RIDGEPOINT_X86)
    case Isa::SSE2:
        return copySse2(a, b, n, passes);
    case Isa::AVX2:
        return copyAvx2(a, b, n, passes);
    case Isa::AVX512:
        return copyAvx512(a, b, n, passes);
#endif
    default:
        return copyPortable(a, b, n, passes);
    }
}

void triadKernel(Isa isa, double *a, const double *b, const double *c, double s, std::size_t n,
    std::size_t passes)
{
    switch (isa) {
#if defined(RIDGEPOINT_X86)
    case Isa::SSE2:
        return triadSse2(a, b, c, s, n, passes);
    case Isa::AVX2:
        return triadAvx2(a, b, c, s, n, passes);
    case Isa::AVX512:
        return triadAvx512(a, b, c, s, n, passes);
#endif
    default:
        return triadPortable(a, b, c, s, n, passes);
    }
}

double flopsPerIteration(const FlopKernel &kernel)
{
    const FlopChoice choice = chooseFlopKernel(kernel);
    return choice.function ? 2.0 * choice.chains * choice.lanes : 0.0;
}

double runFlopKernel(const FlopKernel &kernel, std::uint64_t iterations, double seed)
{
    const FlopChoice choice = chooseFlopKernel(kernel);
    return choice.function ? choice.function(iterations, seed) : 0.0;
}

} // namespace ridgepoint::detail
