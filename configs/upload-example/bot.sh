#!/bin/sh
# A UGI Connect Four bot in POSIX sh: the most central column that is not full. sh reads one line
# at a time and writes each echo at once, so it needs no flushing.
w=7; h=6; moves=""
while read -r cmd rest; do
  case "$cmd" in
    ugi) echo "id name shbot"; echo ugiok ;;
    isready) echo readyok ;;
    game) set -- $rest; w=$2; h=$3 ;;
    position) case "$rest" in *moves*) moves=${rest#*moves} ;; *) moves="" ;; esac ;;
    go)
      mid=$(( (w + 1) / 2 )); d=0; best=0
      while [ $best -eq 0 ] && [ $d -lt $w ]; do
        for c in $(( mid - d )) $(( mid + d )); do
          [ $best -ne 0 ] && break
          [ $c -lt 1 ] || [ $c -gt $w ] && continue
          n=0; for m in $moves; do [ "$m" = "$c" ] && n=$(( n + 1 )); done
          [ $n -lt $h ] && best=$c
        done
        d=$(( d + 1 ))
      done
      echo "bestmove $best" ;;
    quit) exit 0 ;;
  esac
done
