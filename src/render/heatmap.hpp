// The one colour quantity and colour scale of every picture shufl draws
// (the --plot SVG, the heatmaps and histograms of bias's and audit's --report pages), and the SVG
// heatmap itself.
//
// Quantity: each cell's z-score z = (O − E) / sqrt(E (1 − p)), where p is the cell's probability
// under a uniform shuffle (1/n for a card × position cell, 1/n! for an order), E = T p its
// expected count and O its observed count. Under a uniform shuffle O is Binomial(T, p), so z has
// mean 0 and variance 1 whatever n and T (the terminal heatmap of the text report uses the same
// z). Pearson's residual (O − E)/sqrt(E) is z · sqrt(1 − p).
// Scale: z clipped at ±4, diverging, white at 0: ColorBrewer's 7-class RdBu (C. Brewer,
// colorbrewer2.org) with its centre made white, stops at z = −4, −8/3, −4/3, 0, 4/3, 8/3, 4:
// #2166ac #67a9cf #d1e5f0 #ffffff #fddbc7 #ef8a62 #b2182b, linear in sRGB between stops.
// Blue: fewer than expected; red: more than expected.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text_escape.hpp"

namespace shufl::render {

/// |z| beyond this gets the end colour of the scale.
inline constexpr double heat_z_clip = 4;

/// The scale's stops: z and the sRGB colour at z (see the file comment).
struct heat_stop {
  double z;
  std::uint8_t r, g, b;
};
inline constexpr std::array<heat_stop, 7> heat_stops{{{-4, 0x21, 0x66, 0xac},
                                                      {-8.0 / 3, 0x67, 0xa9, 0xcf},
                                                      {-4.0 / 3, 0xd1, 0xe5, 0xf0},
                                                      {0, 0xff, 0xff, 0xff},
                                                      {4.0 / 3, 0xfd, 0xdb, 0xc7},
                                                      {8.0 / 3, 0xef, 0x8a, 0x62},
                                                      {4, 0xb2, 0x18, 0x2b}}};

/// The cell's z-score (O − E) / sqrt(E (1 − p)) with E = trials · p; 0 when E (1 − p) is 0.
/// `p` in (0, 1]: 1/n for a position cell, 1/n! for an order.
double cell_z(double observed, double trials, double p) noexcept;

/// The colour of z on the scale, as "#rrggbb" (z clipped at ±heat_z_clip; NaN is white).
std::string heat_colour(double z);

/// How the quantity and scale are described on every picture (one line, plain text).
std::string heat_caption(std::size_t n);
/// The same for a panel whose rows have their own probability p (heat_panel::row_p).
std::string heat_caption_rows();

// xml_escape (text_escape.hpp) escapes every text of a picture.

/// One panel of the heatmap: a card (row) × position (column) matrix of counts.
struct heat_panel {
  std::string title;               ///< The algorithm's label (plain text; escaped when drawn).
  std::vector<std::string> lines;  ///< Lines under the title: verdict, deciding test (plain text).
  std::size_t n = 0;               ///< Cards.
  double trials = 0;               ///< Permutations counted (each row and column sums to it).
  std::vector<std::uint64_t> counts;  ///< n × n, counts[card * n + position].
  // Rectangular panels (audit's suit/rank × position tables); the defaults keep n × n.
  std::size_t rows = 0;                ///< Rows (0: n); counts is then rows × n.
  std::vector<double> row_p;           ///< Per row: a cell's probability (empty: 1/n each).
  std::vector<std::string> row_labels; ///< Row tick labels (`bias --input` items "As", "2s", ...;
                                       ///< audit's suits and ranks; plain text, escaped when drawn).
                                       ///< Empty: 1, 2, ...
  std::string row_axis = "card";       ///< The rows' axis label.
  double grid_width = 260;             ///< Target width (and most height) of the grid in pixels (cells 4..40 px).
};

/// An SVG picture: `header` on top, the panels side by side (each with its title and lines, the
/// cells coloured by heat_colour(cell_z(O, T, 1/n)), axes "card" and "position" with numbered
/// ticks), a colour bar with its numbers on the right and the caption below. Every cell is a
/// `<rect class="cell" data-panel="k" data-card="c" data-position="p">` (1-based card and
/// position; with labels also `data-label="As"`) so that tests can find it; rows are ticked
/// with the labels when the panel has them (every row up to 64 cards, cells then at least 10 px). Sized so that titles fit for any n in 2..255.
/// `id` is the colour bar gradient's element id: ids must be unique within a page, so a page
/// holding several pictures gives each its own (`heat-scale-0`, `heat-scale-1`, ...).
/// How a page that prints the picture wants it (the audit report): `caption` false leaves the
/// caption out of the SVG (the page writes heatmap_caption as text, which the SVG's width then
/// does not follow: the picture stays about 700 px wide, A4's printable width, so it prints
/// unshrunk); every text at least `min_font` px (11 px prints at 8.25 pt).
struct heat_style {
  bool caption = true;
  double min_font = 0;
};
std::string heatmap_svg(const std::string& header, const std::vector<heat_panel>& panels,
                        const std::string& id = "heat-scale", const heat_style& style = {});

/// The caption heatmap_svg draws under `panels` (how z is computed and clipped).
std::string heatmap_caption(const std::vector<heat_panel>& panels);

/// The colour bar alone (an SVG of the given height in pixels), as drawn beside heatmap_svg;
/// `id` as for heatmap_svg.
std::string colour_bar_svg(double height, const std::string& id = "heat-scale");

}  // namespace shufl::render
