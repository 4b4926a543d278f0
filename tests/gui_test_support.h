#pragma once
// What GUI tests share: an Xvfb on a free display for the whole test program, PNGs read
// back as pixels, and running the real binary.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <stb/stb_image.h>

namespace tilescope::testing {

// Starts Xvfb on the first free display number from 140 and points DISPLAY at it.
class XvfbEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        namespace fs = std::filesystem;
        for (int d = 140; d < 200; ++d) {
            if (fs::exists("/tmp/.X" + std::to_string(d) + "-lock") || fs::exists("/tmp/.X11-unix/X" + std::to_string(d))) continue;
            const pid_t pid = fork();
            if (pid == 0) {
                const std::string disp = ":" + std::to_string(d);
                std::freopen("/dev/null", "w", stderr);
                execlp("Xvfb", "Xvfb", disp.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp", (char*)nullptr);
                _exit(127);
            }
            for (int i = 0; i < 100; ++i) {
                if (fs::exists("/tmp/.X11-unix/X" + std::to_string(d))) {
                    pid_ = pid;
                    display() = ":" + std::to_string(d);
                    setenv("DISPLAY", display().c_str(), 1);
                    return;
                }
                int status = 0;
                if (waitpid(pid, &status, WNOHANG) == pid) break;  // it lost a race for the number
                usleep(50000);
            }
            kill(pid, SIGTERM);
            waitpid(pid, nullptr, 0);
        }
    }
    void TearDown() override {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
    }
    static std::string& display() {
        static std::string d;
        return d;
    }

private:
    pid_t pid_ = -1;
};

struct Image {
    int w = 0, h = 0;
    std::vector<unsigned char> px;
    std::array<int, 3> at(float x, float y) const {
        const size_t i = (size_t(int(y)) * w + size_t(int(x))) * 3;
        return {px[i], px[i + 1], px[i + 2]};
    }
};

inline Image load_png(const std::string& path) {
    Image img;
    int n = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &n, 3);
    if (data) {
        img.px.assign(data, data + size_t(img.w) * img.h * 3);
        stbi_image_free(data);
    }
    return img;
}

// Exit status of a shell command (-1 when it did not exit).
inline int run(const std::string& cmd) {
    const int s = std::system(cmd.c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}

}  // namespace tilescope::testing
