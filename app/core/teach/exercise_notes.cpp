#include "core/teach/exercise_notes.h"

#include <nlohmann/json.hpp>

#include "core/kernel/catalog.h"

namespace tilescope {

const std::vector<ExerciseNote>& exercise_notes() {
    static const std::vector<ExerciseNote> notes = [] {
        std::vector<ExerciseNote> out;
        const auto doc = nlohmann::json::parse(embedded_text("kernels/exercises/exercises.json"));
        for (const auto& r : doc.at("rungs")) {
            ExerciseNote n;
            n.kernel = r.at("name").get<std::string>();
            n.find = r.value("find", "");
            n.diagnostic = r.value("diagnostic", "");
            n.size = parse_size(r.value("size", std::string("32")), "exercises.json size");
            n.tile = r.value("tile", 8);
            n.uninitialized = r.value("uninitialized", false);
            out.push_back(std::move(n));
        }
        return out;
    }();
    return notes;
}

const ExerciseNote* find_exercise_note(std::string_view kernel) {
    for (const ExerciseNote& n : exercise_notes())
        if (n.kernel == kernel) return &n;
    return nullptr;
}

}  // namespace tilescope
