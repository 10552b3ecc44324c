# bash completion for shufl. Options are read from `shufl SUBCOMMAND --help`, algorithm names from
# `shufl bias --list`, which options take a closed list, files or a directory from
# `shufl --complete-values SUBCOMMAND` and the values of every closed list (--format, --rng,
# --seed-search, --game, ...) from `shufl --complete-values SUBCOMMAND OPTION` when completing, so
# this file never lists them itself and cannot drift.

_shufl_options() {
  # Every --long option (and -x short option) that the subcommand's --help lists.
  "$1" "$2" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,]//' | sort -u
}

_shufl_algorithms() {
  "$1" bias --list 2>/dev/null | awk 'NF && $1 !~ /:$/ {sub(/:[A-Z]+$/, "", $1); print $1}' | grep -E '^[a-z]' | sort -u
}

_shufl() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion -n =: || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
    # Bash splits words at the ':' of COMP_WORDBREAKS ('sort-coin:' is three words): take the
    # current and previous words from the line itself, split at spaces only.
    if [[ -n ${COMP_LINE-} ]]; then
      local line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
      cur=${line##* }
      local before=${line% *}
      before=${before%"${before##*[! ]}"}
      prev=${before##* }
    fi
  fi
  local prog=${words[0]} sub=""
  local i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      lines | bias | deck | trace | audit) sub=${words[i]}; break ;;
      help) break ;;
    esac
  done
  if [[ $(basename -- "$prog") == shuf ]]; then
    sub=lines
  fi
  if [[ -z $sub ]]; then
    if [[ $prev == help ]]; then
      COMPREPLY=($(compgen -W "lines bias deck trace audit" -- "$cur")); return
    fi
    COMPREPLY=($(compgen -W "lines bias deck trace audit help --help --version" -- "$cur"))
    return
  fi
  # '--report=si': complete the value after '=' as the option's own word. Bash replaces only the
  # text after the last COMP_WORDBREAKS character, so keep '--report=' only when '=' is not one.
  local eq="" split=0
  if [[ $cur == --*=* ]]; then
    prev=${cur%%=*} cur=${cur#*=} split=1
    [[ $COMP_WORDBREAKS == *=* ]] || eq=$prev=
  fi
  case $prev in
    --algo)
      # A list: complete the name after the last comma; ':' is part of the word (-n =: above,
      # so 'sort-coin:' is not split at the COMP_WORDBREAKS colon).
      local head=""
      [[ $cur == *,* ]] && head=${cur%,*},
      local names name
      names=$(_shufl_algorithms "$prog")
      COMPREPLY=()
      for name in $names; do
        [[ $head${name} == "$cur"* ]] && COMPREPLY+=("$head$name")
      done
      # Without bash-completion's helpers the colon still splits the word: drop what precedes it.
      if [[ $COMP_WORDBREAKS == *:* && $cur == *:* ]]; then
        local colon=${cur%"${cur##*:}"}
        COMPREPLY=("${COMPREPLY[@]#"$colon"}")
      fi
      return ;;
  esac
  if [[ $prev == -* ]]; then
    # How the option completes: "values" (a closed list), "files", "directories" (some options both).
    local query=$prog kinds
    [[ $(basename -- "$prog") == shuf ]] && query=${prog%shuf}shufl
    kinds=$("$query" --complete-values "$sub" 2>/dev/null | awk -v o="$prev" '$1 == o {print $2}')
    if [[ -n $kinds ]]; then
      COMPREPLY=()
      [[ $kinds == *values* ]] && COMPREPLY+=($(compgen -W "$("$query" --complete-values "$sub" "$prev" 2>/dev/null)" -- "$cur"))
      [[ $kinds == *files* ]] && COMPREPLY+=($(compgen -f -- "$cur"))
      [[ $kinds == *directories* ]] && COMPREPLY+=($(compgen -d -- "$cur"))
      [[ -n $eq ]] && COMPREPLY=("${COMPREPLY[@]/#/$eq}")
      return
    fi
  fi
  ((split)) && return  # an option without a list of values or paths
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_shufl_options "$prog" "$sub")" -- "${cur%%=*}"))
    return
  fi
  # A non-option word: a file name when `--complete-values COMMAND` says "positional files".
  local query=$prog
  [[ $(basename -- "$prog") == shuf ]] && query=${prog%shuf}shufl
  if "$query" --complete-values "$sub" 2>/dev/null | grep -qx 'positional files'; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

complete -F _shufl shufl
complete -F _shufl shuf 2>/dev/null || true
