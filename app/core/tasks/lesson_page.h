#pragma once
// Every step of a lesson as the hand-out shows it: the traces its steps need (each set-up
// traced once on the emulator, keeping detail for the groups the steps open), where each
// step opens, each question's answer from the trace. `export --html --lesson` embeds it;
// class mode (issue 34, the CLI and the GUI) serves it. InputError if the lesson would take
// too long to trace; Cancelled when progress says so.
#include <nlohmann/json.hpp>

#include "core/tasks/task.h"
#include "core/teach/lesson.h"

namespace tilescope::tasks {

nlohmann::json lesson_page_data(const Lesson& lesson, const TaskProgress& progress = {});

}  // namespace tilescope::tasks
