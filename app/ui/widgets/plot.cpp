#include "ui/widgets/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "ui/widgets/theme.h"

namespace tilescope::ui {

std::string short_number(double v) {
    char b[32];
    const double a = std::fabs(v);
    if (a >= 1e4) std::snprintf(b, sizeof b, "%.0fk", v / 1e3);
    else if (a >= 1e3) std::snprintf(b, sizeof b, "%.1fk", v / 1e3);
    else if (a >= 100 || a == 0) std::snprintf(b, sizeof b, "%.0f", v);
    else if (a >= 10) std::snprintf(b, sizeof b, "%.1f", v);
    else if (a >= 1) std::snprintf(b, sizeof b, "%.2f", v);
    else std::snprintf(b, sizeof b, "%.3g", v);
    return b;
}

bool overlaps(const Box& a, const Box& b) { return a.x < b.z && b.x < a.z && a.y < b.w && b.y < a.w; }

namespace {

float overlap_area(const Box& a, const Box& b) {
    const float w = std::min(a.z, b.z) - std::max(a.x, b.x), h = std::min(a.w, b.w) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0.f;
}

// How bad a spot is: area covered of what must stay readable, and area outside the bounds.
float clash(const Box& r, const std::vector<Box>& taken, const Box& bounds) {
    float bad = 0;
    for (const Box& o : taken) bad += overlap_area(r, o);
    const float area = (r.z - r.x) * (r.w - r.y);
    return bad + 4.f * (area - overlap_area(r, bounds));
}

}  // namespace

std::vector<Box> place_labels(const std::vector<ImVec2>& anchors, const std::vector<ImVec2>& sizes, const std::vector<Box>& obstacles,
                              const Box& bounds, float gap) {
    std::vector<Box> taken = obstacles, out;
    for (size_t i = 0; i < anchors.size() && i < sizes.size(); ++i) {
        const ImVec2 p = anchors[i], sz = sizes[i];
        Box best{};
        float best_bad = -1;
        for (int ring = 0; ring < 6 && best_bad != 0; ++ring) {
            const float d = gap + float(ring) * sz.y, e = d * 0.7f;
            const ImVec2 spots[] = {{p.x + d, p.y - sz.y / 2},          {p.x - d - sz.x, p.y - sz.y / 2}, {p.x - sz.x / 2, p.y - d - sz.y},
                                    {p.x - sz.x / 2, p.y + d},          {p.x + e, p.y - e - sz.y},        {p.x + e, p.y + e},
                                    {p.x - e - sz.x, p.y - e - sz.y},   {p.x - e - sz.x, p.y + e}};
            for (const ImVec2& at : spots) {
                const Box r{at.x, at.y, at.x + sz.x, at.y + sz.y};
                const float bad = clash(r, taken, bounds);
                if (best_bad < 0 || bad < best_bad) {
                    best = r;
                    best_bad = bad;
                }
                if (bad == 0) break;
            }
        }
        out.push_back(best);
        taken.push_back(best);
    }
    return out;
}

PlotFrame::PlotFrame(ImDrawList* dl, ImVec2 p0, ImVec2 p1, const std::string& title, const std::string& x_title,
                     const std::string& y_title, double x0, double x1, double y0, double y1, bool log_x, bool log_y,
                     float left_margin_em)
    : dl_(dl), x0_(x0), x1_(x1), y0_(y0), y1_(y1), lx_(log_x), ly_(log_y) {
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    // below the title, which keeps its own (large) size when the body text is scaled down for
    // crowded rows (issue 33: at 720p "every rung, 256³" ran into the frame's top line)
    a_ = ImVec2(p0.x + fh * left_margin_em, p0.y + std::max(fh * 1.6f, theme().big->FontSize + fh * 0.4f));
    b_ = ImVec2(p1.x - fh * 0.8f, p1.y - fh * 2.8f);
    dl_->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 255));
    dl_->AddText(theme().big, theme().big->FontSize, ImVec2(p0.x + fh * 0.5f, p0.y + 1), pal.text, title.c_str());
    dl_->AddRect(a_, b_, pal.outline);
    const ImVec2 xs = ImGui::CalcTextSize(x_title.c_str());
    add_text(ImVec2((a_.x + b_.x - xs.x) / 2, b_.y + fh * 1.4f), pal.text, x_title);
    if (!y_title.empty()) add_text(ImVec2(a_.x + 4, a_.y + 2), pal.faint_text, y_title);
}

