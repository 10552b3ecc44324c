// The colour quantity, the colour scale and the SVG heatmap shared by `bias --plot` and
// `bias --report` (see heatmap.hpp for the definitions).
#include "heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace shufl::render {

namespace {

constexpr const char* kFont = R"(font-family="DejaVu Sans, Verdana, sans-serif")";

// Width of text in pixels, generously estimated (DejaVu Sans averages about 0.6 em per
// character); panels are sized from it so that titles never overlap or get clipped.
double text_width(std::string_view s, double font_size) {
  std::size_t chars = 0;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
  }
  return 0.62 * font_size * static_cast<double>(chars);
}

// Tick step for n labels `cell` pixels apart: every label when they fit, else 5, 10, 20, 50...
std::size_t tick_step(std::size_t n, double cell) {
  if (n <= 12 || cell >= 20) return 1;
  for (const std::size_t step : {2u, 5u, 10u, 20u, 25u, 50u, 100u}) {
    if (cell * static_cast<double>(step) >= 22) return step;
  }
  return 100;
}

std::string colour_bar_at(double x, double y, double height, const std::string& id, double min_font = 0) {
  std::string out;
  out += fmt::format(R"(<defs><linearGradient id="{}" x1="0" y1="1" x2="0" y2="0">)", id);
  for (const auto& s : heat_stops) {
    out += fmt::format(R"(<stop offset="{:.4f}" stop-color="#{:02x}{:02x}{:02x}"/>)",
                       (s.z + heat_z_clip) / (2 * heat_z_clip), s.r, s.g, s.b);
  }
  out += "</linearGradient></defs>\n";
  out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}" font-weight="bold">z</text>)" "\n", x, y - 8, kFont, std::max(12.0, min_font));
  out += fmt::format(R"~(<rect class="colour-bar" x="{:.1f}" y="{:.1f}" width="16" height="{:.1f}" fill="url(#{})" stroke="#444" stroke-width="0.5"/>)~" "\n",
                     x, y, height, id);
  for (int z = -4; z <= 4; z += 2) {
    const double ty = y + height * (heat_z_clip - z) / (2 * heat_z_clip);
    out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#444" stroke-width="1"/>)", x + 16, ty, x + 20, ty);
    const std::string label = z == 4 ? "\u2265 4 (more)" : z == -4 ? "\u2264 \u22124 (fewer)" : z < 0 ? fmt::format("\u2212{}", -z) : fmt::format("{}", z);
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}">{}</text>)" "\n", x + 23, ty + 4, kFont,
                       std::max(11.0, min_font), label);
  }
  return out;
}

}  // namespace

double cell_z(double observed, double trials, double p) noexcept {
  const double expected = trials * p;
  const double variance = expected * (1 - p);
  if (!(variance > 0)) return 0;
  return (observed - expected) / std::sqrt(variance);
}

std::string heat_colour(double z) {
  if (std::isnan(z)) z = 0;
  z = std::clamp(z, -heat_z_clip, heat_z_clip);
  std::size_t k = 0;
  while (k + 2 < heat_stops.size() && z > heat_stops[k + 1].z) ++k;
  const auto& a = heat_stops[k];
  const auto& b = heat_stops[k + 1];
  const double t = (z - a.z) / (b.z - a.z);
  const auto mix = [t](std::uint8_t u, std::uint8_t v) {
    return static_cast<int>(std::lround(u + (static_cast<double>(v) - u) * t));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
}

std::string heat_caption(std::size_t n) {
  return fmt::format("colour: each cell's z = (O \u2212 E) / \u221a(E (1 \u2212 1/{0})), O observed, E = trials/{0} expected; "
                     "clipped at \u00b14; white = as expected", n);
}

std::string heat_caption_rows() {
  return "colour: each cell's z = (O \u2212 E) / \u221a(E (1 \u2212 p)), O observed, E = trials \u00b7 p expected, "
         "p = the row's share of the deck; clipped at \u00b14; white = as expected";
}

std::string colour_bar_svg(double height, const std::string& id) {
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="100" height="{:.0f}">)" "\n{}</svg>\n",
                     height + 60, colour_bar_at(4, 24, height, id));
}

std::string heatmap_caption(const std::vector<heat_panel>& panels) {
  return !panels.empty() && !panels.front().row_p.empty() ? heat_caption_rows()
                                                           : heat_caption(panels.empty() ? 0 : panels.front().n);
}

