#pragma once
// Small plots painted with ImDrawList (no ImPlot package exists): a frame with axes,
// units and ticks, linear or log scales, bars, lines, labelled points and a legend.
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace tilescope::ui {

// An axis-aligned box in screen pixels: (x, y) top-left, (z, w) bottom-right.
using Box = ImVec4;
bool overlaps(const Box& a, const Box& b);

// Places each label (its size) near its anchor point: beside, above or below it, then
// farther out; inside `bounds`, clear of `obstacles` and of the labels placed before it.
// When no spot is clear, the one overlapping least. Pure geometry (tested headless).
std::vector<Box> place_labels(const std::vector<ImVec2>& anchors, const std::vector<ImVec2>& sizes, const std::vector<Box>& obstacles,
                              const Box& bounds, float gap);

// Which tick labels to print: centred at `centres` with `widths`, left to right, each kept
// label at least `gap` px clear of the one before ("600 8001000" becomes "600  1000").
// The first and the last are kept; a label between them that would touch a kept one is
// dropped (its tick mark stays). Pure geometry (tested headless).
std::vector<size_t> spaced_tick_labels(const std::vector<float>& centres, const std::vector<float>& widths, float gap);

// Lines of `text` at most `width` wide (as `measure` gives widths), broken only at spaces
// outside a short parenthesised tuple and not before one: "Block (1,1)" stays whole where
// ImGui's own wrapping breaks after the comma ("Block (1,\n1)"). A piece wider than the
// line is a line of its own. Pure (tested headless with a made-up measure).
std::vector<std::string> wrap_keeping_tuples(const std::string& text, float width,
                                             const std::function<float(const std::string&)>& measure);
// ImGui::TextWrapped's equivalent over wrap_keeping_tuples, to the content region's right edge.
void text_wrapped_keeping_tuples(const std::string& text);
// printf-style, in place of ImGui::TextWrapped, whose wrapping also breaks after a full stop or a
// comma: "80.3 GFLOP/s" became "80." and "3 GFLOP/s" on two lines at 1280x720. Breaks at spaces only.
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);

// A point with its name, for PlotFrame::points().
struct LabelledPoint {
    double x = 0, y = 0;
    ImU32 colour = 0;
    std::string label;
};

class PlotFrame {
public:
    // Paints the frame and axes into the rectangle; titles include units.
    PlotFrame(ImDrawList* dl, ImVec2 p0, ImVec2 p1, const std::string& title, const std::string& x_title,
              const std::string& y_title, double x0, double x1, double y0, double y1, bool log_x, bool log_y,
              float left_margin_em = 3.6f);  // room for y tick labels
    ImVec2 map(double x, double y) const;
    void x_ticks(const std::vector<double>& at, const std::vector<std::string>& labels) const;
    void y_ticks_auto() const;
    void x_ticks_auto() const;
    void line(const std::vector<double>& xs, const std::vector<double>& ys, ImU32 colour, float thickness, bool points = true) const;
    // Points with their names; every name clear of the others, of every point, of the
    // frame's own texts (title, axis titles, tick labels, text()) and of `keep_clear` (marks the
    // caller draws afterwards, such as the hierarchical roofline's rings and their lines).
    void points(const std::vector<LabelledPoint>& points, const std::vector<Box>& keep_clear = {}) const;
    // Text at a screen position that later labels keep clear of.
    void text(ImVec2 at, ImU32 colour, const std::string& text) const;
    // Whether `box` is clear of every text drawn so far (titles, ticks, text(), labels).
    bool clear_of_texts(const Box& box) const;
    // `lo`..`hi` (when both are given, lo <= hi): a whisker over the bar, the spread of the
    // runs behind its value; the value label clears it.
    void bar(double x_center, double half_width_px, double y, ImU32 colour, const std::string& value_label, double lo = -1,
             double hi = -1) const;
    // A horizontal bar from x=0 at category row `y_center`, named on the left.
    void hbar(double y_center, double half_height_px, double x, ImU32 colour, const std::string& name,
              const std::string& value_label, double lo = -1, double hi = -1) const;
    // A vertical whisker at x from y_lo to y_hi with caps (a line point's spread).
    void whisker(double x, double y_lo, double y_hi, ImU32 colour) const;
    void legend(const std::vector<std::pair<std::string, ImU32>>& entries) const;
    ImVec2 plot_min() const { return a_; }
    ImVec2 plot_max() const { return b_; }

private:
    double tx(double x) const;
    double ty(double y) const;
    ImDrawList* dl_;
    ImVec2 a_, b_;  // the plotting area
    double x0_, x1_, y0_, y1_;
    bool lx_, ly_;
    void add_text(ImVec2 at, ImU32 colour, const std::string& text) const;
    mutable std::vector<Box> taken_;  // texts drawn so far: labels keep clear of them
};

std::string short_number(double v);  // 1.5, 12, 340, 1.2k

}  // namespace tilescope::ui
