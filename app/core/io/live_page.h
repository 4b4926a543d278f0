#pragma once
// Class mode's student page (issue 34): the hand-out (assets/handout) in live mode. The
// class server sends it as a shell without data and without inline script (its
// Content-Security-Policy allows scripts from the server only): live.js joins the class,
// fetches the lesson's frames once, puts them where the hand-out reads its data, then
// loads handout.js and follows the instructor.
#include <string>
#include <string_view>

namespace tilescope {

std::string live_shell_page();        // handout.html: the style inline, data null, <script src="live.js">
std::string_view handout_script();     // assets/handout/handout.js
std::string_view live_script();        // assets/handout/live.js

}  // namespace tilescope