bool PlotFrame::clear_of_texts(const Box& box) const {
    return std::none_of(taken_.begin(), taken_.end(), [&](const Box& t) { return overlaps(t, box); });
}

double PlotFrame::tx(double x) const {
    const double t = lx_ ? (std::log(x) - std::log(x0_)) / (std::log(x1_) - std::log(x0_)) : (x - x0_) / (x1_ - x0_);
    return a_.x + t * (b_.x - a_.x);
}
double PlotFrame::ty(double y) const {
    const double t = ly_ ? (std::log(std::max(y, 1e-30)) - std::log(y0_)) / (std::log(y1_) - std::log(y0_)) : (y - y0_) / (y1_ - y0_);
    return b_.y - t * (b_.y - a_.y);
}
ImVec2 PlotFrame::map(double x, double y) const { return ImVec2(float(tx(x)), float(ty(y))); }

std::vector<size_t> spaced_tick_labels(const std::vector<float>& centres, const std::vector<float>& widths, float gap) {
    std::vector<size_t> kept;
    const size_t n = std::min(centres.size(), widths.size());
    auto clear = [&](size_t a, size_t b) {  // a left of b
        return centres[a] + widths[a] / 2 + gap <= centres[b] - widths[b] / 2;
    };
    for (size_t i = 0; i < n; ++i) {
        if (kept.empty() || clear(kept.back(), i)) {
            kept.push_back(i);
        } else if (i + 1 == n) {  // the last label wins over the middle ones it touches
            while (kept.size() > 1 && !clear(kept.back(), i)) kept.pop_back();
            if (clear(kept.back(), i)) kept.push_back(i);
        }
    }
    return kept;
}

namespace {

// A short parenthesised tuple starting at text[i] == '(': "(1,1)", "(0, 1)"; its end, or npos.
size_t tuple_end(const std::string& text, size_t i) {
    if (i >= text.size() || text[i] != '(') return std::string::npos;
    const size_t close = text.find(')', i);
    if (close == std::string::npos || close - i > 24) return std::string::npos;
    const std::string inner = text.substr(i + 1, close - i - 1);
    const bool tuple = inner.find(',') != std::string::npos &&
                       inner.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, ") == std::string::npos;
    return tuple ? close : std::string::npos;
}

}  // namespace

std::vector<std::string> wrap_keeping_tuples(const std::string& text, float width,
                                             const std::function<float(const std::string&)>& measure) {
    // Pieces: runs between breakable spaces (each keeps its leading spaces but the first).
    std::vector<std::string> lines;
    size_t start = 0;
    std::vector<std::string> pieces;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            pieces.push_back(text.substr(start, i - start));
            pieces.push_back("\n");
            start = i + 1;
            continue;
        }
        if (const size_t close = tuple_end(text, i); close != std::string::npos) {
            i = close;  // no break inside
            continue;
        }
        if (text[i] == ' ' && tuple_end(text, i + 1) == std::string::npos && i > start) {
            pieces.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    if (start < text.size()) pieces.push_back(text.substr(start));
    std::string line;
    bool open = false;
    for (const std::string& p : pieces) {
        if (p == "\n") {
            lines.push_back(line), line.clear(), open = false;
            continue;
        }
        const std::string longer = open ? line + " " + p : p;
        if (!open || measure(longer) <= width) {
            line = longer, open = true;
        } else {
            lines.push_back(line);
            line = p;
        }
    }
    if (open) lines.push_back(line);
    return lines;
}

void text_wrapped_keeping_tuples(const std::string& text) {
    const float width = std::max(1.f, ImGui::GetContentRegionAvail().x);
    // One text item of several lines: spaced as TextWrapped spaces its lines (one item per
    // line would add the item spacing between them and push the legend off a 720p screen).
    std::string joined;
    for (const std::string& l : wrap_keeping_tuples(text, width, [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }))
        joined += (joined.empty() ? "" : "\n") + l;
    ImGui::TextUnformatted(joined.c_str());
}

void text_wrapped(const char* fmt, ...) {
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string text(n > 0 ? size_t(n) : 0, '\0');
    if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, args);
    va_end(args);
    text_wrapped_keeping_tuples(text);
}

void PlotFrame::x_ticks(const std::vector<double>& at, const std::vector<std::string>& labels) const {
    const Palette& pal = theme().pal;
    std::vector<float> centres, widths;
    for (size_t i = 0; i < at.size() && i < labels.size(); ++i) {
        const float x = float(tx(at[i]));
        dl_->AddLine(ImVec2(x, b_.y), ImVec2(x, b_.y + 4), pal.outline);
        centres.push_back(x);
        widths.push_back(ImGui::CalcTextSize(labels[i].c_str()).x);
    }
    for (size_t i : spaced_tick_labels(centres, widths, ImGui::GetFontSize() * 0.5f))
        add_text(ImVec2(centres[i] - widths[i] / 2, b_.y + 4), pal.text, labels[i]);
}

