#!/bin/sh
# The compiler launcher of cmake/RidgepointCcache.cmake: runs one compile through ccache with the
# project's settings (described there).
#   ccache-launch.sh <source folder> <ccache> <compiler> <arguments>...
# A precompiled header is 240-350 MB (GCC, ASan). ccache hashes it for every source that uses it,
# about 2 s a cache hit, so after making one this writes its SHA-256 beside it (<header>.sum) and
# ccache hashes that instead (pch_external_checksum): 0.05 s a hit. The sum is removed before the
# header is made again, so no compile sees a new header with an old sum.
set -u
CCACHE_BASEDIR=$1
CCACHE_NOHASHDIR=1
CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
CCACHE_PCH_EXTSUM=1
export CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_SLOPPINESS CCACHE_PCH_EXTSUM
shift
out=
pch=0
prev=
for arg in "$@"; do
  case $prev in
    -o) out=$arg ;;
    -include) case $arg in */cmake_pch.hxx) pch=1 ;; esac ;;
  esac
  prev=$arg
done
# Results stored while ccache hashed the whole header are kept apart: ccache would go on
# matching them, the slow way, instead of storing new ones that name the sum.
if [ $pch -eq 1 ]; then
  CCACHE_NAMESPACE=pch-sum
  export CCACHE_NAMESPACE
fi
# The old header goes too: in the preprocessed text ccache hashes, GCC names an old
# cmake_pch.hxx.gch it finds beside cmake_pch.hxx (`#pragma GCC pch_preprocess`, with the old
# sum) instead of the headers it holds. A header made again in place so had another cache key
# than the same header made in a new build folder, and a new folder never found it.
case $out in
  *.gch | *.pch) rm -f "$out" "$out.sum" ;;
  *) exec "$@" ;;
esac
"$@" || exit
sum=$(sha256sum <"$out") || exit
printf '%s\n' "${sum%% *}" >"$out.sum.tmp" && mv -f "$out.sum.tmp" "$out.sum"
