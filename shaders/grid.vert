#version 330 core
// One quad per matrix: the cells are painted by the fragment shader from a texture of
// per-cell colours, so 256x256 costs the same as 8x8.
uniform vec4 u_rect;       // x0, y0, x1, y1 in framebuffer pixels, y down
uniform vec2 u_viewport;   // framebuffer size in pixels
out vec2 v_uv;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 p = mix(u_rect.xy, u_rect.zw, corner);
    v_uv = corner;
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
