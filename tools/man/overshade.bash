# bash completion for overshade (installed as
# share/bash-completion/completions/overshade).
_overshade()
{
    local cur prev cmd opts
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "info spirv shader replay sweep run help --version" -- "$cur"))
        return
    fi
    case $prev in
    --out|--plot-only|--collect|--resubmit-failed)
        COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --engine)
        COMPREPLY=($(compgen -W "local slurm" -- "$cur")); return ;;
    --partition)
        COMPREPLY=($(compgen -W "$(sinfo --noheader --format=%R 2>/dev/null)" -- "$cur")); return ;;
    --modes)
        COMPREPLY=($(compgen -W "baseline qfm pmu cps amfs ssaa all" -- "$cur")); return ;;
    --msaa)
        COMPREPLY=($(compgen -W "1 2 4 8 16" -- "$cur")); return ;;
    --stage)
        COMPREPLY=($(compgen -W "vert tesc tese geom frag comp" -- "$cur")); return ;;
    --qfm-empty|--qfm-evict-merge|--qfm-centroid|--qfm-cross-grid|--early-tests|\
    --cps-lod-compensation)
        COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
    --amfs-filter)
        COMPREPLY=($(compgen -W "nearest bilinear" -- "$cur")); return ;;
    --amfs-resolution)
        COMPREPLY=($(compgen -W "request patch" -- "$cur")); return ;;
    esac
    case $cmd in
    info)   opts="--json --objects" ;;
    spirv)  opts="--stage --entry --ir" ;;
    shader) opts="--pipeline --draw --stage --glsl --hlsl --spirv" ;;
    replay) opts="--out --frames --modes --msaa --threads --repeat --retessellate --early-tests
                  --qfm-entries --qfm-window --qfm-evict-window --qfm-empty --qfm-evict-merge --qfm-centroid
                  --qfm-cross-grid
                  --pmu-entries --pmu-edges --cps-rate --cps-foveated
                  --cps-lod-compensation --cps-rate-from --amfs-eta --amfs-filter
                  --amfs-resolution" ;;
    sweep)  opts="--out --jobs --frames --modes --axis --set --plot-only --engine --partition
                  --time --sbatch-arg --no-wait --collect --resubmit-failed" ;;
    run)    opts="--modes --msaa --interval --threads --out --" ;;
    help)   COMPREPLY=($(compgen -W "info spirv shader replay sweep run" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ "$cmd" = spirv ]; then
        COMPREPLY=($(compgen -f -X '!*.spv' -- "$cur") $(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -X '!*.ovs' -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -F _overshade overshade
