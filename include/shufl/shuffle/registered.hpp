// The registered algorithms as (C++ type, CLI name) pairs, in `bias --list` order: the one list
// every table of algorithms is built from. The registry (src/shuffle.cpp) adds definitions and
// parameter ranges; other layers build their own tables from the same list (the bias trial loops,
// src/bias/bindings.cpp), so the algorithm layer never needs to know them.
#pragma once

#include <string_view>
#include <tuple>

#include "shufl/shuffle.hpp"

namespace shufl {

/// An algorithm function object type (see shuffle.hpp) with the name `--algo` knows it by.
template <class Algorithm>
struct registered_algorithm {
  using type = Algorithm;  ///< The function object: `Algorithm{}(deck, engine, parameter)`.
  std::string_view name;   ///< CLI name without parameter, e.g. "modulo".
};

/// Every registered algorithm, in `bias --list` order. Adding an algorithm: one line here and one
/// registry line (definition, parameters) in src/shuffle.cpp, which checks at compile time that
/// both lists agree name by name.
inline constexpr std::tuple registered_algorithms{
    registered_algorithm<fisher_yates_algorithm>{"fisher-yates"},
    registered_algorithm<inside_out_algorithm>{"inside-out"},
    registered_algorithm<pencil_and_paper_algorithm>{"pencil-and-paper"},
    registered_algorithm<two_array_algorithm>{"two-array"},
    registered_algorithm<naive_algorithm>{"naive"},
    registered_algorithm<sattolo_algorithm>{"sattolo"},
    registered_algorithm<asf_poker_algorithm>{"asf-poker"},
    registered_algorithm<sort_coin_insertion_algorithm>{"sort-coin:insertion"},
    registered_algorithm<sort_coin_merge_algorithm>{"sort-coin:merge"},
    registered_algorithm<sort_coin_bubble_algorithm>{"sort-coin:bubble"},
    registered_algorithm<sort_coin_selection_algorithm>{"sort-coin:selection"},
    registered_algorithm<random_keys_algorithm>{"random-keys"},
    registered_algorithm<modulo_algorithm>{"modulo"},
    registered_algorithm<transpositions_algorithm>{"transpositions"},
    registered_algorithm<riffle_algorithm>{"riffle"},
    registered_algorithm<thorp_algorithm>{"thorp"},
    registered_algorithm<shelf_algorithm>{"shelf"},
    registered_algorithm<overhand_algorithm>{"overhand"},
    registered_algorithm<pile_algorithm>{"pile"},
    registered_algorithm<cut_algorithm>{"cut"},
    registered_algorithm<sequence_algorithm>{"sequence"},
    registered_algorithm<weak_seed_algorithm>{"weak-seed"},
};

/// Number of registered algorithms.
inline constexpr std::size_t registered_algorithm_count = std::tuple_size_v<std::remove_cvref_t<decltype(registered_algorithms)>>;

}  // namespace shufl
