# fish completion for shufl. Options come from `shufl SUBCOMMAND --help` and algorithm names from
# `shufl bias --list` at completion time, so this file cannot drift from the binary.

function __shufl_subcommand
    set -l tokens (commandline -opc)
    for t in $tokens[2..-1]
        switch $t
            case lines bias deck trace audit
                echo $t
                return 0
        end
    end
    return 1
end

function __shufl_options
    set -l sub (__shufl_subcommand)
    or return
    shufl $sub --help 2>/dev/null | string match -r -a -- '(?:^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*)' | string match -r -- '^--?[A-Za-z].*'
end

function __shufl_algorithms
    shufl bias --list 2>/dev/null | awk 'NF && $1 !~ /:$/ {sub(/:[A-Z]+$/, "", $1); print $1}' | string match -r '^[a-z].*'
end

complete -c shufl -f
complete -c shufl -n 'not __shufl_subcommand' -a 'lines bias deck trace audit help'
complete -c shufl -n 'not __shufl_subcommand' -l help -l version
complete -c shufl -n '__shufl_subcommand' -a '(__shufl_options)'
complete -c shufl -n '__fish_seen_subcommand_from lines' -F
complete -c shufl -l algo -x -a '(__shufl_algorithms)'
complete -c shufl -l rng -x -a 'chacha20 xoshiro256pp mt19937 minstd'
complete -c shufl -n '__fish_seen_subcommand_from bias' -l format -x -a 'text json csv'
complete -c shufl -n '__fish_seen_subcommand_from deck' -l format -x -a 'text json'
complete -c shufl -n '__fish_seen_subcommand_from trace' -l format -x -a 'text json html'
complete -c shufl -n '__fish_seen_subcommand_from audit' -l format -x -a 'text json'
complete -c shufl -l style -x -a 'code unicode glyph name'
complete -c shufl -l pack -x -a 'standard piquet skat euchre tarot'
complete -c shufl -l test -x -a 'auto table position'
complete -c shufl -s o -l output -l random-source -l input -l items -l cards-file -l plot -l save-counts -l merge -r -F
complete -c shufl -l temp-dir -x -a '(__fish_complete_directories)'
