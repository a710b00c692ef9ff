// Internal to ridgepoint_measure (measure/runner.cpp): the timed loops of `ridgepoint measure`,
// one version per vector ISA, chosen at run time so the same binary runs on a machine without
// AVX-512.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ridgepoint::detail {

// From narrowest to widest. Portable is plain C++ (any architecture); the others are x86-64.
enum class Isa { Portable, SSE2, AVX2, AVX512 };

std::string_view isaName(Isa isa); // "portable", "sse2", "avx2" (with FMA), "avx512" (AVX-512F)
bool isaFromName(std::string_view name, Isa &isa);
int isaDoubleLanes(Isa isa); // doubles per vector: 1, 2, 4, 8
// The ISAs this processor and OS run, narrowest first (AVX2 means AVX2 and FMA).
std::vector<Isa> supportedIsas();
// FMA instructions on scalars and vectors: AVX2 and AVX-512 (x86), or the portable std::fma.
bool isaHasFma(Isa isa);

// Memory kernels over doubles. `n` is any count; the vector loops take multiples of 64
// elements and a scalar tail does the rest. Bytes moved per element: load 8, copy 16, triad 24.
// Each runs `passes` passes over its arrays.
double loadKernel(Isa isa, const double *a, std::size_t n, std::size_t passes); // returns the sum
void copyKernel(Isa isa, const double *a, double *b, std::size_t n, std::size_t passes); // b = a
void triadKernel(Isa isa, double *a, const double *b, const double *c, double s, std::size_t n,
    std::size_t passes); // a = b + s*c

// Compute kernels: independent chains x = x*alpha + alpha (mul then add, or one FMA), enough
// of them to hide the latency. `simd`: the ISA's full vector width, else one lane (scalar
// instructions of the same ISA).
struct FlopKernel {
    Isa isa = Isa::Portable;
    bool fp64 = true;
    bool simd = true;
    bool fma = true;
};
// FLOPs done by one iteration (chains x lanes x 2).
double flopsPerIteration(const FlopKernel &kernel);
// Runs `iterations` iterations; returns the sum of the chains (to keep the work observable).
double runFlopKernel(const FlopKernel &kernel, std::uint64_t iterations, double seed);

} // namespace ridgepoint::detail
