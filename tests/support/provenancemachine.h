// A machine whose ceilings carry provenance, one of them with a measured figure beside its spec
// one: the numbers are A100-like and easy to check by hand.
#pragma once

#include "core/model/hardware.h"

namespace ridgepoint::test {

// FP16 tensor 312 TFLOP/s (spec, boost 1410 MHz, package), its 2:4-sparse 624 TFLOP/s (spec),
// FP32 vector 19.5 TFLOP/s (no provenance: unstated), L2 5.5 TB/s (derived), HBM2 1.555 TB/s
// spec with 1.35 TB/s measured beside it. The measured HBM figure is the one in use (the
// order withFigures(…, Measured) leaves it in).
inline Hardware provenanceMachine()
{
    Hardware hw;
    hw.name = "Provenance machine";
    hw.source = "tests";
    hw.defaultCompute = "FP16 tensor";

    Provenance datasheet;
    datasheet.basis = Basis::Spec;
    datasheet.source = "NVIDIA A100 datasheet, table 1";
    datasheet.url = "https://example.org/a100-datasheet.pdf";
    datasheet.accessed = "2026-11-26";
    datasheet.clock = "boost";
    datasheet.clockMHz = 1410.0;
    datasheet.scope = "package";

    ComputeCeiling fp16 { "FP16 tensor", Precision::FP16, "tensor", 312e12, false, {}, true };
    fp16.provenance = datasheet;
    fp16.provenance.notes = "the datasheet's 624 is the 2:4-sparse figure";
    ComputeCeiling sparse { "FP16 tensor 2:4", Precision::FP16, "tensor", 624e12, true, {}, true };
    sparse.provenance = datasheet;
    ComputeCeiling fp32 { "FP32 vector", Precision::FP32, "vector", 19.5e12, false, {}, true };
    hw.compute = { fp16, sparse, fp32 };

    MemoryCeiling l2 { "L2", MemoryLevel::L2, 5.5e12, {}, true };
    l2.provenance.basis = Basis::Derived;
    l2.provenance.formula = "2.3 × 2.4 TB/s";
    l2.provenance.source = "NVIDIA A100 whitepaper, memory section";
    MemoryCeiling hbm { "HBM2", MemoryLevel::HBM, 1.35e12, {}, true };
    hbm.provenance.basis = Basis::Measured;
    hbm.provenance.tool = "ridgepoint measure 0.4";
    hbm.provenance.date = "2026-11-20";
    hbm.provenance.host = "dgx-07";
    hbm.alternate = AlternateFigure { 1.555e12, datasheet };
    hw.memory = { l2, hbm };
    return hw;
}

} // namespace ridgepoint::test
