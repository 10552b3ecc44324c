#!/usr/bin/env bash
# The shell completions (completions/) offer the values of every closed list the binary knows
# (`shufl --complete-values` lists them: --format, --rng, --pack, --style, --test, --game,
# --seed-search, --reseed, --loop, --reduce, --deck-order), in bash, zsh and fish, and take them
# from the binary at completion time: a wrapper that adds a value "zz-added" to every list must see
# it completed, with the completion files unchanged.
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

have_zsh=1 have_fish=1
command -v zsh >/dev/null || { echo "SKIP: zsh not installed"; have_zsh=0; missing=1; }
command -v fish >/dev/null || { echo "SKIP: fish not installed"; have_fish=0; missing=1; }

while read -r sub opt; do
  want=$( { "$real" --complete-values "$sub" "$opt"; echo zz-added; } | sort | tr '\n' ' ')
  # bash: words as bash splits them, COMP_LINE as bash sets it.
  line="$shufl $sub $opt "
  got=$(bash --norc -c 'source "$1"; line=$2; read -ra COMP_WORDS <<< "$line"; COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$line; COMP_POINT=${#line}; _shufl
    printf "%s\n" "${COMPREPLY[@]}"' _ "$src/completions/shufl.bash" "$line" | sort | tr '\n' ' ')
  [[ $got == "$want" ]] || bad "bash: '$sub $opt': got '$got', want '$want'"
  if ((have_zsh)); then
    # zsh: the completion function run with compadd and _call_program standing in for zle's.
    got=$(zsh -f -c 'compadd() { if [[ $1 == -a ]]; then print -rl -- ${(P)2}; else print -rl -- "$@"; fi }
      _call_program() { shift; "$@" }; _files() { print -r FILES }
      words=("$1" "$2" "$3" ""); CURRENT=4; PREFIX=""; source "$4"' _ "$shufl" "$sub" "$opt" "$src/completions/_shufl" |
      sort | tr '\n' ' ')
    [[ $got == "$want" ]] || bad "zsh: '$sub $opt': got '$got', want '$want'"
  fi
  if ((have_fish)); then
    got=$(HOME="$tmp" fish --no-config -c "source '$src/completions/shufl.fish'; complete -C'shufl $sub $opt '" |
      cut -f1 | sort | tr '\n' ' ')
    [[ $got == "$want" ]] || bad "fish: '$sub $opt': got '$got', want '$want'"
  fi
done <<<"$pairs"

# Options and algorithm names still complete in each shell.
line="$shufl audit --seed-s"
got=$(bash --norc -c 'source "$1"; line=$2; read -ra COMP_WORDS <<< "$line"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line; COMP_POINT=${#line}; _shufl; echo "${COMPREPLY[*]}"' _ "$src/completions/shufl.bash" "$line")
[[ $got == --seed-search ]] || bad "bash: option after audit: '$got'"
if ((have_fish)); then
  got=$(HOME="$tmp" fish --no-config -c "source '$src/completions/shufl.fish'; complete -C'shufl audit --seed-s'" | cut -f1)
  [[ $got == --seed-search ]] || bad "fish: option after audit: '$got'"
fi

((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
((missing == 0)) || exit 77
echo "completions: every closed list in bash, zsh and fish"