std::string heatmap_svg(const std::string& header, const std::vector<heat_panel>& panels, const std::string& id,
                        const heat_style& style) {
  std::string body;
  const double top = header.empty() ? 8 : 34;
  double x = 12;
  double bottom = top + 120;
  double max_grid = 0;
  std::size_t max_lines = 0;
  for (const auto& p : panels) max_lines = std::max(max_lines, p.lines.size());
  const double grid_top = top + 20 + 16 * static_cast<double>(max_lines) + 8;
  for (std::size_t k = 0; k < panels.size(); ++k) {
    const auto& p = panels[k];
    const std::size_t n = p.n;
    const std::size_t rows = p.rows == 0 ? n : p.rows;
    // Rows with labels (`bias --input` items, audit's suits and ranks) get a readable label each
    // up to 64 rows (cells of at least 10 px); square panels: n cells across grid_width;
    // rectangular ones also at most grid_width tall.
    const bool labelled = p.row_labels.size() == rows;
    const bool every_row = labelled && rows <= 64;
    const double cell =
        std::clamp(std::floor(p.grid_width / static_cast<double>(std::max(n, rows))), every_row ? 10.0 : 4.0, 40.0);
    const double grid = cell * static_cast<double>(n);
    const double grid_h = cell * static_cast<double>(rows);
    double label_w = 0;
    for (const auto& l : p.row_labels) label_w = std::max(label_w, text_width(l, 10));
    const double left = std::max(40.0, label_w + 24);  // row ticks and the row axis label
    double width = left + grid;
    width = std::max(width, text_width(p.title, 13) + 4);
    for (const auto& line : p.lines) width = std::max(width, text_width(line, 11) + 4);
    body += fmt::format(R"(<g class="panel" data-panel="{}">)" "\n", k);
    body += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}" font-weight="bold">{}</text>)" "\n", x,
                        top + 14, kFont, std::max(13.0, style.min_font), xml_escape(p.title));
    for (std::size_t l = 0; l < p.lines.size(); ++l) {
      body += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}">{}</text>)" "\n", x,
                          top + 30 + 16 * static_cast<double>(l), kFont, std::max(11.0, style.min_font), xml_escape(p.lines[l]));
    }
    const double gx = x + left;
    const double gy = grid_top;
    for (std::size_t e = 0; e < rows; ++e) {
      const double prob = e < p.row_p.size() ? p.row_p[e] : 1.0 / static_cast<double>(n);
      for (std::size_t q = 0; q < n; ++q) {
        const double z = cell_z(static_cast<double>(p.counts[e * n + q]), p.trials, prob);
        const std::string name = e < p.row_labels.size() ? xml_escape(p.row_labels[e]) : std::to_string(e + 1);
        body += fmt::format(
            R"(<rect class="cell" data-panel="{}" data-card="{}" data-position="{}"{} x="{:.1f}" y="{:.1f}" width="{}" height="{}" fill="{}"><title>{} {}, position {}: {} (z = {:.2f})</title></rect>)" "\n",
            k, e + 1, q + 1, labelled ? fmt::format(R"( data-label="{}")", name) : std::string(),
            gx + cell * static_cast<double>(q), gy + cell * static_cast<double>(e), cell, cell, heat_colour(z),
            xml_escape(p.row_axis), name, q + 1, p.counts[e * n + q], z);
      }
    }
    body += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{}" height="{}" fill="none" stroke="#444" stroke-width="0.75"/>)" "\n",
                        gx, gy, grid, grid_h);
    const std::size_t step = tick_step(n, cell);
    const std::size_t row_step = every_row ? 1 : tick_step(rows, cell);
    for (std::size_t t = 1; t <= rows; ++t) {
      if (t != 1 && t % row_step != 0) continue;
      const double c = cell * (static_cast<double>(t) - 0.5);
      const std::string label = t <= p.row_labels.size() ? xml_escape(p.row_labels[t - 1]) : std::to_string(t);
      body += fmt::format(R"(<text class="row-label" x="{:.1f}" y="{:.1f}" {} font-size="{}" text-anchor="end">{}</text>)" "\n",
                          gx - 3, gy + c + 3.5, kFont, std::max(every_row ? std::min(10.0, cell) : 10.0, style.min_font), label);
    }
    for (std::size_t t = 1; t <= n; ++t) {
      if (t != 1 && t % step != 0) continue;
      const double c = cell * (static_cast<double>(t) - 0.5);
      body += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}" text-anchor="middle">{}</text>)" "\n",
                          gx + c, gy + grid_h + 12, kFont, std::max(10.0, style.min_font), t);
    }
    body += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" {} font-size="{}" text-anchor="middle">position</text>)" "\n",
                        gx + grid / 2, gy + grid_h + 27, kFont, std::max(11.0, style.min_font));
    body += fmt::format(R"~(<text transform="translate({:.1f},{:.1f}) rotate(-90)" {} font-size="{}" text-anchor="middle">{}</text>)~" "\n",
                        x + 12, gy + grid_h / 2, kFont, std::max(11.0, style.min_font), xml_escape(p.row_axis));
    body += "</g>\n";
    x += width + 28;
    max_grid = std::max(max_grid, grid_h);
    bottom = std::max(bottom, gy + grid_h + 34);
  }
  const double bar_height = std::max(max_grid, 140.0);
  body += colour_bar_at(x, grid_top, bar_height, id, style.min_font);
  x += 100;
  bottom = std::max(bottom, grid_top + bar_height + 30);
  const std::string caption = style.caption ? heatmap_caption(panels) : std::string();
  if (style.caption) {
    body += fmt::format(R"(<text x="12" y="{:.1f}" {} font-size="11" fill="#333">{}</text>)" "\n", bottom + 14, kFont,
                        xml_escape(caption));
  } else {
    bottom -= 20;
  }
  const double width = std::max(x, text_width(caption, 11) + 24);
  std::string head;
  if (!header.empty()) {
    head = fmt::format(R"(<text x="12" y="20" {} font-size="13">{}</text>)" "\n", kFont, xml_escape(header));
  }
  return fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" viewBox="0 0 {:.0f} {:.0f}">)" "\n"
                     R"(<rect width="100%" height="100%" fill="white"/>)" "\n{}{}</svg>\n",
                     std::max(width, text_width(header, 13) + 24), bottom + 26,
                     std::max(width, text_width(header, 13) + 24), bottom + 26, head, body);
}

}  // namespace shufl::render
