#pragma once
// What GUI tests share: an Xvfb on a free display for the whole test program, PNGs read
// back as pixels, and running the real binary.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <array>
#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <stb/stb_image.h>

namespace tilescope::testing {

// Starts an Xvfb of its own and points DISPLAY at it. Xvfb picks a free display number
// itself and writes it to a pipe (-displayfd): test programs running side by side never
// share one (choosing a number by looking for lock files raced, and the loser's GUI
// lost its display when the winner's Xvfb went away). -noreset: an X server resets when its
// last client leaves, and a GUI that connects during the reset is refused ("cannot open the
// display"; seen with two GUIs started one after another on one server, session 53).
class XvfbEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        int fds[2];
        if (pipe(fds) != 0) return;
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            std::freopen("/dev/null", "w", stderr);
            const std::string fd = std::to_string(fds[1]);
            execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset", (char*)nullptr);
            _exit(127);
        }
        close(fds[1]);
        std::string number;
        char c = 0;
        while (read(fds[0], &c, 1) == 1 && c != '\n') number += c;  // blocks until Xvfb is ready (or gone)
        close(fds[0]);
        if (pid < 0 || number.empty() || number.find_first_not_of("0123456789") != std::string::npos) {
            if (pid > 0) {
                kill(pid, SIGTERM);
                waitpid(pid, nullptr, 0);
            }
            return;
        }
        pid_ = pid;
        display() = ":" + number;
        setenv("DISPLAY", display().c_str(), 1);
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

// Standard output of a shell command, without trailing blanks.
inline std::string output_of(const std::string& cmd) {
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[256];
        while (fgets(buf, sizeof buf, p)) out += buf;
        pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

// The live GUI, started in the background with a control file.
class LiveGui {
public:
    LiveGui(const std::string& bin, const std::filesystem::path& dir, const std::string& options) : dir_(dir) {
        pid_ = fork();
        if (pid_ == 0) {
            const int fd = open((dir / "gui.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fd, 1);
            dup2(fd, 2);
            const std::string cmd = bin + " gui" + options + " --control " + (dir / "control").string();
            execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), (char*)nullptr);
            _exit(127);
        }
    }
    ~LiveGui() {
        if (alive()) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
    }
    bool alive() {
        if (exited_) return false;
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) exited_ = true;
        return !exited_;
    }
    std::string log() const {
        std::ifstream in(dir_ / "gui.log");
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    // Asks for a screenshot through the control file; true once the PNG is there.
    bool screenshot(const std::filesystem::path& png, double timeout_s = 60) {
        {
            std::ofstream(dir_ / "control.tmp") << "screenshot " << png.string() << "\n";
        }
        std::filesystem::rename(dir_ / "control.tmp", dir_ / "control");
        for (double t = 0; t < timeout_s && alive(); t += 0.1) {
            if (std::filesystem::exists(png)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    // Asks the window to close through the control file; true once the process has exited.
    bool quit(double timeout_s = 30) {
        {
            std::ofstream(dir_ / "control.tmp") << "quit\n";
        }
        std::filesystem::rename(dir_ / "control.tmp", dir_ / "control");
        for (double t = 0; t < timeout_s; t += 0.1) {
            if (!alive()) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    pid_t pid() const { return pid_; }

private:
    std::filesystem::path dir_;
    pid_t pid_ = -1;
    bool exited_ = false;
};

// Exit status of a shell command (-1 when it did not exit).
inline int run(const std::string& cmd) {
    const int s = std::system(cmd.c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}

}  // namespace tilescope::testing
