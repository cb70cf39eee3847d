// Which parallel region an instance is: the outlined function it ran, not the call that forked
// it. clang -O2 merges the forks of regions in if/else branches into one call, and a function
// ending in a region tail-calls the fork (the return address is then its caller's): both make
// different regions one callsite. The callbacks fired inside a body (worksharing, barriers,
// task creation, locks) carry return addresses inside it; the function holding them is the
// region's identity, named at its own first line (docs/source-locations.md).
#pragma once
#include <cstdint>
#include <functional>

#include "analysis/timeline.h"

namespace ompscope::analysis {

// The entry of the outlined body holding a return address, or 0 (Symbolizer::outlined_body_entry).
using BodyEntryOf = std::function<uint64_t(uint64_t return_address)>;

// Sets RegionInstance::body. Evidence, strongest first: worksharing constructs, then barriers,
// taskwaits and taskgroups of the implicit tasks, then tasks they created, then lock
// acquisitions; the first address inside an outlined function decides. An instance without
// such evidence (nothing recorded inside it, as in a sampled-out instance) takes the body of
// the nearest recorded instance forked from the same callsite (the one before it, else after).
// Instances left without a body then take `tail_called_body` of their fork's return address
// (Symbolizer::tail_called_fork_body: a fork tail-called by a function holding one region).
void identify_region_bodies(Timeline& timeline, const BodyEntryOf& body_entry_of,
                            const BodyEntryOf& tail_called_body = {});

}  // namespace ompscope::analysis
