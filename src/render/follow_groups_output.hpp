// What `shufl audit --follow --group-by N` shows beside the per-group statuses: the Prometheus
// text of every group (a `group` label on each series) and the final texts of a grouped run.
#pragma once

#include <string>
#include <vector>

#include "shufl/audit/follow.hpp"
#include "shufl/audit/follow_groups.hpp"

namespace shufl::render {

/// The Prometheus text exposition of every group (node_exporter's textfile collector):
/// decks, last deck time, the detector's log10 M, its threshold, alarms and the alarm flag,
/// each series labelled group="NAME" (escaped as the format wants).
std::string follow_group_metrics_text(const std::vector<audit::follow_group_record>& groups, double log10_threshold);

/// The end of a grouped run: every group's final status (text lines "final (REASON): group G
/// ...", or JSON "final" objects with `reason`), then the batteries of every group (the text
/// reports, or in JSON the multi-audit document as the last object's `report`). `input` as given.
std::string follow_groups_final(const audit::follow_final& f, const std::string& reason, const std::string& input,
                                bool json);

}  // namespace shufl::render
