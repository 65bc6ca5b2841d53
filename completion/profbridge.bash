# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bash completion for profbridge (installed as
# share/bash-completion/completions/profbridge). The words come from the
# program itself: `profbridge --complete-words` lists the commands and
# `profbridge --complete-words CMD` the options of CMD with their values'
# names and, where they are a known list, the values (src/cli/llvm_args.h),
# so a new option is completed without touching this file.

# _profbridge_values WORDS_TEXT OPTION: sets _pb_arg (the value's name, "-"
# for no value, empty for an unknown option) and _pb_vals (the values).
_profbridge_values() {
    local line word arg vals
    _pb_arg="" _pb_vals=""
    while read -r word arg vals; do
        if [[ $word == "$2" ]]; then
            _pb_arg=$arg _pb_vals=$vals
            return 0
        fi
    done <<<"$1"
    return 1
}

_profbridge() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev="" prog=${COMP_WORDS[0]}
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    # the command: the first word after the program that is no option
    local cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $cmd || $cmd == help ]]; then
        local top
        top=$("$prog" --complete-words 2>/dev/null) || return 0
        if [[ -n $cmd ]]; then # help CMD
            COMPREPLY=($(compgen -W "$(grep -v '^-' <<<"$top")" -- "$cur"))
        elif [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$(sed -n 's/^\(-[^ ]*\) .*/\1/p' <<<"$top")" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(grep -v '^-' <<<"$top")" -- "$cur"))
        fi
        return 0
    fi
    local words
    if [[ $cmd == cov ]]; then
        # cov has subcommands (export, report): the options are the subcommand's
        local sub="" j
        for ((j = i + 1; j < COMP_CWORD; j++)); do
            case ${COMP_WORDS[j]} in -*) ;; *) sub=${COMP_WORDS[j]}; break ;; esac
        done
        if [[ -z $sub ]]; then
            local subs
            subs=$("$prog" --complete-words cov 2>/dev/null | cut -d' ' -f1)
            if [[ $cur == -* ]]; then subs=$(grep '^-' <<<"$subs"); else subs=$(grep -v '^-' <<<"$subs"); fi
            COMPREPLY=($(compgen -W "$subs" -- "$cur"))
            return 0
        fi
        words=$("$prog" --complete-words cov "$sub" 2>/dev/null) || return 0
    else
        words=$("$prog" --complete-words "$cmd" 2>/dev/null) || return 0
    fi
    # --opt=VALUE: bash splits at '=' (COMP_WORDBREAKS), giving "--opt" "=" "VALUE"
    local opt="" 
    if [[ $cur == = ]]; then
        opt=$prev cur=""
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        opt=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $prev == -* ]]; then
        opt=$prev
    fi
    if [[ -n $opt ]] && _profbridge_values "$words" "$opt" && [[ $_pb_arg != - ]]; then
        if [[ -n $_pb_vals ]]; then
            COMPREPLY=($(compgen -W "$_pb_vals" -- "$cur"))
        else
            case $_pb_arg in
            *FILE* | OUT | IN | PROG | DIR) # a path
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac # else a number or a name: nothing to offer
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(cut -d' ' -f1 <<<"$words")" -- "$cur"))
        return 0
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
}
complete -F _profbridge profbridge
