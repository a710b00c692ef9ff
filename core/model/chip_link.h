// The link between the chips of one node (docs/MODEL.md §15.3, §15.4): kept out of hardware.h,
// which nearly every source includes.
#pragma once

namespace ridgepoint {

struct Hardware;
struct MemoryCeiling;

// The link the chips of one node exchange data over, which a collective inside a node runs on:
// NVLink, else ICI (AMD's Infinity Fabric, Google's inter-chip links), else PCIe; nullptr when
// the machine has none of them visible.
const MemoryCeiling *chipLink(const Hardware &hardware);

} // namespace ridgepoint
