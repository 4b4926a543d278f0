#include "ui/shell/scripted_run.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/plain_errors.h"
#include "ui/panels/lesson_panel.h"
#include "ui/shell/app.h"
#include "ui/shell/screen_text.h"
#include "core/trace/phases.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/theme.h"
#include "ui/shell/window_png.h"

namespace tilescope::ui {
namespace {

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
    return v[i];
}

void write_layout(const std::string& path, const AppState& s, const std::vector<MatrixPlacement>& placements,
                  const std::optional<std::array<float, 4>>& legend, const LegendLayout& pieces, int w, int h) {
    nlohmann::json j;
    j["window"] = {w, h};
    j["group"] = {s.cursor.group[0], s.cursor.group[1], s.cursor.group[2]};
    j["interval"] = s.cursor.interval;
    if (s.main.trace)
        if (const GroupTrace* g = s.main.trace->find_group(s.cursor.group)) {
            const PhasePlan plan = phase_plan(*g);
            if (const PhasePart* part = plan.part_at(s.cursor.interval); part && plan.phases > 0) {
                j["phase"] = part->phase;
                j["part"] = part->name;
            }
            j["phases"] = plan.phases;
            if (s.cursor.iteration) j["iteration"] = *s.cursor.iteration;
            if (s.cursor.item) j["item"] = {(*s.cursor.item)[0], (*s.cursor.item)[1]};
            // what the frame showed: its title and every highlighted cell (role, name)
            const FrameKey key{s.main.version, s.cursor.group, s.cursor.interval, s.cursor.iteration, s.cursor.item, s.naming};
            if (const auto frame = s.main.frames.frame(*s.main.trace, s.main.roles, key); frame && frame->has_log) {
                j["frame_title"] = frame->title;
                j["iterations"] = frame->iterations;
                nlohmann::json cells = nlohmann::json::object();
                for (const FrameArray& a : frame->arrays) {
                    nlohmann::json list = nlohmann::json::array();
                    for (const FrameCell& c : a.cells)
                        list.push_back({{"row", c.row}, {"col", c.col}, {"role", std::string(to_string(c.role))}, {"label", c.label}});
                    cells[a.key] = list;
                }
                j["cells"] = cells;
            }
        }
    j["view"] = view_name(s.view);
    if (s.lesson.lesson) {
        j["lesson_heading"] = lesson_heading(s);  // what the strip's heading says
        j["record_gif"] = record_gif_allowed(s);  // the lesson panel's "Record GIF" button
    }
    j["presenter"] = s.presenter;
    j["font_px"] = theme().font ? theme().font->FontSize : ImGui::GetFontSize();  // body text height
    const Palette& p = theme().pal;
    auto rgb = [](ImU32 c) { return nlohmann::json::array({int(c & 0xff), int((c >> 8) & 0xff), int((c >> 16) & 0xff)}); };
    j["colours"] = {{"a_loaded", rgb(p.a_loaded)}, {"b_loaded", rgb(p.b_loaded)}, {"a_strip", rgb(p.a_strip)},
                    {"b_strip", rgb(p.b_strip)}, {"c_block", rgb(p.c_block)}, {"c_stored", rgb(p.c_stored)},
                    {"empty", rgb(p.cell_empty)}, {"local_filled", rgb(p.local_filled)}, {"local_held", rgb(p.local_held)},
                    {"local_read", rgb(p.local_read)}, {"race", rgb(p.race)}, {"wrong", rgb(p.wrong)}, {"hover", rgb(p.hover)},
                    {"global_bar", rgb(p.global_bar)}, {"local_bar", rgb(p.local_bar)}};
    nlohmann::json ms = nlohmann::json::array();
    for (const MatrixPlacement& m : placements)
        ms.push_back({{"name", m.name}, {"role", m.role}, {"x0", m.p0.x}, {"y0", m.p0.y}, {"x1", m.p1.x}, {"y1", m.p1.y},
                      {"rows", m.rows}, {"cols", m.cols}});
    j["matrices"] = ms;
    if (legend) j["legend"] = {{"x0", (*legend)[0]}, {"y0", (*legend)[1]}, {"x1", (*legend)[2]}, {"y1", (*legend)[3]}};
    if (!pieces.pieces.empty()) {  // the side legend, piece by piece, and what found no room
        nlohmann::json list = nlohmann::json::array();
        for (const LegendPiece& p : pieces.pieces)
            list.push_back({{"x0", p.box[0]}, {"y0", p.box[1]}, {"x1", p.box[2]}, {"y1", p.box[3]}, {"texts", p.texts}});
        j["legend_pieces"] = list;
        j["legend_entries"] = pieces.entries;
        j["legend_dropped"] = pieces.dropped;
        j["legend_phase_sentence"] = pieces.phase_sentence;
    }
    if (!last_timeline_layout().segments.empty()) {  // the timeline, where one was drawn
        const TimelineLayout& t = last_timeline_layout();
        nlohmann::json segs = nlohmann::json::array();
        for (const TimelineLayout::Segment& g : t.segments)
            segs.push_back({{"x0", g.x0}, {"x1", g.x1}, {"line_label_x0", g.line_label_x0}, {"boxes_x1", g.boxes_x1},
                            {"global_bar_h", g.global_bar_h}, {"local_bar_h", g.local_bar_h}});
        j["timeline"] = {{"bar_room", t.bar_room}, {"segments", segs}, {"held", t.held}};
    }
    write_file_atomically(path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace

// Once everything is in: a failed trace or a --phase the group does not have is bad input.
bool ScriptedRun::data_arrived(App& app) {
    AppState& s = app.state();
    ready_ = true;
    if (!s.main.error.empty()) {
        std::cerr << "tilescope gui: " << s.main.error << "\n";
        status_ = 2;
        return false;
    }
    const std::string group = "group (" + std::to_string(s.cursor.group[0]) + "," + std::to_string(s.cursor.group[1]) + ")";
    if (std::string problem; s.main.trace && !resolve_wanted_phase(s, &problem)) {  // --interval, --phase, --part, --iteration
        std::cerr << "tilescope gui: " << problem << "\n";
        status_ = 2;
        return false;
    }
    // --hover ROW,COL names a cell of P: outside it is bad input, not a picture drawn wrong
    if (o_.hover && s.main.trace)
        if (const TracedBuffer* c = s.main.trace->find_buffer(s.main.roles.c);
            c && (o_.hover->first >= c->rows || o_.hover->second >= c->cols)) {
            std::cerr << "tilescope gui: --hover " << o_.hover->first << "," << o_.hover->second << ": P has rows 0.."
                      << c->rows - 1 << " and columns 0.." << c->cols - 1 << "; accepted: ROW,COL within those\n";
            status_ = 2;
            return false;
        }
    if (o_.item && s.main.trace)
        if (const GroupTrace* g = s.main.trace->find_group(s.cursor.group);
            g && ((*o_.item)[0] >= std::max<uint32_t>(1, g->size[0]) || (*o_.item)[1] >= std::max<uint32_t>(1, g->size[1]) ||
                  (*o_.item)[2] >= std::max<uint32_t>(1, g->size[2]))) {  // Z too: a scene's [0,0,5] passed
            std::cerr << "tilescope gui: --item " << (*o_.item)[0] << "," << (*o_.item)[1]
                      << ((*o_.item)[2] ? "," + std::to_string((*o_.item)[2]) : std::string()) << ": " << group
                      << " has work-items 0.." << g->size[0] - 1 << ", 0.." << std::max<uint32_t>(1, g->size[1]) - 1
                      << (g->size[2] > 1 ? ", 0.." + std::to_string(g->size[2] - 1) : std::string())
                      << "; accepted: an id within those\n";
            status_ = 2;
            return false;
        }
    s.cursor.progress = 1.0;
    return true;
}

bool ScriptedRun::before_frame(App& app, double now) {
    if (started_ < 0) started_ = now;
    frame_start_ = now;
    if (!ready_ && app.data_ready()) return data_arrived(app);
    if (!ready_ && now - started_ > 1800) {
        std::cerr << "tilescope gui: the data were not ready after 30 minutes\n";
        status_ = 2;
        return false;
    }
    return true;
}

void ScriptedRun::after_render(App& app, gfx::Backend& backend) {
    if (!ready_) return;
    if (last_start_ >= 0 && counted_ > 0) frame_ms_.push_back((frame_start_ - last_start_) * 1000.0);
    last_start_ = frame_start_;
    ++counted_;
    // the last frame also waits for the back buffer to match the window
    if (counted_ <= *o_.frames || !backend.settled()) return;
    write_outputs(app, backend);
    finished_ = true;
}

void ScriptedRun::write_outputs(App& app, gfx::Backend& backend) {
    int w = 0, h = 0;
    backend.framebuffer_size(w, h);
    if (o_.screenshot) {
        std::string err;
        try {
            if (!save_window_png(backend, *o_.screenshot, err, o_.screenshot_width, "--screenshot")) {
                std::cerr << "tilescope gui: --screenshot: " << err << "\n";
                status_ = 2;
            }
        } catch (const OutputError& e) {
            std::cerr << "tilescope gui: " << shown(e.what(), std::string::npos) << "\n";
            status_ = 1;
        } catch (const std::exception& e) {
            std::cerr << "tilescope gui: " << said_plainly(e, "--screenshot '" + shown(*o_.screenshot) + "'") << "\n";
            status_ = 2;
        }
    }
    if (o_.text) {
        try {
            write_file_atomically(*o_.text, screen_text(*ImGui::GetDrawData()), "--text");
        } catch (const OutputError& e) {
            std::cerr << "tilescope gui: " << shown(e.what(), std::string::npos) << "\n";
            status_ = 1;
        } catch (const std::exception& e) {
            std::cerr << "tilescope gui: " << said_plainly(e, "--text '" + shown(*o_.text) + "'") << "\n";
            status_ = 2;
        }
    }
    if (o_.layout) write_layout(*o_.layout, app.state(), app.placements(), app.legend_box(), app.legend_layout(), w, h);
}

void ScriptedRun::print_frame_stats() const {
    if (!o_.frame_stats) return;
    char line[160];
    std::snprintf(line, sizeof line, "frames=%zu p50_ms=%.2f p95_ms=%.2f max_ms=%.2f", frame_ms_.size(), percentile(frame_ms_, 0.5),
                  percentile(frame_ms_, 0.95), frame_ms_.empty() ? 0.0 : *std::max_element(frame_ms_.begin(), frame_ms_.end()));
    std::cout << line << std::endl;
}

}  // namespace tilescope::ui
