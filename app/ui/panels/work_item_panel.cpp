#include "ui/panels/work_item_panel.h"

#include <imgui.h>

#include <string>

#include "core/base/errors.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

std::string id_text(const WorkItemId& id, int dims) {
    std::string s = "(" + std::to_string(id[0]);
    for (int d = 1; d < std::max(dims, 2); ++d) s += "," + std::to_string(id[d]);
    return s + ")";
}

std::string elements_text(const std::vector<ElementRef>& refs) {
    std::string s;
    for (const ElementRef& r : refs) s += (s.empty() ? "" : ", ") + r.label;
    return s;
}

std::string cell_text(const LocalCellRef& c) {
    std::string s = c.array + "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ") = " + c.label;
    if (c.written_zero) {
        s += " (a written 0";
        if (c.stands_for) s += std::string(" for ") + c.stands_for->label + (c.stands_outside ? ", outside its matrix" : "");
        s += ")";
    }
    return s;
}

}  // namespace

void WorkItemPanel::draw(AppState& s) {
    const Palette& pal = theme().pal;
    const Trace* t = s.main.trace.get();
    const GroupTrace* g = t ? t->find_group(s.cursor.group) : nullptr;
    if (!g) {
        ImGui::TextDisabled("Trace a kernel, then click a cell of P.");
        return;
    }
    // Pick a work-item of the selected group (local ids, dimension 0 first, as OpenCL numbers them).
    int item[2] = {s.cursor.item ? int((*s.cursor.item)[0]) : 0, s.cursor.item ? int((*s.cursor.item)[1]) : 0};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::InputInt2("local id", item)) {
        item[0] = std::clamp(item[0], 0, int(std::max<uint32_t>(1, g->size[0])) - 1);
        item[1] = std::clamp(item[1], 0, int(std::max<uint32_t>(1, g->size[1])) - 1);
        s.cursor.item = WorkItemId{uint32_t(item[0]), uint32_t(item[1]), 0};
    }
    if (!s.cursor.item) {
        text_wrapped("Click a cell of P, or give a local id, to follow one work-item through the phases.");
        return;
    }
    const Key key{s.main.version, s.cursor.group, *s.cursor.item, s.naming};
    if (!key_ || !(*key_ == key)) {
        key_ = key;
        story_.reset();
        why_.clear();
        try {
            story_ = std::make_shared<const WorkItemStory>(s.main.frames.group(*t, s.main.roles, s.main.version, key.group).story(key.item, key.naming));
        } catch (const InputError& e) {
            why_ = e.what();
        }
    }
    if (!story_) {
        text_wrapped("%s", why_.c_str());
        return;
    }
    const WorkItemStory& w = *story_;
    text_wrapped("work-group %s, work-item local %s, global %s", id_text(w.group, t->dims).c_str(), id_text(w.local, t->dims).c_str(),
                id_text(w.global, t->dims).c_str());
    if (w.computes)
        ImGui::Text("computes %s", w.computes->label.c_str());
    else
        ImGui::TextColored(ImColor(pal.race), "computes no element of P: %s",
                           w.assigned ? (w.assigned->label + " is outside P").c_str() : "outside P");
    for (const std::string& c : w.cases) text_wrapped("%s", c.c_str());
    ImGui::Separator();
    for (const WorkItemStep& step : w.steps) {
        const bool now = step.interval == s.cursor.interval;
        ImGui::TextColored(ImColor(now ? pal.text : pal.faint_text), "phase %d, %s%s", step.phase, step.part.c_str(), now ? "  <- on show" : "");
        if (!step.loads.empty()) text_wrapped("  loads %s", elements_text(step.loads).c_str());
        for (const LocalCellRef& c : step.local_stores) text_wrapped("  stores %s", cell_text(c).c_str());
        if (!step.local_reads.empty()) {
            std::string reads;
            int it = -2;
            for (const LocalCellRef& c : step.local_reads) {
                if (c.iteration != it) reads += std::string(reads.empty() ? "" : "; ") + "it " + std::to_string(c.iteration) + ": ", it = c.iteration;
                else reads += " ";
                reads += c.label;
            }
            text_wrapped("  reads %s", reads.c_str());
        }
        if (!step.stores.empty()) text_wrapped("  stores %s", elements_text(step.stores).c_str());
    }
}

}  // namespace tilescope::ui
