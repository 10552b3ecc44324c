// What `shufl audit --follow --group-by N` shows beside the per-group statuses: the final texts
// of a grouped run (the metrics of every group are follow_metrics_text's, follow_output.hpp).
#pragma once

#include <string>

#include "shufl/audit/follow.hpp"

namespace shufl::render {

/// The end of a grouped run: every group's final status (text lines "final (REASON): group G
/// ...", or JSON "final" objects with `reason`), then the batteries of every group (the text
/// reports, or in JSON the multi-audit document as the last object's `report`). `input` as given.
std::string follow_groups_final(const audit::follow_final& f, const std::string& reason, const std::string& input,
                                bool json);

}  // namespace shufl::render