static std::vector<double> nice_ticks(double lo, double hi, bool log, double target = 5) {
    std::vector<double> out;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || (log && lo <= 0)) return out;
    if (log) {
        for (double d = std::pow(10, std::floor(std::log10(lo))); d <= hi * 1.0001; d *= 10)
            if (d >= lo * 0.9999) out.push_back(d);
        return out;
    }
    const double span = hi - lo, raw = span / std::max(2.0, target), mag = std::pow(10, std::floor(std::log10(raw)));
    const double step = raw / mag >= 5 ? 5 * mag : raw / mag >= 2 ? 2 * mag : mag;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6 && out.size() < 50; v += step) out.push_back(v);
    return out;
}

static std::string tick_text(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

void PlotFrame::y_ticks_auto() const {
    const Palette& pal = theme().pal;
    const double target = std::max(2.0, double(b_.y - a_.y) / (ImGui::GetFontSize() * 2.5));
    for (double v : nice_ticks(std::min(y0_, y1_), std::max(y0_, y1_), ly_, std::min(6.0, target))) {
        const float y = float(ty(v));
        dl_->AddLine(ImVec2(a_.x, y), ImVec2(b_.x, y), IM_COL32(0, 0, 0, 25));
        const std::string s = tick_text(v);
        const ImVec2 sz = ImGui::CalcTextSize(s.c_str());
        add_text(ImVec2(a_.x - sz.x - 5, y - sz.y / 2), pal.text, s);
    }
}

void PlotFrame::x_ticks_auto() const {
    const double target = std::max(2.0, double(b_.x - a_.x) / (ImGui::GetFontSize() * 4.5));
    std::vector<double> at = nice_ticks(std::min(x0_, x1_), std::max(x0_, x1_), lx_, std::min(6.0, target));
    std::vector<std::string> labels;
    for (double v : at) labels.push_back(tick_text(v));
    x_ticks(at, labels);
}

void PlotFrame::line(const std::vector<double>& xs, const std::vector<double>& ys, ImU32 colour, float thickness, bool points) const {
    std::vector<ImVec2> pts;
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) pts.push_back(map(xs[i], ys[i]));
    if (pts.size() >= 2) dl_->AddPolyline(pts.data(), int(pts.size()), colour, 0, thickness);
    if (points)
        for (const ImVec2& p : pts) dl_->AddCircleFilled(p, thickness * 2.2f, colour);
}

void PlotFrame::add_text(ImVec2 at, ImU32 colour, const std::string& text) const {
    const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
    dl_->AddText(at, colour, text.c_str());
    taken_.push_back(Box{at.x, at.y, at.x + sz.x, at.y + sz.y});
}

void PlotFrame::text(ImVec2 at, ImU32 colour, const std::string& text) const { add_text(at, colour, text); }

void PlotFrame::points(const std::vector<LabelledPoint>& pts, const std::vector<Box>& keep_clear) const {
    const float r = theme().line * 2.5f;
    std::vector<ImVec2> anchors, sizes;
    std::vector<Box> obstacles = taken_;
    obstacles.insert(obstacles.end(), keep_clear.begin(), keep_clear.end());
    for (const LabelledPoint& p : pts) {
        const ImVec2 at = map(p.x, p.y);
        anchors.push_back(at);
        sizes.push_back(ImGui::CalcTextSize(p.label.c_str()));
        obstacles.push_back(Box{at.x - r, at.y - r, at.x + r, at.y + r});  // no name covers a point
    }
    const std::vector<Box> boxes = place_labels(anchors, sizes, obstacles, Box{a_.x, a_.y, b_.x, b_.y}, r + 3);
    for (size_t i = 0; i < pts.size(); ++i) {
        dl_->AddCircleFilled(anchors[i], r, pts[i].colour);
        dl_->AddCircle(anchors[i], r, theme().pal.outline);
        const Box& b = boxes[i];
        const ImVec2 centre((b.x + b.z) / 2, (b.y + b.w) / 2);
        const float far = std::max(std::fabs(centre.x - anchors[i].x) - (b.z - b.x) / 2, std::fabs(centre.y - anchors[i].y) - (b.w - b.y) / 2);
        if (far > r * 3) {  // a leader line to a name placed away from its point
            const ImVec2 end(std::clamp(anchors[i].x, b.x, b.z), std::clamp(anchors[i].y, b.y, b.w));
            dl_->AddLine(anchors[i], end, IM_COL32(0, 0, 0, 110));
        }
        dl_->AddText(ImVec2(b.x, b.y), theme().pal.text, pts[i].label.c_str());
        taken_.push_back(b);
    }
}

