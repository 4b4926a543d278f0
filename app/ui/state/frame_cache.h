#pragma once
// The core's frame (core/trace/frame.h: what each cell shows, with its role and name; a
// work-item's story; a cell's sum so far) for the cursor, built once per change of what
// it shows. The views only paint what this returns.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/trace/frame.h"
#include "core/trace/trace.h"
#include "core/trace/view_model.h"

namespace tilescope::ui {

struct FrameKey {
    uint64_t version = 0;  // the trace's
    GroupId group{};
    int interval = 0;
    std::optional<int> iteration;
    std::optional<WorkItemId> item;
    Naming naming = Naming::Slides;
    bool operator==(const FrameKey&) const = default;
};

class FrameCache {
public:
    // The frame of `key` (its interval's phase and part), or null where the trace cannot say
    // (no detail or no access log for the group, a request out of range: `why` says which).
    std::shared_ptr<const Frame> frame(const Trace& trace, const MatrixRoles& roles, const FrameKey& key);
    // Iterations of the part (0: it reads no local memory, or nothing is known).
    int iterations(const Trace& trace, const MatrixRoles& roles, uint64_t version, const GroupId& group, int interval);
    const std::string& why() const { return why_; }
    // The group prepared once (its replay) for every frame, story and sum of it (issue 32:
    // each frame replayed the group and drew its inputs again). Throws InputError (no detail).
    const GroupFrames& group(const Trace& trace, const MatrixRoles& roles, uint64_t version, const GroupId& group);

private:
    std::optional<std::pair<uint64_t, GroupId>> group_key_;
    std::optional<GroupFrames> group_;
    std::optional<FrameKey> key_;
    std::shared_ptr<const Frame> frame_;
    std::string why_;
    uint64_t iterations_version_ = ~uint64_t(0);
    std::map<std::pair<GroupId, int>, int> iterations_;
};

// The request the cursor stands for: its interval's phase and part.
std::optional<FrameRequest> frame_request(const Trace& trace, const FrameKey& key);

}  // namespace tilescope::ui
