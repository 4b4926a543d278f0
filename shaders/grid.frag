#version 330 core
// Cell colours from a rows x cols RGBA texture; thin lines between cells when cells are
// big enough to see them, thicker lines every u_tile cells (the TS x TS tiles).
uniform sampler2D u_cells;
uniform vec2 u_size;        // cols, rows
uniform vec2 u_cell_px;     // on-screen size of one cell in pixels
uniform float u_tile;       // tile size in cells (0: no tile lines)
uniform vec4 u_line;        // grid line colour
uniform vec4 u_tile_line;   // tile line colour
in vec2 v_uv;
out vec4 frag;
void main() {
    vec2 cell_f = v_uv * u_size;
    ivec2 cell = ivec2(min(floor(cell_f), u_size - 1.0));
    vec4 c = texelFetch(u_cells, cell, 0);
    vec2 in_cell = (cell_f - vec2(cell)) * u_cell_px;   // pixels from the cell's top-left
    if (u_cell_px.x >= 5.0 && (in_cell.x < 1.0 || in_cell.y < 1.0))
        c = mix(c, u_line, u_line.a);
    if (u_tile > 0.0) {
        vec2 tile_px = u_cell_px * u_tile;
        vec2 in_tile = mod(cell_f, vec2(u_tile)) * u_cell_px;
        float w = tile_px.x >= 24.0 ? 2.0 : 1.0;
        if (tile_px.x >= 6.0 && (in_tile.x < w || in_tile.y < w))
            c = mix(c, u_tile_line, u_tile_line.a);
    }
    frag = vec4(c.rgb, 1.0);
}
