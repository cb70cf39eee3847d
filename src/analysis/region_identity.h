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
// Whether the function holding a fork's return address passes the body at `entry` to a fork as
// its outlined function (Symbolizer::fork_passes_body).
using PassedAtFork = std::function<bool(uint64_t fork_return_address, uint64_t entry)>;

// Sets RegionInstance::body. Evidence, strongest first: worksharing constructs, then barriers,
// taskwaits and taskgroups of the implicit tasks, then tasks they created, then lock
// acquisitions; the first address inside an outlined function decides. An instance without
// such evidence takes the body its threads' CPU-time samples ran in (outside the regions it
// forked), where `passed_at_fork` says the forking function passes that body to a fork: a body
// that calls the runtime only at its fork and join leaves no other trace, and a task's body
// sampled in the instance is passed to the task's creation, never to the fork. Then (nothing
// recorded inside it, as in a sampled-out instance) the body of the nearest instance forked
// from the same callsite that has one (the one before it, else after). Instances left without
// a body then take `tail_called_body` of their fork's return address
// (Symbolizer::tail_called_fork_body: a fork tail-called by a function holding one region).
void identify_region_bodies(Timeline& timeline, const BodyEntryOf& body_entry_of,
                            const BodyEntryOf& tail_called_body = {}, const PassedAtFork& passed_at_fork = {});

}  // namespace ompscope::analysis