void PlotFrame::whisker(double xv, double y_lo, double y_hi, ImU32 colour) const {
    const float x = float(tx(xv)), a = float(ty(y_lo)), b = float(ty(y_hi));
    const float cap = ImGui::GetFontSize() * 0.3f, w = std::max(1.f, theme().line * 0.8f);
    dl_->AddLine(ImVec2(x, a), ImVec2(x, b), colour, w);
    dl_->AddLine(ImVec2(x - cap, a), ImVec2(x + cap, a), colour, w);
    dl_->AddLine(ImVec2(x - cap, b), ImVec2(x + cap, b), colour, w);
}

void PlotFrame::bar(double xc, double hw, double y, ImU32 colour, const std::string& value_label, double lo, double hi) const {
    const float x = float(tx(xc));
    const ImVec2 top(x - float(hw), float(ty(y)));
    dl_->AddRectFilled(top, ImVec2(x + float(hw), b_.y), colour);
    float label_y = top.y;
    if (lo >= 0 && hi >= lo) {
        whisker(xc, lo, hi, theme().pal.text);
        label_y = std::min(label_y, float(ty(hi)));
    }
    const ImVec2 s = ImGui::CalcTextSize(value_label.c_str());
    dl_->AddText(ImVec2(x - s.x / 2, label_y - s.y - 1), theme().pal.text, value_label.c_str());
}

void PlotFrame::hbar(double yc, double hh, double x, ImU32 colour, const std::string& name, const std::string& value, double lo,
                     double hi) const {
    const float y = float(ty(yc));
    const float x1 = float(tx(x));
    dl_->AddRectFilled(ImVec2(a_.x + 1, y - float(hh)), ImVec2(x1, y + float(hh)), colour);
    float end = x1;
    if (lo >= 0 && hi >= lo) {  // the runs' spread, across the bar's end
        const float a = float(tx(lo)), b = float(tx(hi)), cap = std::max(3.f, float(hh) * 0.8f), w = std::max(1.f, theme().line * 0.8f);
        const ImU32 c = theme().pal.text;
        dl_->AddLine(ImVec2(a, y), ImVec2(b, y), c, w);
        dl_->AddLine(ImVec2(a, y - cap), ImVec2(a, y + cap), c, w);
        dl_->AddLine(ImVec2(b, y - cap), ImVec2(b, y + cap), c, w);
        end = std::max(end, b);
    }
    const ImVec2 ns = ImGui::CalcTextSize(name.c_str()), vs = ImGui::CalcTextSize(value.c_str());
    dl_->AddText(ImVec2(a_.x - ns.x - 6, y - ns.y / 2), theme().pal.text, name.c_str());
    // right of the whisker; inside the bar only where the bar holds it whole, else right of
    // the whisker still (past the frame, never over the bar)
    const bool inside = end + 4 + vs.x >= b_.x && x1 - a_.x > vs.x + 8;
    const float vx = inside ? x1 - vs.x - 4 : end + 4;
    dl_->AddText(ImVec2(vx, y - vs.y / 2), theme().pal.text, value.c_str());
}

void PlotFrame::legend(const std::vector<std::pair<std::string, ImU32>>& entries) const {
    const float fh = ImGui::GetFontSize();
    float w = 0;
    for (const auto& e : entries) w = std::max(w, ImGui::CalcTextSize(e.first.c_str()).x);
    ImVec2 p(b_.x - w - fh * 2.2f, a_.y + 4);
    const Box box{p.x - 4, p.y - 2, b_.x - 2, p.y + fh * 1.25f * float(entries.size()) + 2};
    dl_->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.z, box.w), IM_COL32(255, 255, 255, 230));
    taken_.push_back(box);
    for (const auto& e : entries) {
        dl_->AddRectFilled(ImVec2(p.x, p.y + fh * 0.3f), ImVec2(p.x + fh, p.y + fh * 0.8f), e.second);
        dl_->AddText(ImVec2(p.x + fh * 1.3f, p.y), theme().pal.text, e.first.c_str());
        p.y += fh * 1.25f;
    }
}

}  // namespace tilescope::ui
