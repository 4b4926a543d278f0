#include "ui/state/frame_cache.h"

#include "core/base/errors.h"
#include "core/trace/phases.h"

namespace tilescope::ui {

std::optional<FrameRequest> frame_request(const Trace& trace, const FrameKey& key) {
    const GroupTrace* g = trace.find_group(key.group);
    if (!g) return std::nullopt;
    const PhasePlan plan = phase_plan(*g);
    const PhasePart* part = plan.part_at(key.interval);
    if (!part) return std::nullopt;
    FrameRequest r;
    r.group = key.group;
    r.phase = part->phase;
    r.part = part->name;
    r.iteration = key.iteration;
    r.item = key.item;
    r.naming = key.naming;
    return r;
}

std::shared_ptr<const Frame> FrameCache::frame(const Trace& trace, const MatrixRoles& roles, const FrameKey& key) {
    if (key_ && *key_ == key) return frame_;
    key_ = key;
    frame_.reset();
    why_.clear();
    const std::optional<FrameRequest> request = frame_request(trace, key);
    if (!request) {
        why_ = "no detail for this group";
        return frame_;
    }
    try {
        frame_ = std::make_shared<const Frame>(group(trace, roles, key.version, key.group).frame(*request));
    } catch (const InputError& e) {
        why_ = e.what();
    }
    return frame_;
}

const GroupFrames& FrameCache::group(const Trace& trace, const MatrixRoles& roles, uint64_t version, const GroupId& group) {
    const std::pair<uint64_t, GroupId> key{version, group};
    if (!group_ || group_key_ != key) {
        group_.reset();
        group_key_.reset();
        group_.emplace(trace, roles, group);
        group_key_ = key;
    }
    return *group_;
}

int FrameCache::iterations(const Trace& trace, const MatrixRoles& roles, uint64_t version, const GroupId& group_id, int interval) {
    if (version != iterations_version_) iterations_.clear(), iterations_version_ = version;
    const auto at = iterations_.find({group_id, interval});
    if (at != iterations_.end()) return at->second;
    int n = 0;
    FrameKey key;
    key.version = version;
    key.group = group_id;
    key.interval = interval;
    if (const std::optional<FrameRequest> r = frame_request(trace, key)) {
        try {
            n = group(trace, roles, version, group_id).frame(*r, false).iterations;
        } catch (const InputError&) {
            n = 0;
        }
    }
    iterations_[{group_id, interval}] = n;
    return n;
}

}  // namespace tilescope::ui
