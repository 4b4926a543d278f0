#pragma once
// F1: every key the GUI answers to, over the view, until F1 or Escape closes it.
namespace tilescope::ui {

class HelpOverlay {
public:
    void toggle() { open_ = !open_; }
    bool open() const { return open_; }
    void draw();

private:
    bool open_ = false;
};

}  // namespace tilescope::ui
