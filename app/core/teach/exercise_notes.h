#pragma once
// What each exercise (kernels/exercises/) is for: what a student should find, the
// diagnostic the emulator gives for it, and the set-up that shows it.
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel/launch_config.h"

namespace tilescope {

struct ExerciseNote {
    std::string kernel;      // the exercise's catalog name
    std::string find;        // what a student should find, in a sentence or two
    std::string diagnostic;  // the diagnostic kind that names the mistake ("race", "divergence", ...)
    ProblemSize size;        // a size that shows it
    int tile = 8;
    bool uninitialized = false;  // needs Oclgrind's uninitialised-value check
};

// Every exercise's note, in catalog order.
const std::vector<ExerciseNote>& exercise_notes();
// The note for `kernel`, or nullptr when it is not an exercise.
const ExerciseNote* find_exercise_note(std::string_view kernel);

}  // namespace tilescope
