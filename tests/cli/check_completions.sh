#!/usr/bin/env bash
# The shell completions (completions/) offer the values of every closed list the binary knows
# (`shufl --complete-values` lists them: --format, --rng, --pack, --style, --test, --game,
# --seed-search, --reseed, --loop, --reduce, --deck-order), file names after every option that
# takes a file (`shufl --complete-values COMMAND` says which: --report, --key, --state, -o ...;
# --deck-order both) and directories after --temp-dir, in bash, zsh and fish, and take all of it
# from the binary at completion time: a wrapper that adds a value "zz-added" to every list, a
# file option "--zz-path" to every command and file positionals to deck must see all three
# completed, with the completion files unchanged. The file positionals of audit and lines (and
# deck's, through the wrapper) complete file names, and '--opt=prefix' the option's value. Every option whose --help names a FILE, DIR, PAGE or key file is a file option.
# Usage: check_completions.sh SHUFL_BINARY SOURCE_DIR. Exit 0, 1 on a failure, 77 when zsh or fish
# is missing (scripts/setup.sh installs both).
set -u
real=$(readlink -f "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 missing=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

mkdir "$tmp/bin"
cat >"$tmp/bin/shufl" <<WRAP
#!/bin/sh
if [ "\$1" = --complete-values ] && [ \$# -eq 3 ]; then "$real" "\$@"; echo zz-added; exit 0; fi
if [ "\$1" = --complete-values ] && [ \$# -eq 2 ]; then "$real" "\$@"; echo "--zz-path files"; [ "\$2" != deck ] || echo "positional files"; exit 0; fi
exec "$real" "\$@"
WRAP
chmod +x "$tmp/bin/shufl"
export PATH="$tmp/bin:$PATH"
shufl="$tmp/bin/shufl"

pairs=$("$real" --complete-values)
[[ $(wc -l <<<"$pairs") -ge 17 ]] || bad "--complete-values lists too few options: $pairs"
for want in "audit --seed-search" "audit --game" "audit --reseed" "audit --loop" "audit --reduce" \
             "audit --deck-order" "bias --format" "trace --format" "deck --style" "bias --rng"; do
  grep -qx -- "$want" <<<"$pairs" || bad "--complete-values lacks '$want'"
done
[[ $("$real" --complete-values audit --game | tr '\n' ' ') == "poker blackjack " ]] || bad "audit --game values"
[[ -z $("$real" --complete-values audit --seeds) ]] || bad "an open option has values"
"$real" --complete-values audit --seed-search | grep -qx python-random || bad "no python-random family"

# `--complete-values COMMAND`: how each option completes; a wrong call is a usage error.
kinds=$("$real" --complete-values audit) || bad "--complete-values audit failed"
for want in "--format values" "--seed-search values" "--deck-order values" "--deck-order files" "--report files" \
            "--key files" "--state files" "--save-counts files" "--merge files" "--sign files" "--verify files"; do
  grep -qx -- "$want" <<<"$kinds" || bad "--complete-values audit lacks '$want'"
done
# Which commands' non-option words are files: lines and audit (its deck file), not bias or trace.
for sub in lines audit; do
  grep -qx -- "positional files" <<<"$("$real" --complete-values $sub)" || bad "$sub lacks 'positional files'"
done
for sub in bias deck trace; do
  grep -qx -- "positional files" <<<"$("$real" --complete-values $sub)" && bad "$sub has 'positional files'"
done
grep -qx -- "--temp-dir directories" <<<"$("$real" --complete-values lines)" || bad "lines --temp-dir"
grep -qx -- "--random-source files" <<<"$("$real" --complete-values lines)" || bad "lines --random-source"
err=$("$real" --complete-values audti 2>&1 >/dev/null); status=$?
[[ $status == 1 && $err == *"unknown command 'audti'; did you mean 'audit'?"* ]] || bad "unknown command: $status $err"
err=$("$real" --complete-values audit --format x 2>&1 >/dev/null); status=$?
[[ $status == 1 && $err == *"--complete-values takes at most COMMAND and OPTION"* ]] || bad "too many words: $status $err"
# Every option whose metavar in --help is a file or directory is one for the completions.
for sub in bias deck trace audit; do
  help_paths=$("$real" $sub --help | grep -oE -- '^ +(-[A-Za-z], )?--[a-z-]+ [A-Za-z.|]*(FILE|DIR|PAGE|\.pub)' | awk '{print $(NF-1)}')
  for opt in $help_paths; do
    grep -qE -- "^$opt (files|directories)\$" <<<"$("$real" --complete-values $sub)" || bad "$sub $opt takes a path but does not complete one"
  done
done
for opt in --output --random-source --temp-dir; do
  grep -qE -- "^$opt (files|directories)\$" <<<"$("$real" --complete-values lines)" || bad "lines $opt does not complete a path"
done

have_zsh=1 have_fish=1
command -v zsh >/dev/null || { echo "SKIP: zsh not installed"; have_zsh=0; missing=1; }
command -v fish >/dev/null || { echo "SKIP: fish not installed"; have_fish=0; missing=1; }

# Every option of every command that completes, completed in a folder holding one file and one
# directory: its closed list (and "zz-added"), the file names, the directories.
mkdir -p "$tmp/cwd/zz-dir" && touch "$tmp/cwd/zz-file" && cd "$tmp/cwd" || exit 1
checked=0
for sub in lines bias deck trace audit; do
  for opt in $("$shufl" --complete-values $sub | cut -d' ' -f1 | grep -- '^-' | sort -u); do
    kinds=$("$shufl" --complete-values $sub | awk -v o="$opt" '$1 == o {print $2}')
    values="" want_bash="" want_zsh="" want_fish=""
    [[ $kinds == *values* ]] && values=$( { "$real" --complete-values "$sub" "$opt"; echo zz-added; } | tr '\n' ' ')
    [[ $kinds == *files* ]] && want_bash="zz-dir zz-file" want_zsh="FILES" want_fish="zz-dir/ zz-file"
    [[ $kinds == *directories* ]] && want_bash="zz-dir" want_zsh="FILES -/" want_fish="zz-dir/"
    sorted() { tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' '; }
    checked=$((checked + 1))
    # bash: words as bash splits them, COMP_LINE as bash sets it.
    line="$shufl $sub $opt "
    got=$(bash --norc -c 'source "$1"; line=$2; read -ra COMP_WORDS <<< "$line"; COMP_WORDS+=("")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}; _shufl
      printf "%s\n" "${COMPREPLY[@]}"' _ "$src/completions/shufl.bash" "$line" | sorted)
    want=$(sorted <<<"$values $want_bash")
    [[ $got == "$want" ]] || bad "bash: '$sub $opt': got '$got', want '$want'"
    if ((have_zsh)); then
      # zsh: the completion function run with compadd, _files and _call_program standing in for zle's.
      got=$(zsh -f -c 'compadd() { if [[ $1 == -a ]]; then print -rl -- ${(P)2}; else print -rl -- "$@"; fi }
        _call_program() { shift; "$@" }; _files() { print -r FILES "$@" }
        words=("$1" "$2" "$3" ""); CURRENT=4; PREFIX=""; source "$4"' _ "$shufl" "$sub" "$opt" "$src/completions/_shufl" |
        sort | tr '\n' ' ')
      want=$( { tr ' ' '\n' <<<"$values"; [[ -n $want_zsh ]] && echo "$want_zsh"; } | grep -v '^$' | sort | tr '\n' ' ')
      [[ $got == "$want" ]] || bad "zsh: '$sub $opt': got '$got', want '$want'"
    fi
    if ((have_fish)); then
      got=$(HOME="$tmp" fish --no-config -c "source '$src/completions/shufl.fish'; complete -C'shufl $sub $opt '" | cut -f1 | sorted)
      want=$(sorted <<<"$values $want_fish")
      [[ $got == "$want" ]] || bad "fish: '$sub $opt': got '$got', want '$want'"
    fi
  done
done
((checked >= 45)) || bad "only $checked options complete"

# Options and algorithm names still complete in each shell.
line="$shufl audit --seed-s"
got=$(bash --norc -c 'source "$1"; line=$2; read -ra COMP_WORDS <<< "$line"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line; COMP_POINT=${#line}; _shufl; echo "${COMPREPLY[*]}"' _ "$src/completions/shufl.bash" "$line")
[[ $got == --seed-search ]] || bad "bash: option after audit: '$got'"
if ((have_fish)); then
  got=$(HOME="$tmp" fish --no-config -c "source '$src/completions/shufl.fish'; complete -C'shufl audit --seed-s'" | cut -f1)
  [[ $got == --seed-search ]] || bad "fish: option after audit: '$got'"
fi

# A non-option word completes file names where `--complete-values COMMAND` says "positional files"
# (audit, lines, and deck through the wrapper), after a flag too, and nothing for bias; '--opt=' +
# a prefix completes the option's value after the '=', the line given as bash splits it (at '=')
# with bash-completion's _init_completion when it is installed, and at spaces without it.
complete_bash() {  # LINE [BASH_COMPLETION]
  bash --norc -c '[[ -n $3 ]] && source "$3"; source "$1"; line=$2
    words=$line; [[ -n $3 ]] && words=${line//=/ = }
    read -ra COMP_WORDS <<< "$words"; [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}; _shufl
    printf "%s\n" "${COMPREPLY[@]}"' _ "$src/completions/shufl.bash" "$1" "${2-}" | sorted
}
complete_zsh() {  # WORD... (the last is the one completed); _files prints FILES, the prefixes
  zsh -f -c 'compadd() { if [[ $1 == -a ]]; then print -rl -- ${(P)2}; else print -rl -- "$@"; fi }
    compset() { [[ $1 == -P && $PREFIX == *=* ]] && IPREFIX=${PREFIX%%=*}= PREFIX=${PREFIX#*=} }
    _call_program() { shift; "$@" }; _files() { print -r FILES "$@" "$IPREFIX" "$PREFIX" }
    src=$1; shift; words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}; IPREFIX=""; source "$src"' \
    _ "$src/completions/_shufl" "$@" | sort | tr '\n' ' '
}
complete_fish() { HOME="$tmp" fish --no-config -c "source '$src/completions/shufl.fish'; complete -C'$1'" | cut -f1 | sorted; }
bc=/usr/share/bash-completion/bash_completion
for sub in audit "audit --follow" lines deck bias; do
  want="zz-file "; [[ $sub == bias ]] && want=""
  for helpers in "" $( [[ -r $bc ]] && echo "$bc"); do
    got=$(complete_bash "$shufl $sub zz-f" "$helpers")
    [[ $got == "$want" ]] || bad "bash${helpers:+ (bash-completion)}: '$sub zz-f': got '$got', want '$want'"
  done
  if ((have_zsh)); then
    got=$(complete_zsh "$shufl" $sub zz-f); want="FILES  zz-f "; [[ $sub == bias ]] && want=""
    [[ $got == "$want" ]] || bad "zsh: '$sub zz-f': got '$got', want '$want'"
  fi
  if ((have_fish)); then
    want="zz-file "; [[ $sub == bias ]] && want=""
    got=$(complete_fish "shufl $sub zz-f")
    [[ $got == "$want" ]] || bad "fish: '$sub zz-f': got '$got', want '$want'"
  fi
done
for helpers in "" $( [[ -r $bc ]] && echo "$bc"); do
  for case in "--report=zz-f|zz-file " "--format=j|json " "--deck-order=r|rank-major " "--seeds=1|" "--report=|zz-dir zz-file "; do
    got=$(complete_bash "$shufl audit ${case%%|*}" "$helpers")
    [[ $got == "${case#*|}" ]] || bad "bash${helpers:+ (bash-completion)}: 'audit ${case%%|*}': got '$got', want '${case#*|}'"
  done
done
if ((have_zsh)); then
  got=$(complete_zsh "$shufl" audit --report=zz-f)
  [[ $got == "FILES --report= zz-f " ]] || bad "zsh: 'audit --report=zz-f': got '$got'"
  got=$(complete_zsh "$shufl" audit --format=j)
  [[ $got == "json text zz-added " ]] || bad "zsh: 'audit --format=j': got '$got'"
fi
if ((have_fish)); then
  for case in "--report=zz-f|--report=zz-file " "--format=j|--format=json " "--seeds=1|"; do
    got=$(complete_fish "shufl audit ${case%%|*}")
    [[ $got == "${case#*|}" ]] || bad "fish: 'audit ${case%%|*}': got '$got', want '${case#*|}'"
  done
fi

((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
((missing == 0)) || exit 77
echo "completions: every closed list, file and directory option in bash, zsh and fish"
