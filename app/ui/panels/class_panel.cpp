#include "ui/panels/class_panel.h"

#include <imgui.h>

#include <cstring>
#include <iostream>
#include <memory>

#include "core/classroom/class_room.h"
#include "core/tasks/lesson_page.h"
#include "core/trace/phases.h"
#include "net/class_server.h"
#include "ui/widgets/plot.h"

namespace tilescope::ui {
namespace {

// The one class of this window: the room and its server live here, off the UI's state;
// the server runs on its own threads and the panel reads counts under the room's lock.
struct Session {
    std::shared_ptr<const Lesson> lesson;
    JobHandle preparing;                          // the lesson's traces, on the worker
    std::unique_ptr<classroom::ClassRoom> room;
    std::unique_ptr<net::ClassServer> server;
    std::string url, error;
    std::vector<std::vector<bool>> qr;
    char listen[64] = "127.0.0.1:8080";
};
Session& session() {
    static Session s;
    return s;
}

void start(AppState& state) {
    Session& c = session();
    c.error.clear();
    net::ServerOptions options;
    try {
        options = net::parse_listen(c.listen);
    } catch (const std::exception& e) {
        c.error = e.what();
        return;
    }
    c.lesson = state.lesson.lesson;
    std::shared_ptr<const Lesson> lesson = c.lesson;
    c.preparing = state.worker->submit("Preparing the class: tracing the lesson", [lesson](JobStatus& job) -> std::any {
        return tasks::lesson_page_data(*lesson, task_progress(job));
    });
}

void serve_when_ready() {
    Session& c = session();
    if (!c.preparing || !c.preparing->done) return;
    const JobHandle job = std::move(c.preparing);
    c.preparing.reset();
    if (!job->error().empty()) {
        c.error = job->error();
        std::cerr << "tilescope gui: class: " << c.error << std::endl;
        return;
    }
    const auto* page = job->result<nlohmann::json>();
    if (!page) return;
    try {
        net::ServerOptions options = net::parse_listen(c.listen);
        c.room = std::make_unique<classroom::ClassRoom>(*page);
        c.server = std::make_unique<net::ClassServer>(*c.room, options);
        std::string error;
        if (!c.server->start(error)) {
            c.error = error;
            c.server.reset();
            c.room.reset();
            return;
        }
        c.url = c.server->url();
        c.qr = net::qr_modules(c.url);
        std::cout << "class: open " << c.url << " (join code " << c.room->code() << ")" << std::endl;
    } catch (const std::exception& e) {
        c.error = e.what();
        c.server.reset();
        c.room.reset();
    }
}

void draw_qr(const std::vector<std::vector<bool>>& qr, float side) {
    if (qr.empty()) return;
    const float m = std::max(2.f, std::floor(side / float(qr.size())));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float w = m * float(qr.size());
    dl->AddRectFilled(at, ImVec2(at.x + w, at.y + w), IM_COL32(255, 255, 255, 255));
    for (size_t y = 0; y < qr.size(); ++y)
        for (size_t x = 0; x < qr.size(); ++x)
            if (qr[y][x])
                dl->AddRectFilled(ImVec2(at.x + float(x) * m, at.y + float(y) * m), ImVec2(at.x + float(x + 1) * m, at.y + float(y + 1) * m),
                                  IM_COL32(0, 0, 0, 255));
    ImGui::Dummy(ImVec2(w, w));
}

}  // namespace

void stop_class() {
    Session& c = session();
    if (c.server) c.server->stop();
    c.server.reset();
    c.room.reset();
    c.qr.clear();
    c.url.clear();
}

void control_class(AppState& state, const std::string& argument) {
    Session& c = session();
    if (argument == "stop") {
        stop_class();
        return;
    }
    if (c.room || c.preparing || !state.lesson.lesson || !state.worker) {
        std::cerr << "tilescope gui: --control: class " << argument << ": needs an open lesson and no class running" << std::endl;
        return;
    }
    std::snprintf(c.listen, sizeof c.listen, "%s", argument.substr(0, 63).c_str());
    start(state);
    if (!c.error.empty()) std::cerr << "tilescope gui: --control: class " << argument << ": " << c.error << std::endl;
}

std::optional<classroom::Place> window_place(const AppState& state) {
    const Cursor& cur = state.cursor;
    if (cur.wanted || !state.main.trace || state.main.busy()) return std::nullopt;  // not settled yet
    const GroupTrace* g = state.main.trace->find_group(cur.group);
    if (!g) return std::nullopt;
    classroom::Place p;
    p.group = {cur.group[0], cur.group[1]};
    p.interval = cur.interval;
    if (const PhasePlan plan = phase_plan(*g); const PhasePart* part = plan.part_at(cur.interval)) {
        p.phase = part->phase;
        p.part = part->name;
    }
    p.iteration = cur.iteration;
    return p;
}

void sync_class(AppState& state) {
    serve_when_ready();
    Session& c = session();
    if (!c.room) return;
    if (state.lesson.lesson != c.lesson) {  // another lesson (or none): the class ends
        stop_class();
        return;
    }
    // The step at once; the place once the window has settled on it (a step that opens
    // another trace or phase is unsettled for a few frames: the pages open the step as its
    // lesson says meanwhile, the same place the window is on its way to).
    const classroom::Position pos = c.room->position();
    const std::optional<classroom::Place> place = window_place(state);
    if (pos.step != state.lesson.step) c.room->show(state.lesson.step, place);
    else if (place && place != pos.place) c.room->show(state.lesson.step, place);
    if (state.lesson.revealed && !c.room->revealed(state.lesson.step)) c.room->reveal();
}

void draw_class_section(AppState& state) {
    Session& c = session();
    if (c.room || c.preparing) ImGui::SetNextItemOpen(true, ImGuiCond_Always);  // a running class is always in view
    if (!ImGui::CollapsingHeader("Class: the room follows on its own devices")) return;
    if (!c.room && !c.preparing) {
        ImGui::SetNextItemWidth(160);
        ImGui::InputText("listen on", c.listen, sizeof c.listen);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("127.0.0.1:PORT: this machine only; 0.0.0.0:PORT opens it to the room");
        if (ImGui::Button("Start class") && state.worker && state.lesson.lesson) start(state);
        if (!c.error.empty()) text_wrapped("%s", c.error.c_str());
        return;
    }
    if (c.preparing) {
        text_wrapped("%s", c.preparing->message().empty() ? "Preparing the class..." : c.preparing->message().c_str());
        return;
    }
    // The room's answers first, where the projector shows them without scrolling; the way in below.
    const classroom::Tally t = c.room->tally();
    ImGui::Text("%zu joined", t.joined);
    if (c.room->step_has_question(t.step)) {
        ImGui::SameLine();
        ImGui::Text("%zu answered%s", t.answered, c.room->revealed(t.step) ? " (revealed)" : "");
        // The spread: one bar per distinct guess, never a name.
        size_t most = 1;
        for (const auto& [v, n] : t.values) most = std::max(most, n);
        for (const auto& [v, n] : t.values) {
            ImGui::Text("%10g", v);
            ImGui::SameLine();
            ImGui::ProgressBar(float(n) / float(most), ImVec2(120, 0), std::to_string(n).c_str());
        }
    }
    if (const size_t cut = c.server->connections_cut()) text_wrapped("%s", net::connections_cut_line(cut, c.server->options()).c_str());
    ImGui::TextUnformatted("Open in a browser:");
    ImGui::TextUnformatted(c.url.c_str());  // on a line of its own: never broken inside the address
    ImGui::Text("Join code: %s", c.room->code().c_str());
    draw_qr(c.qr, 180);
    if (ImGui::Button("Stop class")) stop_class();
}

}  // namespace tilescope::ui
