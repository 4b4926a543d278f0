#include "gfx/damage_renderer.h"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tilescope::gfx {
namespace {

uint64_t fnv(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

// Hashes 8 bytes at a time: the vertex buffers are tens of KB per list.
uint64_t fast_hash(uint64_t h, const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        std::memcpy(&v, p + i, 8);
        h = (h ^ v) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return fnv(h, p + i, n - i);
}

struct Box {
    float x0, y0, x1, y1;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    bool overlaps(const Box& o) const { return !(o.x0 >= x1 || o.x1 <= x0 || o.y0 >= y1 || o.y1 <= y0); }
    void add(const Box& o) {
        if (o.empty()) return;
        if (empty()) {
            *this = o;
            return;
        }
        x0 = std::min(x0, o.x0);
        y0 = std::min(y0, o.y0);
        x1 = std::max(x1, o.x1);
        y1 = std::max(y1, o.y1);
    }
};

// What one list draws (a hash of its vertices, indices, commands and grid textures) and
// where: its clip rectangles bound everything it can touch.
DamageRenderer::ListState describe(const ImDrawList* cl, const ImDrawData* dd) {
    DamageRenderer::ListState s;
    s.name = cl->_OwnerName ? cl->_OwnerName : "";
    uint64_t hash = 1469598103934665603ull;
    hash = fast_hash(hash, cl->VtxBuffer.Data, size_t(cl->VtxBuffer.Size) * sizeof(ImDrawVert));
    hash = fast_hash(hash, cl->IdxBuffer.Data, size_t(cl->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : cl->CmdBuffer) {
        hash = fnv(hash, &c.ClipRect, sizeof c.ClipRect);
        hash = fnv(hash, &c.TextureId, sizeof c.TextureId);
        hash = fnv(hash, &c.ElemCount, sizeof c.ElemCount);
        if (c.UserCallback && c.UserCallback != ImDrawCallback_ResetRenderState) {
            const uint64_t sig = grid_callback_signature(c.UserCallbackData);
            hash = fnv(hash, &sig, sizeof sig);
        }
    }
    s.hash = hash;
    Box b{0, 0, 0, 0};
    for (const ImDrawCmd& c : cl->CmdBuffer) b.add(Box{c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w});
    s.x0 = std::max(0.f, b.x0 - dd->DisplayPos.x);
    s.y0 = std::max(0.f, b.y0 - dd->DisplayPos.y);
    s.x1 = std::min(dd->DisplaySize.x, b.x1 - dd->DisplayPos.x);
    s.y1 = std::min(dd->DisplaySize.y, b.y1 - dd->DisplayPos.y);
    return s;
}

// Clears `damage` and repaints, in order, every list that reaches into it, clipped to it.
void repaint(ImDrawData* dd, const std::vector<DamageRenderer::ListState>& lists, const Box& damage, int w, int h, uint32_t clear_rgba) {
    const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
    glViewport(0, 0, w, h);
    glEnable(GL_SCISSOR_TEST);
    glScissor(int(damage.x0 * sx), int(h - damage.y1 * sy), int((damage.x1 - damage.x0) * sx), int((damage.y1 - damage.y0) * sy));
    glClearColor((clear_rgba & 0xff) / 255.f, ((clear_rgba >> 8) & 0xff) / 255.f, ((clear_rgba >> 16) & 0xff) / 255.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    std::vector<ImDrawList*> draw;
    std::vector<std::vector<ImVec4>> saved;
    const ImVec2 o = dd->DisplayPos;
    for (int l = 0; l < dd->CmdListsCount; ++l) {
        const DamageRenderer::ListState& s = lists[size_t(l)];
        if (!Box{s.x0, s.y0, s.x1, s.y1}.overlaps(damage)) continue;
        ImDrawList* cl = dd->CmdLists[l];
        std::vector<ImVec4> keep;
        for (ImDrawCmd& c : cl->CmdBuffer) {
            keep.push_back(c.ClipRect);
            c.ClipRect.x = std::max(c.ClipRect.x, damage.x0 + o.x);
            c.ClipRect.y = std::max(c.ClipRect.y, damage.y0 + o.y);
            c.ClipRect.z = std::min(c.ClipRect.z, damage.x1 + o.x);
            c.ClipRect.w = std::min(c.ClipRect.w, damage.y1 + o.y);
        }
        saved.push_back(std::move(keep));
        draw.push_back(cl);
    }
    ImDrawData part = *dd;
    part.CmdLists = draw.data();
    part.CmdListsCount = int(draw.size());
    part.TotalIdxCount = part.TotalVtxCount = 0;
    for (ImDrawList* cl : draw) {
        part.TotalIdxCount += cl->IdxBuffer.Size;
        part.TotalVtxCount += cl->VtxBuffer.Size;
    }
    if (!draw.empty()) ImGui_ImplOpenGL3_RenderDrawData(&part);
    for (size_t i = 0; i < draw.size(); ++i)
        for (int c = 0; c < draw[i]->CmdBuffer.Size; ++c) draw[i]->CmdBuffer[c].ClipRect = saved[i][size_t(c)];
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace

DamageRenderer::Region DamageRenderer::render(ImDrawData* dd, int w, int h, uint32_t clear_rgba, bool partial) {
    if (!partial || w != w_ || h != h_) full_ = true;
    w_ = w;
    h_ = h;
    if (clear_rgba != clear_) full_ = true;
    clear_ = clear_rgba;
    std::vector<ListState> now;
    for (int l = 0; l < dd->CmdListsCount; ++l) now.push_back(describe(dd->CmdLists[l], dd));

    // The damaged region: boxes of lists that changed, old and new.
    Box damage{0, 0, 0, 0};
    bool same_lists = !full_ && now.size() == lists_.size();
    for (size_t i = 0; same_lists && i < now.size(); ++i) same_lists = now[i].name == lists_[i].name;
    if (!same_lists) {
        damage = Box{0, 0, dd->DisplaySize.x, dd->DisplaySize.y};
    } else {
        for (size_t i = 0; i < now.size(); ++i)
            if (now[i].hash != lists_[i].hash) {
                damage.add(Box{now[i].x0, now[i].y0, now[i].x1, now[i].y1});
                damage.add(Box{lists_[i].x0, lists_[i].y0, lists_[i].x1, lists_[i].y1});
            }
    }
    lists_ = std::move(now);
    full_ = false;
    damage_ = damage.empty() ? 0.f : (damage.x1 - damage.x0) * (damage.y1 - damage.y0) / (dd->DisplaySize.x * dd->DisplaySize.y);

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (damage.empty()) return Region{};
    damage = Box{std::floor(damage.x0), std::floor(damage.y0), std::ceil(damage.x1), std::ceil(damage.y1)};
    repaint(dd, lists_, damage, w, h, clear_rgba);
    const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
    return Region{int(damage.x0 * sx), int(h - damage.y1 * sy), int((damage.x1 - damage.x0) * sx), int((damage.y1 - damage.y0) * sy)};
}

}  // namespace tilescope::gfx
