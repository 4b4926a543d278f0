#include "gfx/screenshot.h"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace tilescope::gfx {

bool framebuffer_png(int w, int h, std::string& png, std::string& error, int max_width) {
    if (w <= 0 || h <= 0) {
        error = "empty framebuffer";
        return false;
    }
    std::vector<unsigned char> px(size_t(w) * h * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
    // GL rows run bottom-up; PNG rows top-down.
    std::vector<unsigned char> img(px.size());
    for (int y = 0; y < h; ++y)
        std::copy_n(&px[size_t(h - 1 - y) * w * 3], size_t(w) * 3, &img[size_t(y) * w * 3]);
    int ow = w, oh = h;
    if (max_width > 0 && w > max_width) {
        ow = max_width;
        oh = int(double(h) * max_width / w + 0.5);
        std::vector<unsigned char> small(size_t(ow) * oh * 3);
        for (int y = 0; y < oh; ++y) {
            const int sy0 = y * h / oh, sy1 = std::max(sy0 + 1, (y + 1) * h / oh);
            for (int x = 0; x < ow; ++x) {
                const int sx0 = x * w / ow, sx1 = std::max(sx0 + 1, (x + 1) * w / ow);
                for (int c = 0; c < 3; ++c) {
                    unsigned sum = 0, n = 0;
                    for (int yy = sy0; yy < sy1; ++yy)
                        for (int xx = sx0; xx < sx1; ++xx, ++n) sum += img[(size_t(yy) * w + xx) * 3 + c];
                    small[(size_t(y) * ow + x) * 3 + c] = (unsigned char)(sum / n);
                }
            }
        }
        img.swap(small);
    }
    stbi_write_png_compression_level = 9;  // docs screenshots stay small
    // Encoded in memory; the caller writes it through the one output writer (a fresh O_EXCL
    // temporary name, never a fixed NAME.tmp a planted link could redirect).
    png.clear();
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, ow, oh, 3, img.data(), ow * 3)) {
        error = "cannot encode the PNG";
        return false;
    }
    return true;
}

}  // namespace tilescope::gfx
