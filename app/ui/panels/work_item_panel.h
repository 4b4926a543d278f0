#pragma once
// A work-item's story, as the slides tell the arbitrary-size case through single threads:
// its ids, the element of P it computes (or none: outside P), and per phase and part what
// it loads, what it stores into local memory (or the 0 it writes for an element outside
// M or N) and what it reads per iteration. Click a cell of P, or pick a work-item here.
#include <memory>
#include <optional>

#include "core/trace/frame.h"
#include "ui/panels/side_panel.h"

namespace tilescope::ui {

class WorkItemPanel : public SidePanel {
public:
    const char* title() const override { return "Work-item"; }
    void draw(AppState& state) override;

private:
    struct Key {
        uint64_t version = 0;
        GroupId group{};
        WorkItemId item{};
        Naming naming = Naming::Slides;
        bool operator==(const Key&) const = default;
    };
    std::optional<Key> key_;
    std::shared_ptr<const WorkItemStory> story_;
    std::string why_;
};

}  // namespace tilescope::ui
