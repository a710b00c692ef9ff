// The small formats roofline plotting scripts write (docs/FORMATS.md §2, §6), one file each:
// NERSC's hierarchical text, ERT's per-experiment `sum`, GPU-Roofline-Profiler's peaks.csv,
// mohamed/roofline's hw_db.csv and apps.csv, and the ncu-like Metric Name / Metric Value CSV of
// Techercise/roofline-model-multiple-kernels.
#pragma once

#include "core/io/formats/apps_csv.h"
#include "core/io/formats/ert_sum.h"
#include "core/io/formats/hw_db.h"
#include "core/io/formats/metric_values_csv.h"
#include "core/io/formats/nersc_text.h"
#include "core/io/formats/profiler_peaks.h"
